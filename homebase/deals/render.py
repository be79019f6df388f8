"""Rows to wire payloads."""

from typing import Any

from homebase.custom_fields.definitions import Definitions
from homebase.kit.clock import isoformat
from homebase.kit.money import from_hundredths, share


def commission_amount(row: dict[str, Any]) -> int | None:
    stored: int | None = row["commission_cents"]
    if stored is not None:
        return stored
    if row["value_cents"] is not None and row["commission_rate_bp"] is not None:
        return share(row["value_cents"], row["commission_rate_bp"])
    return None


def deal(row: dict[str, Any], *, pii: bool, custom: Definitions) -> dict[str, Any]:
    """`custom`: the live custom fields of deals; `pii`: the credential holds
    contacts:read:pii, else phone numbers and emails inside custom text are masked."""
    close = row["expected_close_date"]
    return {
        "id": row["id"],
        "title": row["title"],
        "pipeline_id": row["pipeline_id"],
        "stage_id": row["stage_id"],
        "contact_id": row["contact_id"],
        "value": from_hundredths(row["value_cents"]),
        "currency": row["currency"],
        "expected_close_date": close.isoformat() if close is not None else None,
        "owner_id": row["owner_id"],
        "status": row["status"],
        "commission_rate": from_hundredths(row["commission_rate_bp"]),
        "commission_amount": from_hundredths(commission_amount(row)),
        "custom_fields": custom.render(row.get("custom_fields"), pii=pii),
        "stage_changed_at": isoformat(row["stage_changed_at"]),
        "closed_at": isoformat(row["closed_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def stage(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "key": row["key"],
        "name": row["name"],
        "position": row["position"],
        "probability": row["probability"],
    }


def pipeline(row: dict[str, Any], stages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "key": row["key"],
        "name": row["name"],
        "position": row["position"],
        "stages": [stage(item) for item in stages],
        "created_at": isoformat(row["created_at"]),
    }
