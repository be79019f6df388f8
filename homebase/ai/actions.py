"""What the AI's tool calls do (docs/ai.md, "Actions"): checked during the rounds, done
once at the end.

`check` runs during the model's rounds, in a transaction that writes nothing to the
workspace: it validates a call (ai/tools.py) and checks it against the workspace (the
listing is the workspace's and active; the slot is free for the contact's owner, inside
the persona's showing hours, in the future; a value fits its field; a stage is no
demotion; a tag is the persona's) and answers the model with what would happen or why
not, as the call's tool result.

`perform_all` runs in the transaction that ends the job (fenced by its lease) and queues
the reply: each accepted call is checked again and done through the service the API's
own endpoint uses, so every event, timeline entry, calendar push and webhook happens.
What it did is kept in the action log (`ai_actions`: ids and outcomes only); what is
already so (the same showing booked, the stage already set) is logged `already_done` and
done no second time, so a job composed twice never books twice.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from homebase.ai import action_rules, repository, showings, tools
from homebase.ai.prompt import ToolCall
from homebase.ai.records import ShowingRow
from homebase.appointments import service as appointments
from homebase.appointments.schemas import AppointmentCreate, AppointmentUpdate
from homebase.automations.records import PersonaRecord
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.contacts.schemas import ContactUpdate
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ApiError
from homebase.kit.ids import new_id
from homebase.kit.masking import mask_freeform
from homebase.tasks.schemas import TaskCreate
from homebase.tasks.service import create_task
from homebase.workspaces import references
from homebase.workspaces.time_zone import time_zone

PERFORMED = "performed"
ALREADY = "already_done"
REFUSED = "refused"
NAMES: dict[type, str] = {
    tools.Book: tools.BOOK,
    tools.Reschedule: tools.RESCHEDULE,
    tools.Cancel: tools.CANCEL,
    tools.Qualify: tools.QUALIFY,
    tools.Stage: tools.STAGE,
    tools.Tags: tools.TAGS,
    tools.Task: tools.TASK,
    tools.OptOut: tools.OPT_OUT,
    tools.HandOff: tools.HAND_OFF,
}
BY_RULE = "rule"  # a promotion the rules made, logged as set_stage
# A contact's custom values by field key: a JSON scalar or a list of choices.
Values = dict[str, str | int | float | bool | list[str]]


@dataclass(frozen=True)
class Desk:
    """What a call is checked against: the job, the contact, what the persona allows,
    the workspace's time zone, who shows a listing (the contact's owner, else the
    persona's handoff_assignee, each only while a member) and the time."""

    job_id: str
    contact: ContactRecord
    allowed: tuple[str, ...]  # the persona's actions
    qualification_fields: tuple[str, ...]
    tags: tuple[str, ...]
    hours: dict[str, tuple[time, time]]
    minutes: int
    zone: ZoneInfo
    shower: str | None
    now: datetime


@dataclass(frozen=True)
class Planned:
    """A call the service accepted during the rounds, to perform at the end."""

    call_id: str
    action: tools.Action

    @property
    def tool(self) -> str:
        return NAMES[type(self.action)]


@dataclass(frozen=True)
class Verdict:
    problem: str | None = None
    would: str = ""
    already: str | None = None  # the object that already makes it so (an appointment id)
    values: Values = field(default_factory=dict)  # set_qualification's, typed


@dataclass(frozen=True)
class Performed:
    tool: str
    outcome: str  # performed, already_done, refused
    object_id: str | None = None
    detail: str | None = None


async def desk(
    session: TenantSession,
    job_id: str,
    contact: ContactRecord,
    persona: PersonaRecord,
) -> Desk:
    shower = None
    for candidate in (contact["owner_id"], persona["handoff_assignee"]):
        if candidate and await references.member_exists(session, candidate):
            shower = str(candidate)
            break
    return Desk(
        job_id=job_id,
        contact=contact,
        allowed=tuple(persona["actions"] or ()),
        qualification_fields=tuple(persona["qualification_fields"] or ()),
        tags=tuple(persona["tags"] or ()),
        hours=showings.hours_of(persona["showing_hours"]),
        minutes=int(persona["showing_minutes"] or showings.DEFAULT_MINUTES),
        zone=await time_zone(session),
        shower=shower,
        now=session.now(),
    )


