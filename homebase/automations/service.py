"""Enrolling a contact: durable at once, with its automation.run event, in the request's
transaction; the engine (engine.py) runs it from the next tick."""

from homebase.automations import render, repository
from homebase.automations.records import (
    AutomationRecord,
    CampaignRecord,
    EnrolmentRecord,
    PersonaRecord,
)
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import Conflict, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.outbox.service import emit
from homebase.tasks import repository as tasks_repository
from homebase.workspaces import references


class AutomationDisabled(Conflict):
    code = "automation_disabled"
    message = "The automation is disabled; nothing was enrolled."


async def automation_or_404(session: TenantSession, automation_id: str) -> AutomationRecord:
    row = await repository.automation(session, automation_id)
    if row is None:
        raise NotFound("No such automation.")
    return row


async def persona_or_404(session: TenantSession, persona_id: str) -> PersonaRecord:
    row = await repository.persona(session, persona_id)
    if row is None:
        raise NotFound("No such persona.")
    return row


async def campaign_or_404(session: TenantSession, campaign_id: str) -> CampaignRecord:
    row = await repository.campaign(session, campaign_id)
    if row is None:
        raise NotFound("No such campaign.")
    return row


async def _contact_or_400(session: TenantSession, contact_id: str) -> ContactRecord:
    contact = await tasks_repository.get_contact(session, contact_id)
    if reason := references.refusal(contact):
        raise ValidationFailed.for_field("contact_id", reason)
    assert contact is not None  # refusal() refuses a missing contact
    return contact


async def enroll(
    session: TenantSession, automation_id: str, *, contact_id: str
) -> tuple[EnrolmentRecord, bool]:
    """(enrolment, created). A contact already active in the automation keeps its one
    enrolment: the answer is that enrolment with created false, and no second event."""
    automation = await automation_or_404(session, automation_id)
    await _contact_or_400(session, contact_id)
    if not automation["enabled"]:
        raise AutomationDisabled(details={"automation_id": automation_id})
    now = session.now()
    row: EnrolmentRecord = {
        "id": new_id("enr"),
        "automation_id": automation_id,
        "contact_id": contact_id,
        "status": "active",
        "step_index": 0,
        "next_run_at": now,
        "attempts": 0,
        "last_error": None,
        "actor": session.actor,
        "finished_at": None,
        "step_wait_until": None,
        "created_at": now,
        "updated_at": now,
    }
    if not await repository.insert_enrolment_if_none_active(session, row):
        existing = await repository.active_enrolment(session, automation_id, contact_id)
        if existing is not None:
            return existing, False
        raise Conflict("The contact's enrolment changed concurrently; try again.")
    session.mark_work()  # the engine runs its first step as soon as this commits
    await emit(session, "automation.run", data=render.run_event(row, automation))
    await timeline.record(
        session,
        contact_id,
        "automation_enrolled",
        f"Enrolled in automation {automation['name']}"[:200],
        data={"enrolment_id": row["id"], "automation_id": automation_id},
    )
    return row, True


async def scrub_contact_enrolments(session: TenantSession, contact_id: str) -> None:
    """An erasure's part of automations (erasure/registry.py): enrolments keep their
    status and steps (the engine stops an active one at its next tick); their last error
    keeps only its type."""
    await repository.scrub_errors_of_contact(session, contact_id)
