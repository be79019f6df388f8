"""Money on the wire: decimal strings in major units ("450000.00") with an ISO 4217 code;
in the database: integers of hundredths, so sums and comparisons are exact everywhere."""

from decimal import Decimal
from typing import Annotated

from pydantic import Field, StringConstraints

AMOUNT_PATTERN = r"^\d{1,13}(\.\d{1,2})?$"
MAX_AMOUNT = Decimal("9999999999999.99")

Amount = Annotated[Decimal, Field(ge=0, le=MAX_AMOUNT, max_digits=15, decimal_places=2,
                                  description="Decimal string in major units, at most two "
                                              "decimal places (a JSON number is accepted too).",
                                  examples=["450000.00"])]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$"),
                     Field(description="ISO 4217 code, upper case.", examples=["USD"])]
Percent = Annotated[Decimal, Field(ge=0, le=100, max_digits=5, decimal_places=2,
                                   description="Percent as a decimal string, at most two "
                                               "decimal places: \"2.50\" is 2.5 %.",
                                   examples=["2.50"])]


def to_hundredths(amount: Decimal | None) -> int | None:
    return None if amount is None else int((amount * 100).to_integral_value())


def from_hundredths(value: int | None) -> str | None:
    if value is None:
        return None
    return f"{value // 100}.{value % 100:02d}"


def share(amount_hundredths: int, percent_hundredths: int) -> int:
    """amount x percent / 100, rounded half up, in hundredths."""
    return (amount_hundredths * percent_hundredths + 5000) // 10000
