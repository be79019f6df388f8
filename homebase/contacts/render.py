"""Rows to wire payloads. Masking is decided here, once, from the credential's scopes."""

from typing import Any

from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_phone


def contact(row: dict[str, Any], *, pii: bool) -> dict[str, Any]:
    paused_at = row["ai_paused_at"]
    return {
        "id": row["id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "email": row["email"] if pii else mask_email(row["email"]),
        "phone": row["phone"] if pii else mask_phone(row["phone"]),
        "stage": row["stage"],
        "source": row["source"],
        "tags": row["tags"],
        "notes": row["notes"],
        "owner_id": row["owner_id"],
        "pii_masked": not pii,
        "ai_auto_response_paused": paused_at is not None,
        "ai_auto_response_paused_at": isoformat(paused_at),
        "anonymized_at": isoformat(row["anonymized_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def event(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "type": row["type"],
        "title": row["title"],
        "body": row["body"],
        "data": row["data"],
        "actor": row["actor"],
        "occurred_at": isoformat(row["occurred_at"]),
    }
