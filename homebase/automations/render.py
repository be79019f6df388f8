"""Records to wire payloads."""

from typing import Any, cast

from typing_extensions import TypedDict

from homebase.ai.languages import DEFAULT as DEFAULT_LANGUAGES
from homebase.ai.showings import DEFAULT_HOURS, DEFAULT_MINUTES, HANDOFF_MINUTES
from homebase.automations.records import (
    AutomationRecord,
    CampaignRecord,
    EnrolmentRecord,
    PersonaRecord,
)
from homebase.automations.schemas import (
    Campaign,
    CampaignStatus,
    Enrolment,
    EnrolmentStatus,
    Persona,
    PersonaAction,
)
from homebase.kit.clock import isoformat
from homebase.messaging.schemas import MessageChannel


def persona(row: PersonaRecord) -> Persona:
    return {
        "id": row["id"],
        "name": row["name"],
        "tone": row["tone"],
        # stored as the enum's values, which are what the wire sends
        "channels": cast("list[MessageChannel]", row["channels"]),
        "signature": row["signature"],
        "instructions": row["instructions"],
        "responder": row["responder"],
        "disclosure": row["disclosure"],
        "handoff_reply": row["handoff_reply"],
        "handoff_assignee": row["handoff_assignee"],
        "handoff_minutes": row["handoff_minutes"] or HANDOFF_MINUTES,
        "links": row["links"] or [],
        # The business's own number, not a contact's: shown to every reader
        # (docs/decisions.md, "A persona's phone").
        "phone": row["phone"],
        # stored as PersonaAction's values, as the channels are
        "actions": cast("list[PersonaAction]", row["actions"] or []),
        "showing_hours": row["showing_hours"] or DEFAULT_HOURS,
        "showing_minutes": row["showing_minutes"] or DEFAULT_MINUTES,
        "qualification_fields": row["qualification_fields"] or [],
        "tags": row["tags"] or [],
        "languages": row["languages"] or list(DEFAULT_LANGUAGES),
        "translations": row["translations"] or {},
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


# The Automation schema documents each step's model; the row holds the steps' JSON as the
# fixture that made them wrote it (checked then): sent as stored, so no wire type yet.
def automation(row: AutomationRecord) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "enabled": row["enabled"],
        "steps": row["steps"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def campaign(row: CampaignRecord) -> Campaign:
    return {
        "id": row["id"],
        "name": row["name"],
        "persona_id": row["persona_id"],
        "automation_id": row["automation_id"],
        "status": cast(CampaignStatus, row["status"]),  # stored as the enum's value
        "audience": row["audience"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def enrolment(row: EnrolmentRecord) -> Enrolment:
    return {
        "id": row["id"],
        "automation_id": row["automation_id"],
        "contact_id": row["contact_id"],
        "status": cast(EnrolmentStatus, row["status"]),  # stored as the enum's value
        "step_index": row["step_index"],
        "next_run_at": isoformat(row["next_run_at"]),
        "attempts": row["attempts"],
        "last_error": row["last_error"],
        "finished_at": isoformat(row["finished_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


class AutomationRun(TypedDict):
    """automation.run's data, as outbox/catalogue.py documents it."""

    id: str
    automation_id: str
    automation_name: str
    contact_id: str
    status: str
    steps: int
    enrolled_at: str


def run_event(row: EnrolmentRecord, automation_row: AutomationRecord) -> AutomationRun:
    """automation.run data (outbox/catalogue.py documents it)."""
    return {
        "id": row["id"],
        "automation_id": automation_row["id"],
        "automation_name": automation_row["name"],
        "contact_id": row["contact_id"],
        "status": row["status"],
        "steps": len(automation_row["steps"]),
        "enrolled_at": isoformat(row["created_at"]),
    }
