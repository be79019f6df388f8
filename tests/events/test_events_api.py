"""GET /v1/events and /v1/events/{id}: the stored events as webhooks carry them, in one
order (occurred_at, id), paged and resumed with no gap and no duplicate, limited to the
types a credential reads, masked without contacts:read:pii, within the retention period
and behind the settle horizon. SQLite and PostgreSQL; time is a FrozenClock."""

from datetime import UTC, datetime, timedelta

import orjson
import pytest

from homebase.events import repository
from homebase.kit.clock import FrozenClock, isoformat
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.retention import service as retention
from homebase.webhooks import render as webhook_render
from tests.events_support import SETTLE, ids, key_of, store, walk
from tests.support import without_remedy

SECOND = timedelta(seconds=1)
DAY = timedelta(days=1)


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


@pytest.fixture
def settled(clock) -> datetime:
    """A moment the settle horizon has passed: events stored before it are served."""
    return clock.now - SETTLE - timedelta(minutes=10)


async def test_events_come_in_occurred_at_then_id_order_as_webhooks_carry_them(
    tenant, runtime, settled
):
    # Stored out of order; two at one instant order by id.
    third = await store(runtime, tenant.id, at=settled + 2 * SECOND)
    first = await store(runtime, tenant.id, "contact.stage_changed", at=settled)
    tie_b = await store(runtime, tenant.id, at=settled + SECOND, event_id="evt_b")
    tie_a = await store(runtime, tenant.id, at=settled + SECOND, event_id="evt_a")
    listed = await walk(tenant)
    assert ids(listed) == [first, tie_a, tie_b, third]

    plain = await key_of(runtime, tenant, ["contacts:read"])
    event = (await plain.get("/v1/events")).json()["data"][0]
    # The webhook delivery's very body (a key without pii sees what receivers see).
    body = webhook_render.envelope(
        "contact.stage_changed",
        tenant.id,
        first,
        settled,
        {"id": "con_x", "changed": ["stage"]},
    )
    assert event == orjson.loads(body)
    assert event["occurredAt"] == event["data"]["occurred_at"] == isoformat(settled)
    assert event["tenantId"] == tenant.id and event["event"] == "contact.stage_changed"

    one = await plain.get(f"/v1/events/{first}")
    assert one.status_code == 200 and one.json() == event