async def qualification(session: TenantSession, contact: ContactRecord) -> Values:
    """The contact's custom values by field key (stored by field id)."""
    return (await contacts.definitions(session)).render(contact["custom_fields"], pii=True)


def result(ok: bool, text: str) -> str:
    """A tool result as the model reads it: a JSON object."""
    return json.dumps({"ok": True, "would": text} if ok else {"ok": False, "error": text})


async def check(session: TenantSession, desk: Desk, call: ToolCall) -> tuple[str, Planned | None]:
    """The call's tool result, and the call when it would be performed."""
    action, problem = tools.parsed(call, desk.allowed)
    if action is None:
        return result(False, problem or "refused"), None
    verdict = await examine(session, desk, action)
    if verdict.problem is not None:
        return result(False, verdict.problem), None
    return result(True, verdict.would), Planned(call.id, action)


def _local(moment: datetime, zone: ZoneInfo) -> str:
    return f"{moment.astimezone(zone):%A %d %B %Y at %H:%M} ({zone.key})"


async def _slot(
    session: TenantSession, desk: Desk, start: datetime, *, moving: str | None = None
) -> str | None:
    if desk.shower is None:
        return "the lead has no agent to show it: hand off instead"
    end = start + timedelta(minutes=desk.minutes)
    busy = [
        (begins, ends)
        for begins, ends, appointment_id in await repository.busy(
            session, desk.shower, start - timedelta(days=1), end + timedelta(days=1)
        )
        if appointment_id != moving
    ]
    return showings.refusal(start, desk.now, desk.zone, desk.hours, desk.minutes, busy)


async def _own_appointment(
    session: TenantSession, desk: Desk, appointment_id: str
) -> tuple[ShowingRow | None, str | None]:
    row = await repository.appointment(session, appointment_id)
    if row is None or row["contact_id"] != desk.contact["id"]:
        return None, "no appointment of this lead has that id"
    if row["outcome"] is not None:
        return row, f"that appointment is already {row['outcome']}"
    return row, None


async def examine(session: TenantSession, desk: Desk, action: tools.Action) -> Verdict:
    """Whether `action` may be done now, and what it would do."""
    if isinstance(action, tools.Book):
        return await _book(session, desk, action)
    if isinstance(action, tools.Reschedule):
        row, problem = await _own_appointment(session, desk, action.appointment_id)
        if problem is not None or row is None:
            return Verdict(problem)
        start = action.start()
        if row["starts_at"] == start:
            return Verdict(would="it is already at that time", already=row["id"])
        problem = await _slot(session, desk, start, moving=row["id"])
        return Verdict(problem, f"moves {row['title']} to {_local(start, desk.zone)}")
    if isinstance(action, tools.Cancel):
        row, problem = await _own_appointment(session, desk, action.appointment_id)
        if row is not None and row["outcome"] == "cancelled":
            return Verdict(would="it is already cancelled", already=row["id"])
        if problem is not None or row is None:
            return Verdict(problem)
        return Verdict(would=f"cancels {row['title']} on {_local(row['starts_at'], desk.zone)}")
    if isinstance(action, tools.Qualify):
        return await _qualify(session, desk, action)
    if isinstance(action, tools.Stage):
        problem = action_rules.stage_refusal(desk.contact["stage"], action.stage)
        if problem is None and desk.contact["stage"] == action.stage:
            return Verdict(would=f"the lead is already {action.stage}", already=BY_RULE)
        return Verdict(problem, f"marks the lead {action.stage}")
    if isinstance(action, tools.Tags):
        allowed = set(desk.tags)
        outside = [tag for tag in action.tags if tag not in allowed]
        if outside:
            return Verdict(f"not a tag you may add: {', '.join(outside)[:200]}")
        new = [tag for tag in action.tags if tag not in desk.contact["tags"]]
        if not new:
            return Verdict(would="the lead already has those tags", already=BY_RULE)
        return Verdict(would=f"tags the lead {', '.join(new)}")
    if isinstance(action, tools.Task):
        due = action.due()
        if due <= desk.now:
            return Verdict("due_at is in the past")
        return Verdict(would=f"creates a follow-up task due {_local(due, desk.zone)}")
    if isinstance(action, tools.OptOut):
        return Verdict(would="opts the lead out: only the opt-out confirmation is sent")
    return Verdict(would="hands the conversation to a person: your reply is not sent")


