"""Rows to wire payloads and event data."""

from typing import Any

from homebase.kit.clock import isoformat

STATUS_OF = {None: "scheduled", "showed": "done", "no_show": "done", "cancelled": "cancelled"}


def appointment(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "title": row["title"],
        "starts_at": isoformat(row["starts_at"]),
        "ends_at": isoformat(row["ends_at"]),
        "location": row["location"],
        "notes": row["notes"],
        "created_by": row["created_by"],
        "assignee_id": row["assignee_id"],
        "outcome": row["outcome"],
        "outcome_recorded_at": isoformat(row["outcome_recorded_at"]),
        "status": STATUS_OF[row["outcome"]],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def event(row: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Event data: the appointment without its notes (free text that may hold personal
    data travels only to credentials that fetch it). No phone numbers at all."""
    payload = appointment(row)
    del payload["notes"]
    return {**payload, **extra}
