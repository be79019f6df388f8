"""The AI's rules that code enforces, for every provider: pure functions, no I/O.

- `handoff_reason(text)`: the service's own reading of a lead's text. A request for a
  person, or a question about commission, the law or lending, hands the lead to a
  person whatever the model would say (the model may add a handoff, never cancel one).
- `assemble(reply, persona, disclose)`: the text that goes out: the persona's disclosure
  first when it is due, the reply, the persona's signature last.
- `refusal(text, allowed_links, allowed_phone)`: why an assembled reply may not go out,
  or None: longer than two SMS segments (GSM-7: 306 characters, UCS-2: 134), a URL that
  is not one of the persona's `links` or the workspace's listing `url`s, a phone number
  other than the persona's `phone`, or any email address.

docs/ai.md has the rules with examples; tests/ai/test_rules.py holds each one.
"""

import re
from collections.abc import Iterable

from phonenumbers import Leniency, PhoneNumberMatcher

from homebase.kit.emails import EMAIL_IN_TEXT_PATTERN
from homebase.kit.phones import DEFAULT_REGION, to_e164
from homebase.messaging.keywords import words

# Two segments: a GSM-7 segment of a concatenated SMS holds 153 septets, a UCS-2 one 67
# UTF-16 units (the 7-byte header takes the rest of 160 / 70).
GSM7_LIMIT = 2 * 153
UCS2_LIMIT = 2 * 67
_GSM7_BASIC = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ ÆæßÉ!\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
_GSM7_EXTENDED = frozenset("^{}\\[~]|€\f")  # two septets each (an escape, then the char)

# The lead's words that hand the conversation to a person. Each term is a tuple of
# normalised words (messaging/keywords.words: case-folded, punctuation gone), matched
# as consecutive whole words.
PERSON = "asked_for_person"
COMMISSION = "commission"
LEGAL = "legal"
LENDING = "lending"
_SOMEONE = ("a", "an", "the", "my", "your", "someone", "somebody", "agent", "realtor", "broker")
_HANDOFF_TERMS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    (
        PERSON,
        (
            ("human",),
            ("real", "person"),
            ("a", "person"),
            *((verb, "to", whom) for verb in ("talk", "speak") for whom in _SOMEONE),
            ("call", "me"),
            ("representative",),
            ("are", "you", "a", "bot"),
            ("are", "you", "a", "robot"),
            ("are", "you", "real"),
            ("are", "you", "ai"),
        ),
    ),
    (
        COMMISSION,
        (("commission",), ("commissions",), ("your", "fee"), ("your", "fees"), ("you", "charge")),
    ),
    (
        LEGAL,
        (
            ("lawyer",),
            ("attorney",),
            ("legal",),
            ("legally",),
            ("lawsuit",),
        ),
    ),
    (
        LENDING,
        (
            ("mortgage",),
            ("mortgages",),
            ("loan",),
            ("loans",),
            ("lender",),
            ("lenders",),
            ("lending",),
            ("interest", "rate"),
            ("interest", "rates"),
            ("preapproved",),
            ("preapproval",),
            ("pre", "approved"),
            ("pre", "approval"),
            ("down", "payment"),
            ("credit", "score"),
            ("financing",),
            ("refinance",),
        ),
    ),
)
# Longer than any text a carrier delivers (ten segments): not read word by word.
MAX_READ = 1600

_URL = re.compile(
    r"(?i)\b(?:https?://[^\s<>\"']+|www\.[^\s<>\"']+"
    r"|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?:/[^\s<>\"']*)?)"
)
_EMAIL = re.compile(EMAIL_IN_TEXT_PATTERN)
_TRAILING = ".,;:!?)]}'\""


def handoff_reason(text: str | None) -> str | None:
    """Why a lead's text must go to a person (PERSON, COMMISSION, LEGAL, LENDING), or None."""
    if not text or len(text) > MAX_READ:
        return None
    split = words(text)
    for reason, terms in _HANDOFF_TERMS:
        for term in terms:
            size = len(term)
            if any(tuple(split[at : at + size]) == term for at in range(len(split) - size + 1)):
                return reason
    return None


def assemble(reply: str, disclosure: str | None, signature: str | None, *, disclose: bool) -> str:
    parts = []
    if disclose and disclosure:
        parts.append(disclosure.strip())
    parts.append(reply.strip())
    text = " ".join(parts)
    if signature and signature.strip():
        text += "\n" + signature.strip()
    return text


def is_gsm7(text: str) -> bool:
    return all(char in _GSM7_BASIC or char in _GSM7_EXTENDED for char in text)


def fits_two_segments(text: str) -> bool:
    if is_gsm7(text):
        septets = sum(2 if char in _GSM7_EXTENDED else 1 for char in text)
        return septets <= GSM7_LIMIT
    return len(text.encode("utf-16-le")) // 2 <= UCS2_LIMIT


def characters_left(fixed: str) -> int:
    """What remains of two segments after `fixed` (disclosure, signature), if the reply
    stays in GSM-7: the budget a model is asked to keep to."""
    return max(0, GSM7_LIMIT - len(fixed))


def _bare(url: str) -> str:
    url = url.rstrip(_TRAILING).lower()
    for scheme in ("https://", "http://"):
        if url.startswith(scheme):
            url = url[len(scheme) :]
    return url.rstrip("/")


def refusal(text: str, allowed_links: Iterable[str], allowed_phone: str | None) -> str | None:
    """Why `text` (as it would go out) breaks a rule, or None. The reason is a short code
    kept on the job and in the task: too_long, link, phone, email."""
    if not fits_two_segments(text):
        return "too_long"
    if _EMAIL.search(text):
        return "email"
    allowed = {_bare(link) for link in allowed_links if link}
    for match in _URL.finditer(text):
        url = match.group(0)
        if "@" in url:
            continue  # an email's domain: refused above
        if _bare(url) not in allowed:
            return "link"
    phone = to_e164(allowed_phone) if allowed_phone else None
    for number in PhoneNumberMatcher(text, DEFAULT_REGION, leniency=Leniency.POSSIBLE):
        if phone is None or to_e164(number.raw_string) != phone:
            return "phone"
    return None
