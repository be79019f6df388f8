"""A listing as the code carries it: the `listings` table's row (models/listing.py),
typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime

from typing_extensions import TypedDict


class PhotoRecord(TypedDict):
    """A photo as stored (a Photo's JSON: ListingFixture checks it before it is)."""

    url: str
    caption: str | None


class ListingRecord(TypedDict):
    id: str
    address: str
    unit: str | None
    city: str
    city_lower: str
    state: str
    zip: str
    price_cents: int | None
    currency: str
    beds: int | None
    baths: float | None
    square_feet: int | None
    property_type: str | None
    status: str  # a ListingStatus value
    description: str | None
    photos: list[PhotoRecord]
    agent_id: str | None
    url: str | None  # its page; an AI reply may link it
    created_at: datetime
    updated_at: datetime
