"""Writing timeline entries; other domains (leads, messages, calls) call this too."""

from collections.abc import Sequence

from homebase.contacts import repository
from homebase.contacts.records import TimelineRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.kit.wire import JsonObject


def entry(
    session: TenantSession,
    contact_id: str,
    event_type: str,
    title: str,
    *,
    body: str | None = None,
    data: JsonObject | None = None,
) -> TimelineRecord:
    """A timeline row, not yet written (see record_many)."""
    return {
        "id": new_id("tev"),
        "contact_id": contact_id,
        "type": event_type,
        "title": title,
        "body": body,
        "data": data or {},
        "actor": session.actor,
        "occurred_at": session.now(),
    }


async def record(
    session: TenantSession,
    contact_id: str,
    event_type: str,
    title: str,
    *,
    body: str | None = None,
    data: JsonObject | None = None,
) -> TimelineRecord:
    row = entry(session, contact_id, event_type, title, body=body, data=data)
    await repository.add_timeline_event(session, row)
    return row


async def record_many(session: TenantSession, rows: Sequence[TimelineRecord]) -> None:
    """Rows made by entry(), in one statement."""
    await session.insert(repository.timeline, rows)
