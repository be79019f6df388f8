"""A walk's cursor holds a position past its `updated_after`, so it wins: a client that
follows next_cursor without repeating `updated_after` goes on with the walk (it once
restarted, as the plain list, newest first), and one that sends another `updated_after`
with the cursor goes on from the cursor too. The list's other filters still bind a
cursor: with different ones it restarts, as every stale cursor does. The six synced lists,
both databases (docs/sync.md, "Resuming")."""

from typing import Any

import pytest

from homebase.kit.clock import isoformat
from tests.automations_support import frozen
from tests.sync.sync_support import ids, walk
from tests.sync.test_updated_after import RESOURCES, SETTLE, _setup


@pytest.fixture
def settings_overrides():
    return {"sync_settle_seconds": SETTLE}


@pytest.fixture
def clock(runtime):
    return frozen(runtime)


async def _page(tenant, path: str, **params: Any) -> dict[str, Any]:
    response = await tenant.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


async def _follow(tenant, path: str, cursor: str | None, **params: Any) -> list[dict[str, Any]]:
    """The pages from `cursor` on, passing only the cursor (and `params`)."""
    records: list[dict[str, Any]] = []
    while cursor:
        body = await _page(tenant, path, cursor=cursor, limit=2, **params)
        records += body["data"]
        cursor = body["next_cursor"]
    return records


@pytest.mark.parametrize("name", RESOURCES)
async def test_next_cursor_goes_on_with_the_walk_without_updated_after(
    name, runtime, clock, tenant
):
    resource = RESOURCES[name]
    setup = await _setup(runtime, tenant)
    start = isoformat(clock.now)
    clock.advance(seconds=1)
    for index in range(5):
        await resource.create(setup, index)
        clock.advance(seconds=1)
    clock.advance(seconds=SETTLE)
    expected = ids(await walk(tenant, resource.path, start, limit=200))
    assert len(expected) >= 5

    first = await _page(tenant, resource.path, updated_after=start, limit=2)
    assert ids(first["data"]) == expected[:2] and first["has_more"]
    walked = first["data"] + await _follow(tenant, resource.path, first["next_cursor"])
    assert ids(walked) == expected  # oldest change first, none again, none skipped

    # Another updated_after beside the cursor: the cursor's position wins.
    for other in ("2000-01-01T00:00:00Z", isoformat(clock.now)):
        rest = await _page(
            tenant, resource.path, updated_after=other, cursor=first["next_cursor"], limit=200
        )
        assert ids(rest["data"]) == expected[2:], other


@pytest.mark.parametrize("name", RESOURCES)
async def test_a_cursor_is_bound_to_the_lists_other_filters(name, runtime, clock, tenant):
    resource = RESOURCES[name]
    setup = await _setup(runtime, tenant)
    start = isoformat(clock.now)
    clock.advance(seconds=1)
    for index in range(4):
        await resource.create(setup, index)
    clock.advance(seconds=SETTLE)
    first = await _page(tenant, resource.path, updated_after=start, limit=1)
    narrowed = resource.filter(setup)
    # With another filter the cursor is stale: the walk, or the plain list, starts over.
    for params in ({"updated_after": start}, {}):
        fresh = await _page(tenant, resource.path, limit=200, **params, **narrowed)
        again = await _page(
            tenant, resource.path, cursor=first["next_cursor"], limit=200, **params, **narrowed
        )
        assert ids(again["data"]) == ids(fresh["data"]) and fresh["data"], params