async def test_pages_walk_every_event_once_and_the_last_page_has_no_cursor(
    tenant, runtime, settled
):
    stored = [
        await store(runtime, tenant.id, at=settled + (index // 3) * SECOND) for index in range(11)
    ]
    for limit in (1, 2, 5, 11, 200):
        assert ids(await walk(tenant, {"limit": limit})) == stored
    last = (await tenant.get("/v1/events", params={"limit": 11})).json()
    assert last["has_more"] is False and last["next_cursor"] is None and len(last["data"]) == 11

    first = (await tenant.get("/v1/events", params={"limit": 4})).json()
    assert first["has_more"] is True
    # The cursor belongs to its list: with another filter it restarts that list.
    other = await tenant.get(
        "/v1/events", params={"limit": 4, "cursor": first["next_cursor"], "type": "lead.created"}
    )
    assert other.status_code == 200 and other.json()["data"] == []
    # occurred_after only says where a walk starts: the cursor's position wins over it
    # (tests/events/test_events_resume.py).
    resumed = await tenant.get(
        "/v1/events",
        params={
            "limit": 4,
            "cursor": first["next_cursor"],
            "occurred_after": "2000-01-01T00:00:00Z",
        },
    )
    assert ids(resumed.json()["data"]) == stored[4:8]
    # A cursor altered or made up restarts the walk too (the list rules).
    garbled = await tenant.get("/v1/events", params={"limit": 4, "cursor": "garbage"})
    assert ids(garbled.json()["data"]) == stored[:4]


async def test_type_filters_one_several_repeated_or_comma_separated(tenant, runtime, settled):
    created = await store(runtime, tenant.id, "contact.created", at=settled)
    sent = await store(runtime, tenant.id, "message.sent", at=settled + SECOND)
    lead = await store(runtime, tenant.id, "lead.created", at=settled + 2 * SECOND)
    updated = await store(runtime, tenant.id, "contact.updated", at=settled + 3 * SECOND)

    assert ids(await walk(tenant, {"type": "contact.created"})) == [created]
    assert ids(await walk(tenant, {"type": ["lead.created", "contact.created"]})) == [
        created,
        lead,
    ]
    assert ids(await walk(tenant, {"type": "contact.updated,message.sent"})) == [sent, updated]
    assert ids(
        await walk(tenant, {"type": ["contact.updated, message.sent", "lead.created"], "limit": 1})
    ) == [sent, lead, updated]

    for bad in (["contact.deleted"], ["contact.created,nope"], [","], [""], ["lead.created", "x"]):
        response = await tenant.get("/v1/events", params={"type": bad})
        assert response.status_code == 400, (bad, response.text)
        error = response.json()["error"]
        assert error["code"] == "validation_failed"
        assert [(item["field"], item["in"]) for item in error["details"]["errors"]] == [
            ("type", "query")
        ]
    unknown = await tenant.get("/v1/events", params={"type": "contact.deleted"})
    assert "name 1 is not an event type" in unknown.json()["error"]["message"]
    # Named by position: the message repeats no value that was sent.
    unknown = await tenant.get("/v1/events", params={"type": ["lead.created", "pia@x.example"]})
    assert "name 2 is not an event type" in unknown.text and "pia@" not in unknown.text
    too_many = await tenant.get("/v1/events", params={"type": ["contact.created"] * 21})
    assert too_many.status_code == 400
    too_long = await tenant.get("/v1/events", params={"type": "x" * 601})
    assert too_long.status_code == 400


async def test_occurred_after_is_strict(tenant, runtime, settled):
    await store(runtime, tenant.id, at=settled)
    at_the_moment = await store(runtime, tenant.id, at=settled + SECOND)
    later = await store(runtime, tenant.id, at=settled + 2 * SECOND)
    moment = isoformat(settled + SECOND)
    assert ids(await walk(tenant, {"occurred_after": moment})) == [later]
    just_before = isoformat(settled + SECOND - timedelta(milliseconds=1))
    assert ids(await walk(tenant, {"occurred_after": just_before})) == [at_the_moment, later]
    offset = (settled + SECOND - timedelta(milliseconds=1)).astimezone(
        datetime.now().astimezone().tzinfo
    )
    assert ids(await walk(tenant, {"occurred_after": offset.isoformat()})) == [
        at_the_moment,
        later,
    ]
    for bad in ("yesterday", "1700000000", "2026-11-20T17:00:00"):
        response = await tenant.get("/v1/events", params={"occurred_after": bad})
        assert response.status_code == 400
        assert response.json()["error"]["details"]["errors"][0]["field"] == "occurred_after"


async def test_after_resumes_strictly_after_an_event_and_refuses_an_unknown_one(
    tenant, other_tenant, runtime, settled
):
    first = await store(runtime, tenant.id, at=settled)
    tie_a = await store(runtime, tenant.id, at=settled + SECOND, event_id="evt_a")
    tie_b = await store(runtime, tenant.id, at=settled + SECOND, event_id="evt_b")
    last = await store(runtime, tenant.id, "lead.created", at=settled + 2 * SECOND)
    assert ids(await walk(tenant, {"after": first})) == [tie_a, tie_b, last]
    assert ids(await walk(tenant, {"after": tie_a})) == [tie_b, last]
    assert ids(await walk(tenant, {"after": tie_a, "limit": 1})) == [tie_b, last]
    assert await walk(tenant, {"after": last}) == []
    # An event of a type the filter leaves out is still a position.
    assert ids(await walk(tenant, {"after": tie_b, "type": "lead.created"})) == [last]
    assert ids(await walk(tenant, {"after": last, "type": "contact.updated"})) == []

    theirs = await store(runtime, other_tenant.id, at=settled)
    expired = await store(runtime, tenant.id, at=runtime.clock() - 31 * DAY)
    for bad in ("evt_unknown", theirs, expired, ""):
        response = await tenant.get("/v1/events", params={"after": bad})
        assert response.status_code == 400, (bad, response.text)
        error = response.json()["error"]
        assert [item["field"] for item in error["details"]["errors"]] == ["after"]
    message = (await tenant.get("/v1/events", params={"after": "evt_unknown"})).json()["error"]
    assert "retention period" in message["message"]

    both = await tenant.get("/v1/events", params={"after": "evt_unknown", "type": "nope"})
    assert both.status_code == 400
    fields = [item["field"] for item in both.json()["error"]["details"]["errors"]]
    assert sorted(fields) == ["after", "type"]


async def test_a_credential_sees_only_the_types_its_scopes_read(tenant, runtime, settled):
    by_type = {}
    for offset, event_type in enumerate(EVENT_SCOPES):
        at = settled + offset * SECOND
        by_type[event_type] = await store(runtime, tenant.id, event_type, at=at)

    contacts = await key_of(runtime, tenant, ["contacts:read"])
    seen = await walk(contacts)
    contact_types = [name for name, scope in EVENT_SCOPES.items() if scope == "contacts:read"]
    assert [event["event"] for event in seen] == contact_types
    assert {name for name in contact_types if name.startswith("contact.")} == {
        "contact.created",
        "contact.updated",
        "contact.stage_changed",
        "contact.tag_added",
    }
    # Paged one by one through the merged per-type ranges: the same events.
    assert ids(await walk(contacts, {"limit": 1})) == ids(seen)
    # contacts:write implies contacts:read.
    writer = await key_of(runtime, tenant, ["contacts:write"])
    assert ids(await walk(writer)) == ids(seen)
    both = await key_of(runtime, tenant, ["contacts:read", "messages:send"])
    assert [event["event"] for event in await walk(both)] == [
        name for name, scope in EVENT_SCOPES.items() if scope in ("contacts:read", "messages:read")
    ]
    # Every type for a key holding every scope.
    assert ids(await walk(tenant)) == list(by_type.values())

    refused = await contacts.get("/v1/events", params={"type": "contact.created,message.sent"})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "insufficient_scope"
    assert without_remedy(refused.json()["error"])["details"] == {"missing_scope": "messages:read"}
    one = await contacts.get(f"/v1/events/{by_type['deal.stage_changed']}")
    assert one.status_code == 403
    assert without_remedy(one.json()["error"])["details"] == {"missing_scope": "deals:read"}
    assert (await contacts.get(f"/v1/events/{by_type['contact.created']}")).status_code == 200

    # Any credential may call it; one that reads no event type lists nothing.
    none = await key_of(runtime, tenant, ["webhooks:manage"])
    response = await none.get("/v1/events")
    assert response.status_code == 200
    assert response.json() == {"data": [], "next_cursor": None, "has_more": False}
    assert (await none.get("/v1/events", params={"type": "contact.created"})).status_code == 403


async def test_phones_and_addresses_are_masked_without_pii(tenant, runtime, settled):
    data = {
        "id": "con_x",
        "phone": "+14155550142",
        "email": "dana@example.com",
        "notes": "Call her at (415) 555-0199 or write to dana.reyes@example.org.",
        "context": {"callback": "415-555-0123"},
    }
    event_id = await store(runtime, tenant.id, "contact.created", data, at=settled)
    plain = await key_of(runtime, tenant, ["contacts:read"])
    pii = await key_of(runtime, tenant, ["contacts:read:pii"])

    masked = (await plain.get("/v1/events")).json()["data"][0]["data"]
    assert masked["phone"] == "+*******0142"
    assert masked["email"] == "d***@example.com"
    assert "555-0199" not in masked["notes"] and "dana.reyes@" not in masked["notes"]
    assert "0199" in masked["notes"] and "d***@example.org" in masked["notes"]
    assert masked["context"]["callback"] != "415-555-0123"
    assert (await plain.get(f"/v1/events/{event_id}")).json()["data"] == masked

    shown = (await pii.get("/v1/events")).json()["data"][0]["data"]
    assert shown == {"event_id": event_id, "occurred_at": isoformat(settled), **data}
    assert (await pii.get(f"/v1/events/{event_id}")).json()["data"] == shown


async def test_another_workspaces_events_are_neither_listed_nor_found(
    tenant, other_tenant, runtime, settled
):
    mine = await store(runtime, tenant.id, at=settled)
    theirs = await store(runtime, other_tenant.id, at=settled)
    assert ids(await walk(tenant)) == [mine]
    assert ids(await walk(other_tenant)) == [theirs]
    response = await tenant.get(f"/v1/events/{theirs}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert (await tenant.get("/v1/events/evt_unknown")).status_code == 404
    assert (await tenant.get("/v1/events/" + "x" * 300)).status_code == 404


async def test_only_events_within_the_retention_period_are_served(tenant, runtime, clock):
    days = runtime.settings.retention_events_days
    now = clock.now
    old_dispatched = await store(
        runtime, tenant.id, at=now - (days + 2) * DAY, dispatched_at=now - (days + 2) * DAY
    )
    # Outside the period but kept (never dispatched): not served either, so the window
    # is the same whether the pruning job ran or not.
    old_pending = await store(runtime, tenant.id, at=now - (days + 1) * DAY)
    recent_dispatched = await store(
        runtime, tenant.id, at=now - (days - 1) * DAY, dispatched_at=now - (days - 1) * DAY
    )
    recent_pending = await store(runtime, tenant.id, at=now - DAY)

    assert ids(await walk(tenant)) == [recent_dispatched, recent_pending]
    assert ids(await walk(tenant, {"occurred_after": "2000-01-01T00:00:00Z"})) == [
        recent_dispatched,
        recent_pending,
    ]
    for gone in (old_dispatched, old_pending):
        assert (await tenant.get(f"/v1/events/{gone}")).status_code == 404

    pruned = await retention.prune(runtime.db, runtime.settings, now=now)
    assert pruned["outbox_events"] == 1  # the old dispatched one; the pending one stays
    assert ids(await walk(tenant)) == [recent_dispatched, recent_pending]
    assert (await tenant.get(f"/v1/events/{recent_dispatched}")).status_code == 200

    # A day on, the older of the two leaves the window, served or pruned alike.
    clock.advance(days=2)
    assert ids(await walk(tenant)) == [recent_pending]
    after_it = await tenant.get("/v1/events", params={"after": recent_dispatched})
    assert after_it.status_code == 400


async def test_events_newer_than_the_settle_horizon_wait(tenant, runtime, clock):
    settled = await store(runtime, tenant.id, at=clock.now - SETTLE)
    fresh = await store(runtime, tenant.id, at=clock.now - SETTLE + timedelta(milliseconds=1))
    newest = await store(runtime, tenant.id, at=clock.now)
    first = (await tenant.get("/v1/events")).json()
    assert ids(first["data"]) == [settled] and first["has_more"] is False
    # One event is served at once by its id; the list waits for the horizon.
    assert (await tenant.get(f"/v1/events/{newest}")).status_code == 200

    clock.advance(milliseconds=1)
    assert ids(await walk(tenant, {"after": settled})) == [fresh]
    clock.advance(seconds=5)
    assert ids(await walk(tenant, {"after": fresh})) == [newest]


@pytest.mark.parametrize("settings_overrides", [{"sync_settle_seconds": 0}])
async def test_no_settle_serves_events_at_once(tenant, runtime, clock):
    event_id = await store(runtime, tenant.id, at=clock.now)
    assert ids(await walk(tenant)) == [event_id]


async def test_a_client_that_was_down_resumes_after_its_last_event_with_no_gap_or_duplicate(
    tenant, runtime, clock
):
    """Events written through the API: the client walks, keeps the last event id, is down
    while more are written (some in the same instant as the last it saw), and resumes."""
    for name in ("Ana", "Ben"):
        assert (await tenant.post("/v1/contacts", json={"first_name": name})).status_code == 201
    clock.advance(seconds=6)
    seen = await walk(tenant, {"limit": 2})
    assert [event["event"] for event in seen] == ["contact.created", "contact.created"]
    last = seen[-1]["data"]["event_id"]

    # While the client is down: writes at the instant it last saw and later ones.
    contact = (await tenant.post("/v1/contacts", json={"first_name": "Cy", "tags": ["vip"]})).json()
    clock.advance(seconds=1)
    await tenant.patch(f"/v1/contacts/{contact['id']}", json={"stage": "HOT_LEAD"})
    clock.advance(seconds=1)
    # Not settled yet when the client comes back: left for the next resume.
    clock.advance(seconds=4)
    unsettled = (await tenant.post("/v1/contacts", json={"first_name": "Dee"})).json()

    resumed = await walk(tenant, {"after": last, "limit": 2})
    assert [event["event"] for event in resumed] == [
        "contact.created",
        "contact.tag_added",
        "contact.updated",
        "contact.stage_changed",
    ]
    clock.advance(seconds=6)
    again = await walk(tenant, {"after": resumed[-1]["data"]["event_id"]})
    assert [event["data"]["id"] for event in again] == [unsettled["id"]]
    everything = await walk(tenant)
    assert ids(everything) == ids(seen) + ids(resumed) + ids(again)
    assert len(set(ids(everything))) == len(everything)


PLAN_TYPES = {
    "every type": None,
    "one type": ("contact.created",),
    "several types": ("contact.created", "contact.updated", "message.sent"),
}


@pytest.mark.parametrize("with_id", [False, True], ids=["after a time", "after an event"])
@pytest.mark.parametrize("types", list(PLAN_TYPES.values()), ids=list(PLAN_TYPES))
async def test_a_page_reads_one_index_range_per_type_and_sorts_no_table(
    tenant, runtime, settled, types, with_id
):
    """The walk is a range of (workspace_id, occurred_at, id), or of (workspace_id, type,
    occurred_at, id) per type merged: a page costs what the first does, at any depth and
    whatever other types the workspace holds (docs/performance.md has the figures at
    1,000,000 events)."""
    for index in range(60):
        await store(runtime, tenant.id, "message.sent", at=settled + index * SECOND)
    await store(runtime, tenant.id, "contact.updated", at=settled)
    statement = repository.page_statement(types, with_id)
    values = {
        "tenant_workspace_id": tenant.id,
        repository.START_AT: settled,
        repository.HORIZON: settled + DAY,
        repository.LIMIT: 51,
        **({repository.START_ID: "evt_0"} if with_id else {}),
        **{f"type_{index}": name for index, name in enumerate(types or ())},
    }
    expected = (
        "ix_outbox_events_workspace_occurred"
        if types is None
        else "ix_outbox_events_workspace_type_occurred"
    )
    async with runtime.db.transaction() as connection:
        sql = str(
            statement.params(values).compile(
                dialect=connection.dialect, compile_kwargs={"literal_binds": True}
            )
        )
        if runtime.db.is_sqlite:
            rows = await connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql)
            plan = [row[3] for row in rows]
            searches = [line for line in plan if line.startswith(("SEARCH", "SCAN outbox"))]
            assert len(searches) == len(types or (None,)), plan
            assert all(f"USING INDEX {expected} (workspace_id=?" in line for line in searches), plan
            assert all("occurred_at>?" in line for line in searches), plan
            # A union's members are merged in order: sorting the page's few rows of each
            # (the co-routines' temp b-trees) is all; one walk sorts nothing.
            if types is None or len(types) == 1:
                assert not any("TEMP B-TREE" in line for line in plan), plan
            return
        # PostgreSQL reads so small a table whole and sorts it: the plan asked is the one
        # it takes at size (docs/performance.md, its EXPLAIN ANALYZE at 1,000,000 events),
        # where reading and sorting cost what they touch.
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            await connection.exec_driver_sql(f"SET LOCAL {setting} = off")
        plan = [row[0] for row in (await connection.exec_driver_sql("EXPLAIN " + sql))]
        text = "\n".join(plan)
        scans = [line for line in plan if "Scan" in line]
        assert len(scans) == len(types or (None,)), text
        assert all(f"Index Scan using {expected}" in line for line in scans), text
        assert not [line for line in plan if "Sort  (" in line], text
        if types is not None and len(types) > 1:
            assert "Merge Append" in text, text
