"""What an AI reply may say, for every provider (docs/ai.md, "What a reply may say"): pure
functions, no I/O. `check(reply, amounts)` gives the first rule the model's reply breaks,
or None:

- `fee_figure`: a percentage or an amount within FEE_DISTANCE words of commission, fee,
  split or rebate (`3% commission`, `a $5,000 rebate`, `split 50/50`);
- `advice`: legal, tax or lending advice, by the phrases of ADVICE (contingencies,
  "you don't need", rates, "you qualify");
- `fair_housing`: schools' quality, safety or crime, or the make-up of a neighbourhood
  (FAIR_HOUSING; the lead's texts that ask about them hand off too, ai/rules.py);
- `amount`: a currency amount that is neither a stored listing price nor an amount the
  lead wrote.

Beside them: `bare_json(reply)` (a JSON value or a quoted string is no reply: the
provider's error) and `strip_added(text, added)` (what the service adds, the disclosure
and the signature, taken out of what the model sees and says, so it is never repeated).
"""

import json
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from homebase.messaging.keywords import words
from homebase.messaging.segments import to_gsm7

FEE_FIGURE = "fee_figure"
ADVICE = "advice"
FAIR_HOUSING = "fair_housing"
AMOUNT = "amount"
FEE_DISTANCE = 4  # words between a fee word and its figure

Terms = tuple[tuple[str, ...], ...]


def _terms(*phrases: str) -> Terms:
    """Phrases as tuples of normalised words (messaging/keywords.words)."""
    return tuple(tuple(words(phrase)) for phrase in phrases)


