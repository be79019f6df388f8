"""Helpers for the leads and routing tests: load fixtures into a tenant, count rows."""

from typing import Any

from sqlalchemy import func, select

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.models import (
    Contact,
    Lead,
    OutboxEvent,
    RoutingCursor,
    TimelineEvent,
)
from homebase.runtime import Runtime
from homebase.webhooks import render as webhook_render

TEAM = {
    "offices": [{"ref": "downtown", "name": "Downtown"}],
    "teams": [{"ref": "buyers", "name": "Buyers", "office": "downtown"}],
    "members": [
        {
            "ref": "maya",
            "email": "maya@example.com",
            "name": "Maya",
            "office": "downtown",
            "team": "buyers",
        },
        {
            "ref": "luis",
            "email": "luis@example.com",
            "name": "Luis",
            "office": "downtown",
            "team": "buyers",
        },
        {"ref": "priya", "email": "priya@example.com", "name": "Priya"},
    ],
}


async def load(
    runtime: Runtime, workspace_id: str, document: dict[str, Any]
) -> dict[str, list[str]]:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="test")
        return await load_fixtures(session, document)


async def load_team(
    runtime: Runtime, workspace_id: str, rules: list[dict[str, Any]]
) -> dict[str, str]:
    """The TEAM members plus `rules`; returns ids by ref name and rule index."""
    created = await load(runtime, workspace_id, {**TEAM, "routing_rules": rules})
    ids = dict(zip(("maya", "luis", "priya"), created["members"], strict=True))
    ids.update({f"rule{index}": rule_id for index, rule_id in enumerate(created["routing_rules"])})
    return ids


async def counts(runtime: Runtime) -> dict[str, Any]:
    """Row counts of everything routing could write, plus every cursor position."""
    result: dict[str, Any] = {}
    async with runtime.db.transaction(write=False) as connection:
        for model in (Lead, Contact, TimelineEvent, OutboxEvent):
            table = model.__table__
            result[table.name] = (
                await connection.execute(select(func.count()).select_from(table))
            ).scalar_one()
        cursors = RoutingCursor.__table__
        result["cursors"] = sorted(
            (await connection.execute(select(cursors.c.rule_id, cursors.c.position))).all()
        )
    return result


async def outbox(runtime: Runtime, workspace_id: str) -> list[dict[str, Any]]:
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            (
                await connection.execute(
                    select(table).where(table.c.workspace_id == workspace_id).order_by(table.c.id)
                )
            )
            .mappings()
            .all()
        )
    # The data as a webhook delivery carries it (stored whole, masked as it leaves).
    return [{**row, "data": webhook_render.masked(row["data"])} for row in rows]


async def create_lead_for_routes(tenant) -> str:
    """tests/test_routes.py: a lead made through the API."""
    response = await tenant.post(
        "/v1/leads",
        json={
            "phone": "+1 415 555 0100",
            "source": "Zillow",
            "email": "owned@example.com",
            "consent": {"source_url": "https://example.com/form"},
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def lead_snapshot(tenant, lead_id: str) -> Any:
    responses = [await tenant.get(f"/v1/leads/{lead_id}"), await tenant.get("/v1/leads?limit=200")]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
