"""Records to wire payloads."""

from typing import Any, cast

from typing_extensions import TypedDict

from homebase.ai.languages import DEFAULT as DEFAULT_LANGUAGES
from homebase.ai.showings import DEFAULT_HOURS, DEFAULT_MINUTES, HANDOFF_MINUTES
from homebase.automations.campaign_schemas import (
    CampaignContact,
    CampaignContactState,
    CampaignSkipReason,
)
from homebase.automations.records import (
    AutomationRecord,
    CampaignContactRow,
    CampaignRecord,
    EnrolmentRecord,
    PersonaRecord,
)
from homebase.automations.schemas import (
    Campaign,
    CampaignChannel,
    CampaignStatus,
    Enrolment,
    EnrolmentStatus,
    Persona,
    PersonaAction,
    PersonaFirstTouch,
    VoicemailChoice,
)
from homebase.kit.clock import isoformat
from homebase.messaging.schemas import MessageChannel

FIRST_TOUCH_DELAY = 30  # seconds after the lead, when the persona names none
CALL_AFTER_TEXT = 10  # minutes after an unanswered text the AI calls, when none is named


def first_touch_delay(row: PersonaRecord) -> int:
    delay = row["first_touch_delay_seconds"]
    return FIRST_TOUCH_DELAY if delay is None else delay


def call_after_text(row: PersonaRecord) -> int:
    minutes = row["call_after_text_minutes"]
    return CALL_AFTER_TEXT if minutes is None else minutes


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
        "first_touch": cast("PersonaFirstTouch", row["first_touch"] or "off"),
        "first_touch_delay_seconds": first_touch_delay(row),
        "call_after_text_minutes": call_after_text(row),
        "follow_ups": row["follow_ups"] or [],
        "voice": bool(row["voice"]),
        "voicemail": cast("VoicemailChoice", row["voicemail"] or "hang_up"),
        "voicemail_text": row["voicemail_text"],
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
        "goal": row["goal"],
        "channel": cast(CampaignChannel, row["channel"]),  # stored as the enum's value
        "rate_per_hour": row["rate_per_hour"],
        "ends_at": isoformat(row["ends_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def _contact_state(row: CampaignContactRow) -> CampaignContactState:
    if row["state"] != "reached":
        return CampaignContactState(row["state"])  # pending | skipped
    if row["opted_out_at"] is not None:
        return CampaignContactState.opted_out
    if row["booked_at"] is not None:
        return CampaignContactState.booked
    if row["replied_at"] is not None:
        return CampaignContactState.replied
    return CampaignContactState.reached


def campaign_contact(row: CampaignContactRow) -> CampaignContact:
    reason = row["skip_reason"]
    return {
        "id": row["id"],
        "campaign_id": row["campaign_id"],
        "contact_id": row["contact_id"],
        "state": _contact_state(row),
        "skip_reason": None if reason is None else CampaignSkipReason(reason),
        "enrolled_at": isoformat(row["created_at"]),
        "reached_at": isoformat(row["reached_at"]),
        "skipped_at": isoformat(row["skipped_at"]),
        "replied_at": isoformat(row["replied_at"]),
        "booked_at": isoformat(row["booked_at"]),
        "opted_out_at": isoformat(row["opted_out_at"]),
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
    automation_id: str | None
    automation_name: str | None
    campaign_id: str | None
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
        "campaign_id": None,
        "contact_id": row["contact_id"],
        "status": row["status"],
        "steps": len(automation_row["steps"]),
        "enrolled_at": isoformat(row["created_at"]),
    }