async def _book(session: TenantSession, desk: Desk, action: tools.Book) -> Verdict:
    listing = await repository.listing(session, action.listing_id)
    if listing is None or listing["status"] != "active":
        return Verdict("no active listing has that id")
    start = action.start()
    for row in await repository.upcoming(session, desk.contact["id"], desk.now):
        if row["starts_at"] == start:
            return Verdict(would=f"already booked ({row['id']})", already=row["id"])
    problem = await _slot(session, desk, start)
    where = f"{listing['address']}, {listing['city']}"
    return Verdict(problem, f"books a showing of {where} on {_local(start, desk.zone)}")


def _typed(kind: str, text: str) -> Any:
    """A model's text as the field's type wants it (the field then checks it)."""
    if kind == "number":
        cleaned = text.replace(",", "").replace("$", "").strip()
        try:
            return float(cleaned) if "." in cleaned else int(cleaned)
        except ValueError:
            return text
    if kind == "boolean":
        lowered = text.strip().lower()
        return {"true": True, "yes": True, "false": False, "no": False}.get(lowered, text)
    return text


async def _qualify(session: TenantSession, desk: Desk, action: tools.Qualify) -> Verdict:
    allowed = set(desk.qualification_fields)
    definitions = await contacts.definitions(session)
    values: Values = {}
    for pair in action.values:
        definition = definitions.by_key.get(pair.key)
        if pair.key not in allowed or definition is None:
            return Verdict(f"{pair.key[:64]} is not a field you may set")
        values[pair.key] = _typed(definition.type, pair.value)
    clean, errors = definitions.validate(values)
    if errors:
        return Verdict("; ".join(f"{name}: {message}" for name, message in errors)[:300])
    current = definitions.render(desk.contact["custom_fields"], pii=True)
    changed = {key: value for key, value in clean.items() if current.get(key) != value}
    if not changed:
        return Verdict(would="already recorded", already=BY_RULE)
    shown = ", ".join(f"{key} = {value}" for key, value in changed.items())
    return Verdict(would=f"records {shown}", values=changed)


async def _log(session: TenantSession, desk: Desk, done: Performed) -> Performed:
    await repository.log_action(
        session,
        {
            "id": new_id("aia"),
            "ai_job_id": desk.job_id,
            "contact_id": desk.contact["id"],
            "tool": done.tool,
            "outcome": done.outcome,
            "object_id": done.object_id if done.object_id != BY_RULE else None,
            "created_at": session.now(),
        },
    )
    return done


async def _contact(session: TenantSession, contact_id: str) -> ContactRecord:
    row = await contacts_repository.get(session, contact_id)
    assert row is not None  # the job's contact, not erased (checked before the actions)
    return row


