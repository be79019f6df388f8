"""Emitting catalogue events: one outbox row in the caller's transaction.

The row commits with the change or not at all, so delivery (the webhook worker) can
never lose an event or deliver one for a change that was rolled back. The row id is
the event_id receivers deduplicate on; it is the same on every redelivery. The
transaction announces the new work when it commits (db/work.py), so the worker starts
delivering at once instead of at its next poll.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Table

from homebase.db.tenancy import Rows, TenantSession
from homebase.kit.ids import new_id
from homebase.models import OutboxEvent
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.outbox.redaction import contact_of, redact

outbox_events = OutboxEvent.__table__


# An event to emit: its type (the catalogue's) and its data, a JSON object whose shape the
# type decides (a record's wire type, or a few members of one).
Event = tuple[str, Mapping[str, Any]]


async def emit(session: TenantSession, event_type: str, *, data: Mapping[str, Any]) -> str:
    """One event (emit_many of one)."""
    (event_id,) = await emit_many(session, [(event_type, data)])
    return event_id


async def emit_many(
    session: TenantSession,
    events: Sequence[Event],
    *,
    beside: tuple[Table, Rows] | None = None,
) -> list[str]:
    """Several events in one statement, in order (their ids sort in the order given);
    `beside`: a table's rows (the record the events are about) inserted in the same
    statement, one round trip on PostgreSQL (`TenantSession.insert_together`)."""
    rows = _rows(session, events)
    if beside:
        await session.insert_together([beside, (outbox_events, rows)])
    else:
        await session.insert(outbox_events, rows)
    if rows:
        session.mark_work()
    return [row["id"] for row in rows]


def _rows(session: TenantSession, events: Sequence[Event]) -> Rows:
    unknown = [event_type for event_type, _ in events if event_type not in EVENT_SCOPES]
    if unknown:
        raise ValueError(f"{', '.join(unknown)} not in the event catalogue")
    now = session.now()
    return [
        {
            "id": new_id("evt"),
            "type": event_type,
            "data": data,
            "occurred_at": now,
            "dispatched_at": None,
            "contact_id": contact_of(event_type, data),
        }
        for event_type, data in events
    ]


async def scrub_contact_events(session: TenantSession, contact_id: str) -> int:
    """DELETE /contacts/{id}: the stored data of every event about the contact loses the
    person's data (outbox/redaction.py), because deliveries are built from it at send time
    (pending ones, retries, redeliveries). Ids, types and times stay: receivers still
    deduplicate on the same event_id. Returns how many rows changed."""
    rows = await session.fetch_all(
        session.select(
            outbox_events, outbox_events.c.id, outbox_events.c.type, outbox_events.c.data
        ).where(outbox_events.c.contact_id == contact_id)
    )
    changed = 0
    for row in rows:
        scrubbed = redact(row["type"], row["data"])
        if scrubbed != row["data"]:
            await session.execute(
                session.update(outbox_events)
                .where(outbox_events.c.id == row["id"])
                .values(data=scrubbed)
            )
            changed += 1
    return changed
