from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict

from homebase.kit.money import Amount, Currency, FilterAmount
from homebase.kit.schema_rules import string_form
from homebase.kit.urls import WebUrl


class ListingStatus(StrEnum):
    coming_soon = "coming_soon"
    active = "active"
    pending = "pending"
    sold = "sold"
    withdrawn = "withdrawn"


def _text(max_length: int, min_length: int = 0) -> StringConstraints:
    """The constraints of a text member: `Annotated[str, _text(200)]`."""
    return StringConstraints(strip_whitespace=True, min_length=min_length, max_length=max_length)


class Photo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: Annotated[str, StringConstraints(min_length=1, max_length=2048)]
    caption: Annotated[str, _text(200)] | None = None


_LISTING_EXAMPLE: JsonDict = {
    "address": "1421 Sanchez St",
    "unit": None,
    "city": "San Francisco",
    "state": "CA",
    "zip": "94131",
    "price": "1495000.00",
    "currency": "USD",
    "beds": 3,
    "baths": 2.5,
    "square_feet": 1840,
    "property_type": "single_family",
    "status": "active",
    "description": "Sunny Noe Valley Victorian with a remodeled kitchen and a deep garden.",
    "photos": [{"url": "https://cdn.example.com/listings/1421-sanchez/1.jpg", "caption": "Front"}],
    "agent_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "url": "https://reyes-realty.example.com/listings/1421-sanchez",
}


class ListingFixture(BaseModel):
    """A listing as load-fixtures takes it (v1 reads listings but does not create them)."""

    model_config = ConfigDict(extra="forbid")

    address: Annotated[str, _text(200, 1)]
    unit: Annotated[str, _text(40)] | None = None
    city: Annotated[str, _text(80, 1)]
    state: Annotated[str, _text(40, 1)]
    zip: Annotated[str, _text(16, 1)]
    price: Amount | None = None
    currency: Currency = "USD"
    beds: Annotated[int, Field(ge=0, le=1000)] | None = None
    baths: Annotated[Decimal, Field(ge=0, le=1000, decimal_places=1)] | None = None
    square_feet: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    property_type: Annotated[str, _text(40)] | None = None
    status: ListingStatus = ListingStatus.active
    description: Annotated[str, _text(20000)] | None = None
    photos: Annotated[list[Photo], Field(max_length=100)] = Field(default_factory=list)
    agent_id: Annotated[str, _text(40)] | None = None
    url: WebUrl | None = None


class Listing(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "lst_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    **_LISTING_EXAMPLE,
                    "created_at": "2026-11-20T17:04:05.123Z",
                    "updated_at": "2026-11-20T17:04:05.123Z",
                }
            ]
        }
    )

    id: str
    address: str = Field(description="Street address.")
    unit: str | None
    city: str
    state: str
    zip: str
    price: str | None = Field(description="Asking price, decimal string in major units.")
    currency: str = Field(description="ISO 4217.")
    beds: int | None
    baths: float | None = Field(description="Half baths count 0.5.")
    square_feet: int | None
    property_type: str | None = Field(
        description="single_family, condo, townhouse, multi_family, land, ..."
    )
    status: ListingStatus
    description: str | None
    photos: list[Photo] = Field(description="In display order.")
    agent_id: str | None = Field(description="The listing agent, a workspace member.")
    url: str | None = Field(
        description="The listing's own page (absolute http or https), which the AI "
        "responder's replies may link."
    )
    created_at: datetime
    updated_at: datetime


class ListingFilters(BaseModel):
    status: ListingStatus | None = None
    city: Annotated[str, _text(80)] | None = Field(None, description="Exact, case-insensitive.")
    state: Annotated[str, _text(40)] | None = None
    zip: Annotated[str, _text(16)] | None = None
    # Filters compare, they store nothing: any number in range (kit/money.py FilterAmount).
    min_price: FilterAmount | None = None
    max_price: FilterAmount | None = None
    min_beds: Annotated[int, Field(ge=0, le=1000)] | None = None
    # The string form the document promises: 0 to 1000, at most one decimal place.
    min_baths: (
        Annotated[
            Decimal,
            Field(ge=0, le=1000, decimal_places=1),
            string_form(r"^(?:[0-9]{1,3}(?:\.[0-9])?|1000(?:\.0)?)$", places=1),
        ]
        | None
    ) = None
    property_type: Annotated[str, _text(40)] | None = None
    agent_id: Annotated[str, _text(40)] | None = None
