"""Money on the wire: decimal strings in major units ("450000.00") with an ISO 4217 code;
in the database: integers of hundredths, so sums and comparisons are exact everywhere."""

import re
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, StringConstraints, WithJsonSchema

from homebase.kit.schema_rules import string_form

AMOUNT_PATTERN = r"^\d{1,13}(\.\d{1,2})?$"
PERCENT_PATTERN = r"^\d{1,3}(\.\d{1,2})?$"
MAX_AMOUNT = Decimal("9999999999999.99")

Amount = Annotated[
    Decimal,
    Field(
        ge=0,
        le=MAX_AMOUNT,
        max_digits=15,
        decimal_places=2,
        description="Decimal string in major units, at most two "
        "decimal places and 13 digits before the point "
        "(a JSON number is accepted too, with the same "
        "limits).",
        examples=["450000.00"],
    ),
    string_form(AMOUNT_PATTERN, places=2),
]

# A JSON number's text (RFC 8259 6, leading zeros let through): what a price filter takes.
_NUMBER_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)


def _number_text(value: Any) -> Any:
    if isinstance(value, str) and not _NUMBER_TEXT.fullmatch(value):
        raise ValueError("Input should be a number such as 450000 or 450000.50")
    return value


# A price FILTER (min_price, max_price) stores nothing, so it takes any finite number from 0
# to MAX_AMOUNT, with any number of digits, and compares it exactly (hundredths_at_least /
# _at_most): 450000.004 as min_price matches 450000.01 and up. Stored amounts stay Amount.
FilterAmount = Annotated[
    Decimal,
    BeforeValidator(_number_text),
    Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False),
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "maximum": float(MAX_AMOUNT),
            "description": "In major units; any number of decimal places, compared "
            "exactly with the stored two.",
            "examples": [450000],
        }
    ),
]
Currency = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Z]{3}$"),
    Field(description="ISO 4217 code, upper case.", examples=["USD"]),
]
Percent = Annotated[
    Decimal,
    Field(
        ge=0,
        le=100,
        max_digits=5,
        decimal_places=2,
        description='Percent as a decimal string, at most two decimal places: "2.50" is 2.5 %.',
        examples=["2.50"],
    ),
    string_form(PERCENT_PATTERN, places=2),
]


def to_hundredths(amount: Decimal | None) -> int | None:
    return None if amount is None else int((amount * 100).to_integral_value())


def hundredths_at_least(amount: Decimal) -> int:
    """The smallest stored amount (in hundredths) that is >= `amount`, exactly: quantize
    rounds once, to the target exponent, whatever the digits or exponent of `amount`."""
    return int(amount.quantize(Decimal("0.01"), rounding=ROUND_CEILING).scaleb(2))


def hundredths_at_most(amount: Decimal) -> int:
    """The largest stored amount (in hundredths) that is <= `amount`, exactly."""
    return int(amount.quantize(Decimal("0.01"), rounding=ROUND_FLOOR).scaleb(2))


def from_hundredths(value: int | None) -> str | None:
    if value is None:
        return None
    return f"{value // 100}.{value % 100:02d}"


def share(amount_hundredths: int, percent_hundredths: int) -> int:
    """amount x percent / 100, rounded half up, in hundredths."""
    return (amount_hundredths * percent_hundredths + 5000) // 10000
