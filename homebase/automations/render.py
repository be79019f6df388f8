"""Rows to wire payloads."""

from typing import Any

from homebase.ai.showings import DEFAULT_HOURS, DEFAULT_MINUTES
from homebase.kit.clock import isoformat


def _times(row: dict[str, Any]) -> dict[str, Any]:
    return {"created_at": isoformat(row["created_at"]), "updated_at": isoformat(row["updated_at"])}


def persona(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "tone": row["tone"],
        "channels": row["channels"],
        "signature": row["signature"],
        "instructions": row["instructions"],
        "responder": row["responder"],
        "disclosure": row["disclosure"],
        "handoff_reply": row["handoff_reply"],
        "handoff_assignee": row["handoff_assignee"],
        "links": row["links"] or [],
        # The business's own number, not a contact's: shown to every reader
        # (docs/decisions.md, "A persona's phone").
        "phone": row["phone"],
        "actions": row["actions"] or [],
        "showing_hours": row["showing_hours"] or DEFAULT_HOURS,
        "showing_minutes": row["showing_minutes"] or DEFAULT_MINUTES,
        "qualification_fields": row["qualification_fields"] or [],
        "tags": row["tags"] or [],
        **_times(row),
    }


def automation(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "enabled": row["enabled"],
        "steps": row["steps"],
        **_times(row),
    }


def campaign(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "persona_id": row["persona_id"],
        "automation_id": row["automation_id"],
        "status": row["status"],
        "audience": row["audience"],
        **_times(row),
    }


def enrolment(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "automation_id": row["automation_id"],
        "contact_id": row["contact_id"],
        "status": row["status"],
        "step_index": row["step_index"],
        "next_run_at": isoformat(row["next_run_at"]),
        "attempts": row["attempts"],
        "last_error": row["last_error"],
        "finished_at": isoformat(row["finished_at"]),
        **_times(row),
    }


def run_event(row: dict[str, Any], automation_row: dict[str, Any]) -> dict[str, Any]:
    """automation.run data."""
    return {
        "id": row["id"],
        "automation_id": automation_row["id"],
        "automation_name": automation_row["name"],
        "contact_id": row["contact_id"],
        "status": row["status"],
        "steps": len(automation_row["steps"]),
        "enrolled_at": isoformat(row["created_at"]),
    }
