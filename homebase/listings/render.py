"""Rows to wire payloads."""

from typing import Any

from homebase.kit.clock import isoformat
from homebase.kit.money import from_hundredths


def listing(row: dict[str, Any]) -> dict[str, Any]:
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