ADVICE_TERMS = _terms(
    # legal
    "contingency",
    "contingencies",
    "you don't need",
    "you do not need",
    "you won't need",
    "no need for a lawyer",
    "no need for an inspection",
    "legally",
    "legally binding",
    "you can sue",
    "you could sue",
    # tax
    "tax deductible",
    "deductible",
    "write off",
    "capital gains",
    "1031 exchange",
    "tax break",
    "tax benefit",
    "tax benefits",
    # lending
    "rates are",
    "rate is",
    "interest rate",
    "interest rates",
    "you qualify",
    "you'll qualify",
    "you will qualify",
    "you'd qualify",
    "you would qualify",
    "you can qualify",
    "you can afford",
    "you are pre-approved",
    "you're pre-approved",
    "your monthly payment",
)
FAIR_HOUSING_TERMS = _terms(
    # schools' quality
    "schools",
    "school district",
    "school districts",
    "school rating",
    "school ratings",
    "good school",
    "great school",
    "best school",
    "top rated school",
    "escuelas",
    # safety, crime
    "safe",
    "safety",
    "unsafe",
    "crime",
    "crimes",
    "criminal",
    "dangerous",
    "sketchy",
    "bad area",
    "bad neighborhood",
    "crimen",
    "es seguro",
    "es segura",
    "barrio seguro",
    "zona segura",
    "seguridad",
    "delincuencia",
    "peligroso",
    "peligrosa",
    "inseguro",
    "insegura",
    # the make-up of a neighbourhood
    "demographics",
    "demographic",
    "diverse",
    "diversity",
    "ethnic",
    "ethnicity",
    "race",
    "racial",
    "religion",
    "religious",
    "what kind of people",
    "who lives there",
    "kind of neighbors",
    "type of people",
    "family friendly",
    "families with kids",
    "immigrants",
    "minorities",
)
_FEE_WORDS = frozenset(
    {"commission", "commissions", "fee", "fees", "split", "splits", "rebate", "rebates"}
    | {"comision", "honorarios", "tarifa"}
)
_CURRENCY = "$€£¥₹"
_FIGURE = re.compile(
    rf"[{_CURRENCY}]\s?\d|\d\s?%|%|\d+/\d+|^(percent|percentage|pct|dollars|usd|bucks|ciento)$",
    re.IGNORECASE,
)
# An amount of money: a currency sign and a number, with an optional multiplier; or a
# number with a multiplier or a currency word after it.
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MULTIPLIER = r"k|m|mm|mil|million|millions|thousand|bn|billion|millones"
_AMOUNT = re.compile(
    rf"(?P<sign>[{_CURRENCY}])\s?(?P<signed>{_NUMBER})"
    rf"(?:\s?(?P<signed_scale>{_MULTIPLIER})\b)?"
    rf"|\b(?P<named>{_NUMBER})\s?"
    rf"(?:(?P<named_scale>{_MULTIPLIER})\b|(?P<word>dollars|usd|bucks|d[oó]lares)\b)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(rf"\b(?:{_NUMBER})\b")
_SCALE = {"k": 1_000, "thousand": 1_000, "mil": 1_000, "bn": 1_000_000_000}
_SCALE |= dict.fromkeys(("m", "mm", "million", "millions", "millones"), 1_000_000)
_SCALE["billion"] = 1_000_000_000
_LEAD_MINIMUM = 1_000  # a bare number the lead wrote counts as an amount from here


def _found(split: list[str], terms: Terms) -> bool:
    for term in terms:
        size = len(term)
        if any(tuple(split[at : at + size]) == term for at in range(len(split) - size + 1)):
            return True
    return False


def fair_housing(text: str) -> bool:
    """The text touches schools' quality, safety or crime, or a neighbourhood's make-up."""
    return _found(words(text), FAIR_HOUSING_TERMS)


def fee_figure(text: str) -> bool:
    """A percentage or an amount within FEE_DISTANCE words of a fee word."""
    tokens = to_gsm7(text).split()
    fees = [at for at, token in enumerate(tokens) if _FEE_WORDS.intersection(words(token))]
    if not fees:
        return False
    figures = [at for at, token in enumerate(tokens) if _FIGURE.search(token.strip(".,;:!?()"))]
    return any(abs(fee - figure) <= FEE_DISTANCE for fee in fees for figure in figures)


def _cents(number: str, multiplier: str | None) -> int | None:
    try:
        value = Decimal(number.replace(",", ""))
    except InvalidOperation:
        return None
    scale = _SCALE.get((multiplier or "").lower(), 1)
    return int(value * scale * 100)


def amounts(text: str) -> list[int]:
    """The currency amounts a text states, in cents (`$612,000`, `$1.2M`, `700k`,
    `950 dollars`)."""
    found: list[int] = []
    for match in _AMOUNT.finditer(to_gsm7(text)):
        if match["signed"] is not None:
            cents = _cents(match["signed"], match["signed_scale"])
        else:
            cents = _cents(match["named"], match["named_scale"])
        if cents is not None:
            found.append(cents)
    return found


def lead_amounts(text: str) -> set[int]:
    """Every amount a lead's text may mean: its stated amounts, and its bare numbers from
    _LEAD_MINIMUM (`up to 700000`, `700,000`)."""
    found = set(amounts(text))
    for match in _BARE_NUMBER.finditer(text):
        cents = _cents(match.group(), None)
        if cents is not None and cents >= _LEAD_MINIMUM * 100:
            found.add(cents)
    return found


def check(reply: str, allowed_amounts: Iterable[int]) -> str | None:
    """The first rule the model's `reply` breaks (FEE_FIGURE, ADVICE, FAIR_HOUSING,
    AMOUNT), or None. `allowed_amounts`: the stored listing prices and the amounts the
    lead wrote, in cents."""
    if fee_figure(reply):
        return FEE_FIGURE
    split = words(reply)
    if _found(split, ADVICE_TERMS):
        return ADVICE
    if _found(split, FAIR_HOUSING_TERMS):
        return FAIR_HOUSING
    allowed = set(allowed_amounts)
    if any(amount not in allowed for amount in amounts(reply)):
        return AMOUNT
    return None


def bare_json(reply: str | None) -> bool:
    """A reply that is a JSON value but no text: `null`, `true`, `42`, `"Hello"`, or that
    starts like a structured answer (`{`, `[`, `"`) and does not parse."""
    if reply is None:
        return False
    text = reply.strip()
    if not text:
        return False
    try:
        json.loads(text)
    except ValueError:
        return text.startswith(("{", "[", '"'))
    return True


def strip_added(text: str, added: Iterable[str | None]) -> str:
    """`text` without any of `added` (the disclosure and signature, in every language the
    persona has), wherever they stand in it."""
    for part in sorted({p.strip() for p in added if p and p.strip()}, key=len, reverse=True):
        text = text.replace(part, " ")
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
