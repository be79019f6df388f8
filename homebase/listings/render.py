"""Rows to wire payloads."""

from typing import Any

from homebase.kit.clock import isoformat
from homebase.kit.money import from_hundredths
from homebase.listings.records import ListingRecord


# The Listing schema's photos are the Photo model a fixture is checked by (one component
# for both ways): no wire type until the two are told apart.
def listing(row: ListingRecord) -> dict[str, Any]:
    return {
        "id": row["id"],
        "address": row["address"],
        "unit": row["unit"],
        "city": row["city"],
        "state": row["state"],
        "zip": row["zip"],
        "price": from_hundredths(row["price_cents"]),
        "currency": row["currency"],
        "beds": row["beds"],
        "baths": row["baths"],
        "square_feet": row["square_feet"],
        "property_type": row["property_type"],
        "status": row["status"],
        "description": row["description"],
        "photos": row["photos"],
        "agent_id": row["agent_id"],
        "url": row["url"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
