"""A workspace whose AI texts new leads first (docs/ai.md, "First touch and follow-ups"),
leads created over HTTP, and the `ai_outreach` rows read back."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from homebase.kit.clock import FrozenClock
from homebase.models import AiOutreach, Message, TimelineEvent
from tests.messaging_support import add_sender
from tests.responder_support import RESPONDER, load

DELAY = 30
CONSENT = {"source_url": "https://leerealty.example/form", "ip": "203.0.113.7"}
DEMO_FOLLOW_UPS = ["PT10M", "P1D", "P3D", "P7D", "P30D"]


def at(runtime, moment: datetime) -> FrozenClock:
    """The runtime's clock, frozen at `moment` (UTC)."""
    clock = FrozenClock(moment.astimezone(UTC))
    runtime.clock = clock
    return clock


async def texting_workspace(runtime, tenant, **persona: Any) -> None:
    """An approved number and a responder persona that texts new leads first."""
    await add_sender(runtime, tenant)
    values = {"first_touch": "text", "first_touch_delay_seconds": DELAY, **persona}
    await load(runtime, tenant, {"personas": [{**RESPONDER, **values}]})


async def new_lead(tenant, phone: str, *, consent: bool = True, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"phone": phone, "source": "Zillow", "first_name": "Dana", **extra}
    if consent:
        body["consent"] = CONSENT
    response = await tenant.post("/v1/leads", json=body)
    assert response.status_code == 201, response.text
    return response.json()


async def outreach_rows(runtime, tenant) -> list[dict[str, Any]]:
    table = AiOutreach.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table)
            .where(table.c.workspace_id == tenant.id)
            .order_by(table.c.created_at, table.c.id)
        )
        return [dict(row) for row in rows.mappings()]


async def texts_to(runtime, tenant, phone: str) -> list[dict[str, Any]]:
    """The workspace's texts to `phone` the provider took, oldest first, read from the
    table (a cadence runs for longer than a test key lives)."""
    table = Message.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table)
            .where(
                table.c.workspace_id == tenant.id,
                table.c.direction == "OUTBOUND",
                table.c.to_address == phone,
                table.c.status == "SENT",
            )
            .order_by(table.c.created_at, table.c.id)
        )
        return [dict(row) for row in rows.mappings()]


async def timeline_reasons(runtime, tenant, contact_id: str, kind: str) -> list[str]:
    """The `reason` of the contact's timeline entries of `kind`, oldest first."""
    table = TimelineEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table.c.data)
            .where(
                table.c.workspace_id == tenant.id,
                table.c.contact_id == contact_id,
                table.c.type == kind,
            )
            .order_by(table.c.occurred_at, table.c.id)
        )
        return [row["data"]["reason"] for row in rows.mappings()]
