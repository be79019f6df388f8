"""The appointment rules: booking, moving (starts_at and ends_at together), recording an
outcome; each with its event and a timeline entry on the contact, and a calendar push
for the creator's connected calendar, written in the same transaction."""

from collections.abc import Container
from typing import Any, cast

from homebase.appointments import render, repository
from homebase.appointments.records import AppointmentChanges, AppointmentRecord
from homebase.appointments.schemas import AppointmentCreate, AppointmentUpdate
from homebase.calendars import service as calendars
from homebase.contacts import timeline
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import isoformat
from homebase.kit.errors import NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.outbox.redaction import REDACTED
from homebase.outbox.service import emit
from homebase.workspaces import references

OUTCOME_WORDS: dict[str | None, str] = {
    "showed": "attended",
    "no_show": "no-show",
    "cancelled": "cancelled",
}
# What the pushed calendar event shows: a change to any of these is pushed again.
CALENDAR_FIELDS = ("title", "location", "notes", "starts_at", "ends_at")


async def get_or_404(session: TenantSession, appointment_id: str) -> AppointmentRecord:
    row = await repository.get(session, appointment_id)
    if row is None:
        raise NotFound("No such appointment.")
    return row


# `values`: a request body's members as sent (model_dump)
async def _check_references(session: TenantSession, values: dict[str, Any]) -> None:
    """Every unknown reference at once; another workspace's reads like an unknown one."""
    errors = []
    if "contact_id" in values and (
        refusal := await references.contact_refusal(session, values["contact_id"])
    ):
        errors.append(("contact_id", refusal))
    for name in ("created_by", "assignee_id"):
        if values.get(name) is not None and not await references.member_exists(
            session, values[name]
        ):
            errors.append((name, "is not a member of this workspace"))
    if errors:
        raise ValidationFailed.for_fields(errors)


def _check_move(requested: Container[str]) -> None:
    has_start, has_end = "starts_at" in requested, "ends_at" in requested
    if has_start != has_end:
        missing, sent = ("ends_at", "starts_at") if has_start else ("starts_at", "ends_at")
        raise ValidationFailed.for_field(
            missing, f"is required with {sent}: a move sends starts_at and ends_at together"
        )


def _timeline_data(row: AppointmentRecord, **extra: str | None) -> dict[str, object]:
    # No title or notes: the timeline's data survives anonymization only as {}.
    return {
        "appointment_id": row["id"],
        "starts_at": isoformat(row["starts_at"]),
        "ends_at": isoformat(row["ends_at"]),
        "outcome": row["outcome"],
        **extra,
    }


async def book(session: TenantSession, body: AppointmentCreate) -> AppointmentRecord:
    values = body.model_dump()
    await _check_references(session, values)
    if values["assignee_id"] is None:
        values["assignee_id"] = values["created_by"]
    now = session.now()
    row: AppointmentRecord = {
        "id": new_id("apt"),
        **values,  # type: ignore[typeddict-item]  # AppointmentCreate's members, each a column
        "outcome": None,
        "outcome_recorded_at": None,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(session, row)
    await emit(session, "appointment.booked", data=render.event(row))
    await timeline.record(
        session,
        row["contact_id"],
        "appointment_booked",
        f"Appointment booked: {row['title']}"[:200],
        data=_timeline_data(row),
    )
    await calendars.enqueue_push(session, row)
    return row


async def update(
    session: TenantSession, appointment_id: str, *, patch: AppointmentUpdate
) -> AppointmentRecord:
    current = await get_or_404(session, appointment_id)
    requested = patch.model_dump(include=patch.model_fields_set)
    _check_move(requested)
    await _check_references(
        session, {key: value for key, value in requested.items() if key == "assignee_id"}
    )
    changed = {key: value for key, value in requested.items() if current[key] != value}  # type: ignore[literal-required]
    changes = cast(AppointmentChanges, changed)  # AppointmentUpdate's members, each a column
    if not changes:
        return current
    now = session.now()
    changes["updated_at"] = now
    if "outcome" in changes:
        changes["outcome_recorded_at"] = now
    await repository.update(session, appointment_id, changes)
    updated: AppointmentRecord = {**current, **changes}
    if "starts_at" in changes or "ends_at" in changes:
        await _record_move(session, current, updated)
    if "outcome" in changes:
        await _record_outcome(session, current, updated)
    if any(name in changes for name in CALENDAR_FIELDS) or (current["outcome"] == "cancelled") != (
        updated["outcome"] == "cancelled"
    ):
        await calendars.enqueue_push(session, updated)
    return updated


async def _record_move(
    session: TenantSession, previous: AppointmentRecord, row: AppointmentRecord
) -> None:
    moved_from = {
        "previous_starts_at": isoformat(previous["starts_at"]),
        "previous_ends_at": isoformat(previous["ends_at"]),
    }
    await emit(session, "appointment.rescheduled", data=render.event(row, **moved_from))
    await timeline.record(
        session,
        row["contact_id"],
        "appointment_rescheduled",
        f"Appointment moved: {row['title']}"[:200],
        data=_timeline_data(row, **moved_from),
    )


async def _record_outcome(
    session: TenantSession, previous: AppointmentRecord, row: AppointmentRecord
) -> None:
    await emit(
        session, "appointment.outcome", data=render.event(row, previous_outcome=previous["outcome"])
    )
    await timeline.record(
        session,
        row["contact_id"],
        "appointment_outcome",
        f"Appointment {OUTCOME_WORDS[row['outcome']]}: {row['title']}"[:200],
        data=_timeline_data(row, previous_outcome=previous["outcome"]),
    )


async def scrub_contact_appointments(session: TenantSession, contact_id: str) -> None:
    """Title, location and notes go; the appointment stays. Calendars that received
    them get the scrubbed version too."""
    await repository.scrub_for_contact(session, contact_id, REDACTED, session.now())
    for row in await repository.for_contact(session, contact_id):
        await calendars.enqueue_push(session, row)
