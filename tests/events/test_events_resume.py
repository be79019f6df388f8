"""GET /v1/events resumed by its cursor: `after` and `occurred_after` only say where a
walk starts, and a cursor holds a position past them, so the cursor wins. A client that
walks from `after=X` and follows next_cursor without repeating `after` goes on after X (it
once restarted at the workspace's first event, sending a sync client every event again);
one sending another `after` or `occurred_after` with the cursor goes on from the cursor.
`type` changes what is listed, so it still binds the cursor. Both databases."""

from datetime import UTC, datetime, timedelta

import pytest

from homebase.kit.clock import FrozenClock, isoformat
from tests.events_support import SETTLE, ids, store, walk

SECOND = timedelta(seconds=1)


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


@pytest.fixture
async def stored(runtime, tenant, clock) -> list[str]:
    """Eight settled events, two types, alternating; two share an instant."""
    settled = clock.now - SETTLE - timedelta(minutes=10)
    made = []
    for index in range(8):
        kind = "contact.updated" if index % 2 == 0 else "lead.created"
        at = settled + (index if index != 5 else 4) * SECOND
        made.append(await store(runtime, tenant.id, kind, at=at))
    return made


async def _page(tenant, **params):
    response = await tenant.get("/v1/events", params=params)
    assert response.status_code == 200, response.text
    return response.json()


async def _follow(tenant, cursor, **params):
    events = []
    while cursor:
        body = await _page(tenant, cursor=cursor, limit=2, **params)
        events += body["data"]
        cursor = body["next_cursor"]
    return events


async def test_next_cursor_goes_on_after_the_event_without_repeating_after(tenant, stored):
    expected = ids(await walk(tenant, {"after": stored[1]}))
    assert expected == stored[2:]
    first = await _page(tenant, after=stored[1], limit=2)
    assert ids(first["data"]) == stored[2:4]
    # The client's mistake the walk now forgives: only the cursor on the next pages.
    walked = first["data"] + await _follow(tenant, first["next_cursor"])
    assert ids(walked) == expected
    # Repeating `after`, or naming another event (or one unknown), changes nothing.
    for after in (stored[1], stored[6], "evt_unknown"):
        rest = await _page(tenant, after=after, cursor=first["next_cursor"], limit=200)
        assert ids(rest["data"]) == stored[4:], after


async def test_next_cursor_goes_on_past_occurred_after_without_repeating_it(tenant, stored):
    everything = await walk(tenant)
    since = everything[1]["occurredAt"]
    expected = ids(await walk(tenant, {"occurred_after": since}))
    assert expected == stored[2:]
    first = await _page(tenant, occurred_after=since, limit=2)
    walked = first["data"] + await _follow(tenant, first["next_cursor"])
    assert ids(walked) == expected
    later = isoformat(datetime.now(UTC) + timedelta(days=1))
    rest = await _page(tenant, occurred_after=later, cursor=first["next_cursor"], limit=200)
    assert ids(rest["data"]) == stored[4:]


async def test_type_still_binds_the_cursor(tenant, stored):
    contacts = [event for index, event in enumerate(stored) if index % 2 == 0]
    first = await _page(tenant, type="contact.updated", limit=1)
    assert ids(first["data"]) == contacts[:1]
    # The same type, without repeating it: the cursor is another walk's, which restarts.
    unfiltered = await _page(tenant, cursor=first["next_cursor"], limit=200)
    assert ids(unfiltered["data"]) == stored
    # Another type: restarts that type's walk.
    leads = await _page(tenant, type="lead.created", cursor=first["next_cursor"], limit=200)
    assert ids(leads["data"]) == [e for i, e in enumerate(stored) if i % 2 == 1]
    # The same type (as a set: spelled otherwise) goes on.
    rest = await _follow(tenant, first["next_cursor"], type=" contact.updated ")
    assert ids(rest) == contacts[1:]