async def perform_all(
    session: TenantSession, desk: Desk, planned: Sequence[Planned]
) -> list[Performed]:
    """Every planned action, checked again and done once, in the order the model called
    them; then the promotion rules. Each outcome is logged."""
    done: list[Performed] = []
    for item in planned:
        if isinstance(item.action, tools.OptOut | tools.HandOff):
            continue  # decisions, not actions: the job's finish carries them out
        contact = await _contact(session, desk.contact["id"])
        current = replace(desk, contact=contact)
        done.append(await _log(session, desk, await _perform(session, current, item)))
    contact = await _contact(session, desk.contact["id"])
    booked = any(item.tool == tools.BOOK and item.outcome == PERFORMED for item in done)
    stage = action_rules.promotion(
        contact["stage"], booked=booked, qualification=await qualification(session, contact)
    )
    if stage is not None:
        await contacts.update_contact(
            session, contact["id"], patch=ContactUpdate.model_validate({"stage": stage})
        )
        done.append(await _log(session, desk, Performed(tools.STAGE, PERFORMED, None, BY_RULE)))
    return done


async def _perform(session: TenantSession, desk: Desk, item: Planned) -> Performed:
    tool, action = item.tool, item.action
    try:
        verdict = await examine(session, desk, action)
        if verdict.problem is not None:
            return Performed(tool, REFUSED, detail=verdict.problem)
        if verdict.already is not None:
            return Performed(tool, ALREADY, verdict.already)
        return Performed(tool, PERFORMED, await _act(session, desk, action, verdict))
    except ApiError as error:  # a rule of the service itself: nothing of it was written
        return Performed(tool, REFUSED, detail=error.message[:200])


async def _act(
    session: TenantSession, desk: Desk, action: tools.Action, verdict: Verdict
) -> str | None:
    contact_id = desk.contact["id"]
    if isinstance(action, tools.Book):
        listing = await repository.listing(session, action.listing_id)
        assert listing is not None  # examined in this transaction
        start = action.start()
        booked = await appointments.book(
            session,
            AppointmentCreate(
                contact_id=contact_id,
                title=f"Showing: {listing['address']}"[:200],
                starts_at=start,
                ends_at=start + timedelta(minutes=desk.minutes),
                location=f"{listing['address']}, {listing['city']}"[:300],
                notes="Booked by the AI assistant.",
                created_by=desk.shower,
                assignee_id=desk.shower,
            ),
        )
        return str(booked["id"])
    if isinstance(action, tools.Reschedule):
        start = action.start()
        patch = AppointmentUpdate(starts_at=start, ends_at=start + timedelta(minutes=desk.minutes))
        await appointments.update(session, action.appointment_id, patch=patch)
        return action.appointment_id
    if isinstance(action, tools.Cancel):
        patch = AppointmentUpdate.model_validate({"outcome": "cancelled"})
        await appointments.update(session, action.appointment_id, patch=patch)
        return action.appointment_id
    if isinstance(action, tools.Qualify):
        before = await qualification(session, desk.contact)
        await contacts.update_contact(
            session, contact_id, patch=ContactUpdate(custom_fields=verdict.values)
        )
        changes = [
            {"key": key, "from": before.get(key), "to": value}
            for key, value in verdict.values.items()
        ]
        await timeline.record(
            session,
            contact_id,
            "ai_action",
            f"AI recorded {', '.join(verdict.values)}"[:200],
            data={"ai_job_id": desk.job_id, "tool": tools.QUALIFY, "changes": changes},
        )
        return None
    if isinstance(action, tools.Stage):
        patch_stage = ContactUpdate.model_validate({"stage": action.stage})
        await contacts.update_contact(session, contact_id, patch=patch_stage)
        return None
    if isinstance(action, tools.Tags):
        tags = [*desk.contact["tags"], *(t for t in action.tags if t not in desk.contact["tags"])]
        await contacts.update_contact(session, contact_id, patch=ContactUpdate(tags=tags))
        return None
    assert isinstance(action, tools.Task)
    note = str(mask_freeform(" ".join(action.note.split())))
    task, _ = await create_task(
        session,
        TaskCreate(
            title=f"AI follow-up: {note}"[:200],
            contact_id=contact_id,
            assignee_id=desk.shower,
            due_at=action.due(),
            notes=note,
        ),
        source="ai",
    )
    return str(task["id"])
