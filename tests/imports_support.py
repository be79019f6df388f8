"""Helpers for the import tests: drive the worker's import job, read rows directly."""

from typing import Any

from sqlalchemy import func, select

from homebase.imports import jobs
from homebase.models import Contact, DataImport, OutboxEvent
from homebase.runtime import Runtime


async def drive(runtime: Runtime) -> int:
    """Runs the import job (and the batches it starts) until no import is left to claim."""
    claimed = 0
    for _ in range(50):
        did = await jobs.run(runtime)
        await runtime.background.idle()
        if not did:
            return claimed
        claimed += did
    raise AssertionError("imports still claimable after 50 rounds")


async def start(tenant: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = await tenant.post("/v1/imports", json=body)
    assert response.status_code == 202, response.text
    return response.json()


async def job(tenant: Any, import_id: str) -> dict[str, Any]:
    response = await tenant.get(f"/v1/imports/{import_id}")
    assert response.status_code == 200, response.text
    return response.json()


async def all_errors(tenant: Any, import_id: str, limit: int = 200) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        response = await tenant.get(f"/v1/imports/{import_id}/errors", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found += page["data"]
        if not page["has_more"]:
            return found
        cursor = page["next_cursor"]


async def contacts_of(runtime: Runtime, workspace_id: str) -> list[dict[str, Any]]:
    table = Contact.__table__
    async with runtime.db.transaction(write=False) as connection:
        result = await connection.execute(
            select(table).where(table.c.workspace_id == workspace_id).order_by(table.c.id)
        )
        return [dict(row) for row in result.mappings().all()]


async def event_types(runtime: Runtime, workspace_id: str) -> dict[str, int]:
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        result = await connection.execute(
            select(table.c.type, func.count())
            .where(table.c.workspace_id == workspace_id)
            .group_by(table.c.type)
        )
        return {row[0]: row[1] for row in result.all()}


async def stored_import(runtime: Runtime, import_id: str) -> dict[str, Any]:
    table = DataImport.__table__
    async with runtime.db.transaction(write=False) as connection:
        result = await connection.execute(select(table).where(table.c.id == import_id))
        return dict(result.mappings().one())


async def create_import_for_routes(tenant: Any) -> str:
    """tests/test_routes.py: an import (one row refused), for the cross-workspace checks."""
    made = await start(
        tenant, {"object": "contacts", "rows": [{"first_name": "Owned"}, {"email": "x"}]}
    )
    return str(made["id"])


async def import_snapshot(tenant: Any, import_id: str) -> Any:
    return [await job(tenant, import_id), await all_errors(tenant, import_id)]
