"""Helpers for the events API's tests: events stored directly (their times and ids chosen),
keys of the same workspace with chosen scopes, and walks."""

from datetime import UTC, datetime, timedelta
from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.models import OutboxEvent
from tests.support import Tenant, make_key

outbox = OutboxEvent.__table__
SETTLE = timedelta(seconds=5)  # HOMEBASE_SYNC_SETTLE_SECONDS's default


async def store(
    runtime,
    workspace_id: str,
    event_type: str = "contact.updated",
    data: dict[str, Any] | None = None,
    *,
    at: datetime,
    dispatched_at: datetime | None = None,
    event_id: str | None = None,
) -> str:
    event_id = event_id or new_id("evt")
    async with runtime.db.transaction() as connection:
        await TenantSession(connection, workspace_id, clock=runtime.clock).insert(
            outbox,
            {
                "id": event_id,
                "type": event_type,
                "data": data if data is not None else {"id": "con_x", "changed": ["stage"]},
                "occurred_at": at,
                "dispatched_at": dispatched_at,
                "contact_id": None,
            },
        )
    return event_id


async def key_of(runtime, tenant: Tenant, scopes: list[str]) -> Tenant:
    """Another key of the tenant's workspace, holding exactly `scopes`."""
    key_id, key = await make_key(runtime, tenant.id, scopes, expires_in_days=None)
    return Tenant(
        id=tenant.id,
        key=key,
        key_id=key_id,
        client=tenant.client,
        headers={"Authorization": f"token {key}"},
    )


async def walk(tenant: Tenant, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every page of GET /v1/events with `params`, cursor by cursor; the events in order."""
    events: list[dict[str, Any]] = []
    cursor = None
    for _ in range(1000):
        response = await tenant.get(
            "/v1/events", params={**(params or {}), **({"cursor": cursor} if cursor else {})}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        events += body["data"]
        assert (body["next_cursor"] is None) == (not body["has_more"])
        if not body["has_more"]:
            return events
        cursor = body["next_cursor"]
    raise AssertionError("the walk did not end")


def ids(events: list[dict[str, Any]]) -> list[str]:
    return [event["data"]["event_id"] for event in events]


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


async def create_event_for_routes(tenant: Tenant) -> str:
    """A contact created through the API, and the id of its contact.created event (read
    from the outbox: the list serves it only once settled; GET /v1/events/{id} at once)."""
    response = await tenant.post("/v1/contacts", json={"first_name": "Owned"})
    assert response.status_code == 201, response.text
    runtime = tenant.client._transport.app.state.runtime  # type: ignore[attr-defined]
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        row = await session.fetch_one(
            session.select(outbox, outbox.c.id).where(
                outbox.c.type == "contact.created",
                outbox.c.contact_id == response.json()["id"],
            )
        )
    assert row is not None
    return str(row["id"])


async def event_snapshot(tenant: Tenant, event_id: str) -> Any:
    response = await tenant.get(f"/v1/events/{event_id}")
    assert response.status_code == 200, response.text
    return response.json()
