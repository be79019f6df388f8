"""Statements built once (tenant_select / tenant_update): the workspace filter is a
bindparam only the running TenantSession fills, always with its own workspace."""

import pytest
from sqlalchemy import bindparam, select

from homebase.db.tenancy import (
    WORKSPACE,
    TenantSession,
    UnscopedQuery,
    tenant_merged,
    tenant_select,
    tenant_update,
)
from homebase.models import Contact

contacts = Contact.__table__
BY_SOURCE = tenant_select(contacts, contacts.c.id).where(contacts.c.source == bindparam("src"))
RENAME = (
    tenant_update(contacts)
    .where(contacts.c.source == bindparam("src"))
    .values(first_name=bindparam("new_first_name"))
)


async def _contact(client, source: str) -> str:
    response = await client.post("/v1/contacts", json={"first_name": "Ann", "source": source})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_templates_run_in_the_running_sessions_workspace_only(runtime, tenant, other_tenant):
    mine = await _contact(tenant, "Zillow")
    theirs = await _contact(other_tenant, "Zillow")
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        rows = await session.fetch_all(BY_SOURCE, {"src": "Zillow"})
        assert [row["id"] for row in rows] == [mine]
        # A caller cannot point a template at another workspace: the session's own
        # workspace replaces whatever was passed for the filter.
        rows = await session.fetch_all(BY_SOURCE, {"src": "Zillow", WORKSPACE: other_tenant.id})
        assert [row["id"] for row in rows] == [mine]
        assert await session.fetch_one(BY_SOURCE, {"src": "Zillow"}) == {"id": mine}
        assert (
            await session.execute(
                RENAME, {"src": "Zillow", "new_first_name": "Bo", WORKSPACE: other_tenant.id}
            )
            == 1
        )
    assert (await tenant.get(f"/v1/contacts/{mine}")).json()["first_name"] == "Bo"
    assert (await other_tenant.get(f"/v1/contacts/{theirs}")).json()["first_name"] == "Ann"


async def test_a_statement_not_built_as_a_template_is_still_refused(runtime, tenant):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        statement = select(contacts).where(contacts.c.workspace_id == bindparam(WORKSPACE))
        with pytest.raises(UnscopedQuery):
            await session.fetch_all(statement, {WORKSPACE: tenant.id})


async def test_a_merge_of_templates_runs_in_the_running_sessions_workspace_only(
    runtime, tenant, other_tenant
):
    zillow = await _contact(tenant, "Zillow")
    redfin = await _contact(tenant, "Redfin")
    await _contact(other_tenant, "Zillow")
    by = {
        name: tenant_select(contacts, contacts.c.id)
        .where(contacts.c.source == bindparam(name))
        .order_by(contacts.c.id)
        .limit(5)
        for name in ("first", "second")
    }
    merged = tenant_merged(list(by.values()), ("id",))
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        values = {"first": "Zillow", "second": "Redfin", WORKSPACE: other_tenant.id}
        rows = await session.fetch_all(merged, values)
        assert [row["id"] for row in rows] == sorted([zillow, redfin])
    # Only templates merge: a select built for one session (or none) is refused.
    with pytest.raises(UnscopedQuery):
        tenant_merged([by["first"], select(contacts.c.id)], ("id",))
    async with runtime.db.transaction() as connection:
        own = TenantSession(connection, tenant.id).select(contacts, contacts.c.id)
        with pytest.raises(UnscopedQuery):
            tenant_merged([by["first"], own], ("id",))
