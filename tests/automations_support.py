"""Helpers for the task and automation tests: members, fixtures, a sendable contact, the
engine, and cross-tenant factories for tests/test_routes.py."""

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from homebase.automations import engine
from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.clock import FrozenClock
from homebase.models import AutomationStepRun, Message, OutboxEvent, Task
from homebase.webhooks import render as webhook_render
from homebase.workspaces import service as workspaces
from tests.messaging_support import add_consent, add_sender

PHONE = "+14155550142"  # San Francisco: Pacific time


def frozen(runtime, utc_hour: int = 19) -> FrozenClock:
    """Tomorrow at 19:00 UTC: 11:00 or 12:00 in San Francisco, inside the sending window."""
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    clock = FrozenClock(tomorrow.replace(hour=utc_hour, minute=0, second=0, microsecond=0))
    runtime.clock = clock
    return clock


async def member(runtime, tenant, email: str = "agent@example.com") -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        return (await workspaces.create_user(session, email=email, name="Agent"))["id"]


async def load(runtime, workspace_id: str, document: dict[str, Any]) -> dict[str, list[str]]:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")
        return await load_fixtures(session, document)


PERSONA = {
    "ref": "ava",
    "name": "Ava",
    "tone": "warm, brief",
    "channels": ["SMS", "EMAIL"],
    "signature": "- Ava, Test Realty",
}
FULL_STEPS = [
    {
        "type": "send_message",
        "persona": "ava",
        "channel": "SMS",
        "template": "Hi {first_name}, still looking in Noe Valley?",
    },
    {"type": "wait", "days": 1},
    {"type": "create_task", "title": "Call {full_name}", "due_in_minutes": 60},
    {"type": "move_stage", "stage": "NURTURE"},
]


async def automation(runtime, tenant, steps=None, enabled: bool = True) -> str:
    created = await load(
        runtime,
        tenant.id,
        {
            "personas": [PERSONA],
            "automations": [
                {
                    "name": "Follow-up",
                    "enabled": enabled,
                    "steps": steps if steps is not None else FULL_STEPS,
                }
            ],
        },
    )
    return created["automations"][0]


async def contact(tenant, phone: str | None = PHONE, **values) -> str:
    response = await tenant.post(
        "/v1/contacts",
        json={
            "first_name": "Dana",
            "last_name": "Reyes",
            "phone": phone,
            "email": "dana@example.com",
            **values,
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def sendable(runtime, tenant) -> None:
    """An approved SMS number and consent for PHONE: every gate passes."""
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, PHONE)


async def tick(runtime) -> int:
    return await engine.run_due(runtime, 1000)


async def count(runtime, table, **where) -> int:
    statement = select(func.count()).select_from(table)
    for name, value in where.items():
        statement = statement.where(table.c[name] == value)
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(statement)).scalar_one()


async def step_runs(runtime, enrolment_id: str) -> list[dict[str, Any]]:
    table = AutomationStepRun.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table).where(table.c.enrolment_id == enrolment_id).order_by(table.c.step_index)
        )
        return [dict(row) for row in rows.mappings()]


async def events(runtime, workspace_id: str, event_type: str) -> list[dict[str, Any]]:
    """The stored events' data as a webhook delivery carries it (masked)."""
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table.c.data).where(
                table.c.workspace_id == workspace_id, table.c.type == event_type
            )
        )
        return [webhook_render.masked(row[0]) for row in rows]


TASKS, MESSAGES, STEP_RUNS = Task.__table__, Message.__table__, AutomationStepRun.__table__


# tests/test_routes.py: objects made in one workspace, looked at from there.


def _runtime(tenant):
    return tenant.client._transport.app.state.runtime


async def create_task_for_routes(tenant) -> str:
    response = await tenant.post("/v1/tasks", json={"title": "Owned elsewhere"})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def task_snapshot(tenant, task_id: str) -> Any:
    responses = [await tenant.get(f"/v1/tasks/{task_id}"), await tenant.get("/v1/tasks?limit=200")]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def _fixtures(tenant) -> dict[str, list[str]]:
    return await load(
        _runtime(tenant),
        tenant.id,
        {
            "personas": [PERSONA],
            "automations": [{"ref": "flow", "name": "Flow", "steps": FULL_STEPS}],
            "campaigns": [{"name": "Spring", "persona": "ava", "automation": "flow"}],
        },
    )


async def create_automation_for_routes(tenant) -> str:
    return (await _fixtures(tenant))["automations"][0]


async def automation_snapshot(tenant, automation_id: str) -> Any:
    paths = [
        f"/v1/automations/{automation_id}",
        "/v1/automations?limit=200",
        f"/v1/automations/{automation_id}/enrolments?limit=200",
    ]
    responses = [await tenant.get(path) for path in paths]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def create_persona_for_routes(tenant) -> str:
    return (await _fixtures(tenant))["personas"][0]


async def persona_snapshot(tenant, persona_id: str) -> Any:
    responses = [
        await tenant.get(f"/v1/personas/{persona_id}"),
        await tenant.get("/v1/personas?limit=200"),
    ]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def create_campaign_for_routes(tenant) -> str:
    campaign_id = (await _fixtures(tenant))["campaigns"][0]
    enrolled = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [await contact(tenant)]}
    )
    assert enrolled.status_code == 202, enrolled.text
    return campaign_id


async def campaign_snapshot(tenant, campaign_id: str) -> Any:
    responses = [
        await tenant.get(f"/v1/campaigns/{campaign_id}"),
        await tenant.get("/v1/campaigns?limit=200"),
        await tenant.get(f"/v1/campaigns/{campaign_id}/contacts?limit=200"),
    ]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
