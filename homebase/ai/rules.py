"""The AI's rules that code enforces, for every provider: pure functions, no I/O.

- `handoff_reason(text)`: the service's own reading of a lead's text. A request for a
  person, or a question about commission, the law or lending, hands the lead to a
  person whatever the model would say (the model may add a handoff, never cancel one).
- `assemble(reply, persona, disclose)`: the text that goes out: the persona's disclosure
  first when it is due, the reply, the persona's signature last.
- `refusal(text, allowed_links, allowed_phone)`: why an assembled reply may not go out,
  or None: longer than two SMS segments (GSM-7: 306 characters, UCS-2: 134), any email
  address or a link that is not one of the persona's `links` or the workspace's listing
  `url`s (ai/link_rule.py), a phone number other than the persona's `phone`
  (ai/phone_rule.py).

docs/ai.md has the rules with examples; tests/ai/test_rules.py, test_link_rule.py and
test_phone_rule.py hold each one.
"""

from collections.abc import Iterable

from homebase.ai import link_rule, phone_rule
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


def refusal(text: str, allowed_links: Iterable[str], allowed_phone: str | None) -> str | None:
    """Why `text` (as it would go out) breaks a rule, or None. The reason is a short code
    kept on the job and in the task: too_long, email, link, phone."""
    if not fits_two_segments(text):
        return "too_long"
    broken, rest = link_rule.check(text, link_rule.allowed_links(allowed_links))
    if broken is not None:
        return broken
    return phone_rule.check(rest, allowed_phone)
