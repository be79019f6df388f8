"""The AI's rules that code enforces, for every provider: pure functions, no I/O.

- `handoff_reason(text)`: the service's own reading of a lead's text. A request for a
  person, or a question about commission, the law or lending, hands the lead to a
  person whatever the model would say (the model may add a handoff, never cancel one).
- `assemble(reply, persona, disclose)`: the text that goes out: the persona's disclosure
  first when it is due, the reply, the persona's signature last.
- `refusal(text, allowed_links, allowed_phone, segments_allowed=)`: why an assembled
  reply may not go out, or None: longer than HOMEBASE_AI_MAX_SEGMENTS SMS segments
  (messaging/segments.py; three: 459 GSM-7 or 201 UCS-2 characters), any email
  address or a link that is not one of the persona's `links` or the workspace's listing
  `url`s (ai/link_rule.py), a phone number other than the persona's `phone`
  (ai/phone_rule.py). What the model's reply says (fees, advice, Fair Housing, amounts)
  is ai/safe_words.py's.

docs/ai.md has the rules with examples; tests/ai/test_rules.py, test_link_rule.py and
test_phone_rule.py hold each one.
"""

from collections.abc import Iterable

from homebase.ai import link_rule, phone_rule, safe_words
from homebase.messaging import segments
from homebase.messaging.keywords import words

DEFAULT_SEGMENTS = 3  # HOMEBASE_AI_MAX_SEGMENTS' default
TOO_LONG = "too_long"

# The lead's words that hand the conversation to a person. Each term is a tuple of
# normalised words (messaging/keywords.words: case-folded, punctuation gone), matched
# as consecutive whole words.
PERSON = "asked_for_person"
COMMISSION = "commission"
LEGAL = "legal"
LENDING = "lending"
FAIR_HOUSING = safe_words.FAIR_HOUSING
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
    # Schools' quality, safety or crime, a neighbourhood's make-up: a person answers
    # (Fair Housing: the AI never steers), by the table the reply rule reads too.
    (FAIR_HOUSING, safe_words.FAIR_HOUSING_TERMS),
)
# Longer than any text a carrier delivers (ten segments): not read word by word.
MAX_READ = 1600


def handoff_reason(text: str | None) -> str | None:
    """Why a lead's text must go to a person (PERSON, COMMISSION, LEGAL, LENDING,
    FAIR_HOUSING), or None."""
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


def sendable(text: str) -> str:
    """The text as it goes out: typographic quotes, apostrophes and dashes in GSM-7
    (messaging/segments.py), counted and sent as mapped."""
    return segments.to_gsm7(text)


def characters_left(fixed: str, segments_allowed: int) -> tuple[int, int]:
    """What remains of `segments_allowed` segments after `fixed` (disclosure, signature),
    in GSM-7 and in UCS-2: the budgets a model is asked to keep to, by the encoding its
    reply will need. A `fixed` that is UCS-2 itself makes every reply UCS-2: both are the
    UCS-2 one."""
    gsm7_limit, ucs2_limit = segments.limits(segments_allowed)
    mapped = sendable(fixed)
    gsm7, used = segments.units(mapped)
    ucs2_left = max(0, ucs2_limit - segments.ucs2_units(mapped))
    return (max(0, gsm7_limit - used) if gsm7 else ucs2_left), ucs2_left


def refusal(
    text: str,
    allowed_links: Iterable[str],
    allowed_phone: str | None,
    *,
    segments_allowed: int = DEFAULT_SEGMENTS,
) -> str | None:
    """Why `text` (as it would go out) breaks a rule, or None. The reason is a short code
    kept on the job and in the task: too_long, email, link, phone."""
    if not segments.fits(text, segments_allowed):
        return TOO_LONG
    broken, rest = link_rule.check(text, link_rule.allowed_links(allowed_links))
    if broken is not None:
        return broken
    return phone_rule.check(rest, allowed_phone)
