"""What each step does. Every effect is a write in the engine's transaction, next to the
step's idempotency record, so a step takes effect once or not at all.

send_message reuses messaging's send path (the one POST /messages uses): every
compliance gate applies, a refusal is recorded FAILED and the step is `blocked`.
Before that, two AI rules: a contact whose AI auto-response is paused (a note was added)
gets no AI message (`skipped`), and no AI text goes to a contact with a lead whose
ai_outbound_allowed is false (`blocked`). The enrolment continues either way.

A text that only the lawful hours would refuse (quiet hours, a state's days and hours,
its attempt limit: messaging/lawful.py) waits instead of failing: the step is not run
and the enrolment is due again at the recipient's next allowed minute (`retry_at`), at
most 24 hours after the step first waited (the enrolment's `step_wait_until`); past it
the step runs and is refused and recorded as before.

ai_text queues the AI's text as the responder persona (ai/outreach.py): the worker
composes it outside any transaction and sends it through the same gates, waiting for
the lawful hours itself; the step is `done` once it is queued.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from homebase.ai import outreach
from homebase.automations import persona_texts, repository
from homebase.automations.records import EnrolmentRecord
from homebase.automations.steps import (
    AiTextStep,
    CreateTaskStep,
    MoveStageStep,
    SendMessageStep,
    Step,
    WaitStep,
    fill,
)
from homebase.compliance.gates import TEXT_CHANNELS
from homebase.config import Settings
from homebase.contacts import service as contacts_service
from homebase.contacts.records import ContactRecord
from homebase.contacts.schemas import ContactUpdate
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ComplianceBlocked, ValidationFailed
from homebase.leads.render import ai_outbound_allowed
from homebase.messaging import lawful
from homebase.messaging import service as messaging_service
from homebase.tasks import service as tasks_service
from homebase.tasks.schemas import TaskCreate
from homebase.workspaces import references


@dataclass(frozen=True)
class Outcome:
    outcome: str  # done | blocked | skipped
    detail: str | None = None
    message_id: str | None = None
    task_id: str | None = None
    resume_at: datetime | None = None  # a wait: when the next step may run
    retry_at: datetime | None = None  # the step waits: run it again then, not recorded


WAITS_AT_MOST = timedelta(hours=24)  # a text step waits this long for a lawful minute


async def execute(
    session: TenantSession,
    step: Step,
    contact: ContactRecord,
    settings: Settings,
    *,
    enrolment: EnrolmentRecord | None = None,
) -> Outcome:
    """The step's effect. `enrolment`: the one it runs for (its id, step and how long
    a waiting text step may still wait)."""
    if isinstance(step, SendMessageStep):
        return await send_message(session, step, contact, settings, enrolment=enrolment)
    if isinstance(step, AiTextStep):
        return await ai_text(session, step, contact, enrolment=enrolment)
    if isinstance(step, WaitStep):
        until = session.now() + timedelta(seconds=step.total_seconds)
        return Outcome("done", f"waiting until {until.isoformat()}", resume_at=until)
    if isinstance(step, CreateTaskStep):
        return await create_task(session, step, contact)
    if isinstance(step, MoveStageStep):
        return await move_stage(session, step, contact)
    raise TypeError(f"unknown step {step!r}")


async def _lead_refuses_ai(session: TenantSession, contact: ContactRecord) -> bool:
    now = session.now()
    return any(
        not ai_outbound_allowed(lead, now)
        for lead in await repository.leads_of_contact(session, contact["id"])
    )


def _wait_until(session: TenantSession, enrolment: EnrolmentRecord | None) -> datetime:
    if enrolment is not None and enrolment["step_wait_until"] is not None:
        return enrolment["step_wait_until"]
    return session.now() + WAITS_AT_MOST


async def _lawful_wait(
    session: TenantSession,
    channel: str,
    address: str,
    enrolment: EnrolmentRecord | None,
) -> Outcome | None:
    """When only the lawful hours refuse the text now, and a lawful minute comes before
    the step's wait is over: the step waits for it. Otherwise None: send (a refusal is
    recorded as every refusal is)."""
    reason = await lawful.waits(session, channel, address)
    if reason is None:
        return None
    latest = _wait_until(session, enrolment)
    if session.now() >= latest:
        return None
    when = await lawful.lawful_at(session, address, latest=latest)
    if when is None or when <= session.now():
        return None
    return Outcome("waiting", f"{reason}: waiting until {when.isoformat()}", retry_at=when)


async def ai_text(
    session: TenantSession,
    step: AiTextStep,
    contact: ContactRecord,
    *,
    enrolment: EnrolmentRecord | None,
) -> Outcome:
    if contact["ai_paused_at"] is not None:
        return Outcome(
            "skipped",
            "ai_auto_response_paused: the contact's AI auto-response is paused "
            f"({contact['ai_paused_reason']})",
        )
    if not contact["phone_e164"]:
        return Outcome("skipped", "the contact has no phone number")
    if await _lead_refuses_ai(session, contact):
        return Outcome(
            "blocked",
            "ai_outbound_not_allowed: a lead of this contact has no consent for AI texts or calls",
        )
    if enrolment is None:  # never: the engine runs every step for an enrolment
        return Outcome("skipped", "no enrolment")
    if await repository.responder(session) is None:
        return Outcome("skipped", "the workspace has no responder persona")
    queued = await outreach.automation_text(
        session,
        contact_id=contact["id"],
        enrolment_id=enrolment["id"],
        step=enrolment["step_index"],
    )
    if queued is not None:
        return Outcome("done", f"AI text queued ({queued})")
    latest = _wait_until(session, enrolment)
    if session.now() < latest:  # the contact has an AI text under way: after it
        retry = min(session.now() + timedelta(minutes=1), latest)
        return Outcome("waiting", "an AI text to the contact is under way", retry_at=retry)
    return Outcome("skipped", "an AI text to the contact was under way for 24 hours")


async def send_message(
    session: TenantSession,
    step: SendMessageStep,
    contact: ContactRecord,
    settings: Settings,
    *,
    enrolment: EnrolmentRecord | None = None,
) -> Outcome:
    if contact["ai_paused_at"] is not None:
        return Outcome(
            "skipped",
            "ai_auto_response_paused: the contact's AI auto-response is paused "
            f"({contact['ai_paused_reason']})",
        )
    channel = step.channel.value
    if channel in TEXT_CHANNELS and await _lead_refuses_ai(session, contact):
        return Outcome(
            "blocked",
            "ai_outbound_not_allowed: a lead of this contact has no consent for AI texts or calls",
        )
    persona = await repository.persona(session, step.persona_id)
    if persona is None or channel not in persona["channels"]:
        return Outcome("skipped", "the persona is missing or does not use this channel")
    body = fill(step.template, contact, persona["name"])
    signature = persona_texts.fill(
        persona["signature"], await persona_texts.signer(session, contact, persona)
    )
    if signature:
        body = f"{body}\n{signature}"
    if channel in TEXT_CHANNELS and contact["phone_e164"]:
        waiting = await _lawful_wait(session, channel, contact["phone_e164"], enrolment)
        if waiting is not None:
            return waiting
    values = {"channel": channel, "contact_id": contact["id"], "body": body, "ai_generated": True}
    if step.subject is not None:  # email only (the step's own rule)
        values["subject"] = step.subject
    try:
        request = messaging_service.request_from(values)  # e.g. a text over 1600 characters
        row = await messaging_service.send(session, request, email_from=settings.email_from)
    except ComplianceBlocked as refusal:
        return Outcome(
            "blocked", refusal.message[:500], message_id=(refusal.details or {}).get("message_id")
        )
    except ValidationFailed as invalid:  # e.g. the contact has no phone number
        return Outcome("skipped", invalid.message[:500])
    return Outcome("done", f"{channel} queued", message_id=row["id"])


async def create_task(
    session: TenantSession, step: CreateTaskStep, contact: ContactRecord
) -> Outcome:
    assignee = step.assignee_id
    if (
        assignee is None
        and contact["owner_id"]
        and await references.member_exists(session, contact["owner_id"])
    ):
        assignee = contact["owner_id"]
    due_at = (
        session.now() + timedelta(minutes=step.due_in_minutes)
        if step.due_in_minutes is not None
        else None
    )
    data = TaskCreate(
        title=fill(step.title, contact)[:200],
        contact_id=contact["id"],
        assignee_id=assignee,
        due_at=due_at,
        notes=step.notes,
    )
    try:
        task, created = await tasks_service.create_task(session, data, source="automation")
    except ValidationFailed as invalid:  # the named assignee is no longer a member
        return Outcome("skipped", invalid.message[:500])
    return Outcome(
        "done", None if created else "an identical task already existed", task_id=task["id"]
    )


async def move_stage(
    session: TenantSession, step: MoveStageStep, contact: ContactRecord
) -> Outcome:
    previous = contact["stage"]
    await contacts_service.update_contact(
        session, contact["id"], patch=ContactUpdate(stage=step.stage)
    )
    if previous == step.stage.value:
        return Outcome("done", f"already {previous}")
    return Outcome("done", f"{previous} -> {step.stage.value}")
