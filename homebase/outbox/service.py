"""Emitting catalogue events: one outbox row in the caller's transaction.

The row commits with the change or not at all, so delivery (the webhook worker) can
never lose an event or deliver one for a change that was rolled back. The row id is
the event_id receivers deduplicate on; it is the same on every redelivery.
"""

from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.models import OutboxEvent
from homebase.outbox.catalogue import EVENT_SCOPES

outbox_events = OutboxEvent.__table__


async def emit(session: TenantSession, event_type: str, data: dict[str, Any]) -> str:
    if event_type not in EVENT_SCOPES:
        raise ValueError(f"{event_type} is not in the event catalogue")
    event_id = new_id("evt")
    await session.insert(outbox_events, {
        "id": event_id, "type": event_type, "data": data, "occurred_at": session.now(),
        "dispatched_at": None,
    })
    return event_id
