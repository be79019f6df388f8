"""The call rules: recording a finished call (provider callback, load-fixtures), matching it
to a contact, its timeline entry and call.completed; scrubbing calls on anonymization."""

from homebase.calls import render, repository
from homebase.calls.records import CallRecord
from homebase.calls.schemas import CallDetails
from homebase.contacts import timeline
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.outbox.service import emit
from homebase.workspaces import references


async def get_or_404(session: TenantSession, call_id: str) -> CallRecord:
    row = await repository.get(session, call_id)
    if row is None:
        raise NotFound("No such call.")
    return row


def _number(raw: str | None) -> str | None:
    return to_e164(raw) or raw if raw else None


async def _contact_for(
    session: TenantSession, details: CallDetails, from_number: str | None, to_number: str | None
) -> str | None:
    if details.contact_id is not None:
        if not await references.contact_exists(session, details.contact_id):
            raise ValidationFailed.for_field("contact_id", "is not a contact of this workspace")
        return details.contact_id
    other_party = from_number if details.direction == "inbound" else to_number
    e164 = to_e164(other_party)
    return await repository.contact_by_phone(session, e164) if e164 else None


def _duration(details: CallDetails) -> int | None:
    if details.duration_seconds is not None:
        return details.duration_seconds
    if details.ended_at is not None:
        return max(0, int((details.ended_at - details.started_at).total_seconds()))
    return None


def _title(row: CallRecord) -> str:
    who = "AI call" if row["handled_by"] == "ai" else "Call"
    seconds = row["duration_seconds"]
    length = f", {seconds // 60}m {seconds % 60:02d}s" if seconds is not None else ""
    outcome = f": {row['disposition']}" if row["disposition"] else ""
    return f"{who} ({row['direction']}{length}){outcome}"[:200]


async def record_call(
    session: TenantSession, details: CallDetails, *, provider_call_id: str | None
) -> CallRecord:
    from_number, to_number = _number(details.from_), _number(details.to)
    row: CallRecord = {
        "id": new_id("cal"),
        "provider_call_id": provider_call_id,
        "contact_id": await _contact_for(session, details, from_number, to_number),
        "direction": details.direction.value,
        "from_number": from_number,
        "to_number": to_number,
        "started_at": details.started_at,
        "ended_at": details.ended_at,
        "duration_seconds": _duration(details),
        "handled_by": details.handled_by.value,
        "user_id": details.user_id,
        "disposition": details.disposition,
        "transcript": details.transcript,
        "summary": details.summary,
        "recording_key": details.recording_key,
        "created_at": session.now(),
    }
    await repository.insert(session, row)
    if row["contact_id"] is not None:
        await timeline.record(
            session,
            row["contact_id"],
            "call",
            _title(row),
            body=row["summary"],
            data={
                "call_id": row["id"],
                "direction": row["direction"],
                "handled_by": row["handled_by"],
                "disposition": row["disposition"],
                "duration_seconds": row["duration_seconds"],
            },
        )
    await emit(session, "call.completed", data=render.completed_event(row))
    return row


async def scrub_contact_calls(session: TenantSession, contact_id: str) -> None:
    await repository.scrub_for_contact(session, contact_id)
