"""Property: a walk of GET /v1/contacts neither skips nor repeats a row while contacts are
created during it, whatever the page size and however creation interleaves with paging
(between pages, or concurrently with a page's request)."""

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import make_tenant

MAX_STEPS = 60

# One step of the walk: fetch the next page, create contacts between two pages, or create
# them while the next page is being fetched.
steps = st.one_of(
    st.just(("fetch", 0)),
    st.tuples(st.just("insert"), st.integers(1, 3)),
    st.tuples(st.just("concurrent"), st.integers(1, 3)),
)


@pytest.fixture
def settings_overrides() -> dict:
    return {"rate_limit_api_key_per_min": 1_000_000}


async def create(tenant, count: int) -> list[str]:
    responses = [await tenant.post("/v1/contacts", json={"first_name": "P"}) for _ in range(count)]
    assert all(response.status_code == 201 for response in responses), responses[0].text
    return [response.json()["id"] for response in responses]


class Walk:
    def __init__(self, tenant, limit: int):
        self.tenant = tenant
        self.limit = limit
        self.cursor: str | None = None
        self.done = False
        self.seen: list[str] = []

    async def next_page(self) -> None:
        params = {"limit": self.limit, **({"cursor": self.cursor} if self.cursor else {})}
        response = await self.tenant.get("/v1/contacts", params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["has_more"] == (body["next_cursor"] is not None)
        assert len(body["data"]) <= self.limit
        self.seen += [row["id"] for row in body["data"]]
        self.cursor = body["next_cursor"]
        self.done = not body["has_more"]


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    initial=st.integers(0, 12),
    limit=st.integers(1, 5),
    plan=st.lists(steps, max_size=MAX_STEPS // 2),
)
async def test_a_walk_neither_skips_nor_repeats_while_contacts_are_created(
    runtime, client, initial, limit, plan
):
    # A new workspace per example: workspaces isolate data, so each starts empty.
    tenant = await make_tenant(runtime, client)
    existing = set(await create(tenant, initial))
    walk = Walk(tenant, limit)
    created: set[str] = set()

    for step in range(MAX_STEPS):
        if walk.done:
            break
        action, count = plan[step] if step < len(plan) else ("fetch", 0)
        if action == "insert":
            created.update(await create(tenant, count))
        elif action == "concurrent":
            _, new_ids = await asyncio.gather(walk.next_page(), create(tenant, count))
            created.update(new_ids)
        else:
            await walk.next_page()
    assert walk.done, f"the walk did not end within {MAX_STEPS} steps"

    assert len(walk.seen) == len(set(walk.seen)), "a row was returned twice"
    assert walk.seen == sorted(walk.seen, reverse=True), "the walk left newest-first order"
    assert existing <= set(walk.seen), f"skipped {sorted(existing - set(walk.seen))}"
    # Anything else it returned was created during the walk, never another workspace's.
    assert set(walk.seen) - existing <= created
