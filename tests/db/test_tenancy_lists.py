"""Every /v1 list is tenant-scoped in behaviour too (tests/test_routes.py proves each route
reaches data only through the TenantSession, and that another workspace's id is 404): a
workspace with data in every area (seed-demo, plus a webhook subscription, a custom
field, an export and an import) is walked list by list, and another workspace's key sees none of its
rows in any of them."""

import pytest

from homebase.workspaces.demo import seed_demo
from tests import exports_support, imports_support, webhooks_support
from tests.support import Tenant
from tests.test_routes import api_routes


@pytest.fixture
def settings_overrides() -> dict:
    # The events list serves only settled events (db/settle.py); the demo's are new.
    return {"sync_settle_seconds": 0}


def _id(row: dict) -> str:
    """A row's id; an event is its webhook envelope, whose id is data.event_id."""
    return row["id"] if "id" in row else row["data"]["event_id"]


# GETs without path parameters that answer one object, not a list: each is held to its
# workspace by its own tests (GET /v1/ai/stats: tests/ai/test_stats.py).
NOT_LISTS = {"/ping", "/ai/stats"}


def plain_lists(app) -> list[str]:
    """Every GET under /v1 without path parameters but NOT_LISTS: the lists."""
    return sorted(
        f"/v1{path}"
        for method, path, _ in api_routes(app)
        if method == "GET" and "{" not in path and path not in NOT_LISTS
    )


async def test_no_list_shows_another_workspaces_rows(app, runtime, client, other_tenant):
    async with runtime.db.transaction() as connection:
        demo = await seed_demo(connection, runtime)
    key = demo["api_key"]["key"]
    owner = Tenant(
        id=demo["workspace"]["id"],
        key=key,
        key_id=demo["api_key"]["id"],
        client=client,
        headers={"Authorization": f"token {key}"},
    )
    await webhooks_support.create_subscription_for_routes(owner)
    field = {"object": "contacts", "key": "price_max", "label": "Price", "type": "number"}
    assert (await owner.post("/v1/custom-fields", json=field)).status_code == 201
    await exports_support.create_export_for_routes(owner)
    await imports_support.create_import_for_routes(owner)

    lists = plain_lists(app)
    assert "/v1/contacts" in lists and len(lists) >= 10
    empty, leaked = [], []
    for path in lists:
        mine = await owner.get(path, params={"limit": 200})
        theirs = await other_tenant.get(path, params={"limit": 200})
        assert mine.status_code == 200 and theirs.status_code == 200, (path, theirs.text)
        owned = {_id(row) for row in mine.json()["data"]}
        if not owned:
            empty.append(path)
        # (A workspace may have rows of its own from the start: default pipelines.)
        shown = owned & {_id(row) for row in theirs.json()["data"]}
        if shown:
            leaked.append(f"{path}: {sorted(shown)}")
    assert not leaked, "another workspace's rows listed:\n" + "\n".join(leaked)
    # Each list had rows to leak, so the check above means something for every one.
    assert not empty, f"seed-demo gives these lists no rows; give them some: {empty}"
