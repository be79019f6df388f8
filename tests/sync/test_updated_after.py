"""`updated_after` on the six synced lists, at the HTTP level on both databases: changes
in (updated_at, id) order, paged by cursor with no skip or repeat, strictly after the
time given, only once settled; fields, masking and the list's filters apply; a changed
record moves to the end; a bad time is a 400 naming updated_after (docs/sync.md)."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from homebase.kit.clock import isoformat
from tests.automations_support import frozen
from tests.support import Tenant, add_members, assert_error, failing_fields, make_key
from tests.sync.sync_support import ids, in_change_order, walk

SETTLE = 5.0
MEMBER = "usr_sync_agent"


@pytest.fixture
def settings_overrides():
    return {"sync_settle_seconds": SETTLE}


@pytest.fixture
def clock(runtime):
    return frozen(runtime)


@dataclass
class Setup:
    runtime: Any
    tenant: Any
    people: list[dict[str, Any]]  # contacts A and B, made before the walk's start


Create = Callable[[Setup, int], Awaitable[dict[str, Any]]]
Change = Callable[[Setup, dict[str, Any]], Awaitable[None]]


async def _ok(response, status=201) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()


def _person(setup: Setup, index: int) -> dict[str, Any]:
    return setup.people[index % 2]


async def create_contact(setup: Setup, index: int) -> dict[str, Any]:
    stage = "HOT_LEAD" if index % 2 == 0 else "LEAD"
    body = {"first_name": f"C{index}", "email": f"c{index}@example.com", "stage": stage}
    return await _ok(await setup.tenant.post("/v1/contacts", json=body))


async def change_contact(setup: Setup, record: dict[str, Any]) -> None:
    await _ok(await setup.tenant.patch(f"/v1/contacts/{record['id']}", json={"notes": "x"}), 200)


async def create_lead(setup: Setup, index: int) -> dict[str, Any]:
    body = {"phone": _person(setup, index)["phone"], "source": "Zillow"}
    return await _ok(await setup.tenant.post("/v1/leads", json=body))


async def change_lead(setup: Setup, record: dict[str, Any]) -> None:
    url = f"/v1/leads/{record['id']}/assign"
    await _ok(await setup.tenant.post(url, json={"assignee_id": MEMBER}), 200)


async def create_deal(setup: Setup, index: int) -> dict[str, Any]:
    pipelines = (await setup.tenant.get("/v1/pipelines")).json()["data"]
    body = {
        "title": f"Deal {index}",
        "pipeline_id": pipelines[0]["id"],
        "contact_id": _person(setup, index)["id"],
        "value": "500000",
    }
    return await _ok(await setup.tenant.post("/v1/deals", json=body))


async def change_deal(setup: Setup, record: dict[str, Any]) -> None:
    url = f"/v1/deals/{record['id']}"
    await _ok(await setup.tenant.patch(url, json={"title": "Renamed"}), 200)


async def create_appointment(setup: Setup, index: int) -> dict[str, Any]:
    body = {
        "contact_id": _person(setup, index)["id"],
        "title": f"Showing {index}",
        "starts_at": "2026-12-01T17:00:00Z",
        "ends_at": "2026-12-01T17:30:00Z",
    }
    return await _ok(await setup.tenant.post("/v1/appointments", json=body))


async def change_appointment(setup: Setup, record: dict[str, Any]) -> None:
    url = f"/v1/appointments/{record['id']}"
    await _ok(await setup.tenant.patch(url, json={"title": "Moved"}), 200)


async def create_task(setup: Setup, index: int) -> dict[str, Any]:
    body = {"title": f"Call {index}", "contact_id": _person(setup, index)["id"]}
    return await _ok(await setup.tenant.post("/v1/tasks", json=body))


async def erase_its_contact(setup: Setup, record: dict[str, Any]) -> None:
    """Tasks and messages take no PATCH: erasing their contact rewrites them."""
    await _ok(await setup.tenant.delete(f"/v1/contacts/{record['contact_id']}"), 200)


async def create_message(setup: Setup, index: int) -> dict[str, Any]:
    body = {
        "channel": "email",
        "contact_id": _person(setup, index)["id"],
        "subject": "Open house",
        "body": f"Saturday at {index}",
    }
    return await _ok(await setup.tenant.post("/v1/messages", json=body))


@dataclass
class Resource:
    path: str
    create: Create
    change: Change
    filter: Callable[[Setup], dict[str, str]]  # query parameters that keep the even ones
    masked: str | None  # a member masked without contacts:read:pii, and how it reads


def _of_first_person(setup: Setup) -> dict[str, str]:
    return {"contact_id": setup.people[0]["id"]}


RESOURCES = {
    "contacts": Resource(
        "/v1/contacts", create_contact, change_contact, lambda _: {"stage": "HOT_LEAD"}, "email"
    ),
    "leads": Resource("/v1/leads", create_lead, change_lead, _of_first_person, "phone"),
    "deals": Resource("/v1/deals", create_deal, change_deal, _of_first_person, None),
    "appointments": Resource(
        "/v1/appointments", create_appointment, change_appointment, _of_first_person, None
    ),
    "tasks": Resource("/v1/tasks", create_task, erase_its_contact, _of_first_person, None),
    "messages": Resource("/v1/messages", create_message, erase_its_contact, _of_first_person, "to"),
}


async def _setup(runtime, tenant) -> Setup:
    await add_members(runtime, tenant.id, MEMBER)
    people = []
    for name, phone in (("Ana", "+14155550101"), ("Bo", "+14155550102")):
        body = {"first_name": name, "phone": phone, "email": f"{name.lower()}@example.com"}
        people.append(await _ok(await tenant.post("/v1/contacts", json=body)))
    return Setup(runtime, tenant, people)


async def _current(setup: Setup, path: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [await _ok(await setup.tenant.get(f"{path}/{r['id']}"), 200) for r in records]


@pytest.mark.parametrize("name", RESOURCES)
async def test_a_walk_serves_changes_in_order_once_settled(
    name, runtime, clock, tenant, other_tenant
):
    resource = RESOURCES[name]
    setup = await _setup(runtime, tenant)
    start = isoformat(clock.now)
    clock.advance(seconds=1)
    made = [await resource.create(setup, index) for index in range(3)]  # one stamp: ties
    first_stamp = isoformat(clock.now)
    clock.advance(seconds=1)
    made += [await resource.create(setup, index) for index in range(3, 5)]
    made = await _current(setup, resource.path, made)
    assert {record["updated_at"] for record in made[:3]} == {first_stamp}

    # Not yet settled: nothing is served.
    assert await walk(tenant, resource.path, start) == []
    clock.advance(seconds=SETTLE)
    walked = await walk(tenant, resource.path, start)
    expected = in_change_order(made)
    if name == "contacts":  # the two people were stamped at `start`: not after it
        assert not set(ids(walked)) & {person["id"] for person in setup.people}
    assert ids(walked) == expected  # limit 2: the ties straddle a page, none skipped or repeated
    assert walked == made_in(expected, made) or name == "leads"  # leads: ai flag is time-bound
    # Strictly after: the three stamped at first_stamp are not "after" it.
    assert ids(await walk(tenant, resource.path, first_stamp)) == expected[3:]
    # Several pages or one: the same walk.
    assert ids(await walk(tenant, resource.path, start, limit=200)) == expected

    # fields, and the list's own filter, in the same walk.
    projected = await walk(tenant, resource.path, start, fields="id,updated_at")
    assert all(set(record) - {"pii_masked"} == {"id", "updated_at"} for record in projected)
    assert ids(projected) == expected
    kept = await walk(tenant, resource.path, start, **resource.filter(setup))
    assert ids(kept) == [record_id for record_id in expected if record_id in ids(made[0::2])]

    assert await walk(other_tenant, resource.path, start) == []  # another workspace
    if resource.masked:
        plain = await _pii_free_walk(runtime, tenant, name, resource.path, start)
        assert ids(plain) == expected
        for record, full in zip(plain, walked, strict=True):
            assert record["pii_masked"] is True and full["pii_masked"] is False
            assert record[resource.masked] != full[resource.masked]

    # A change moves the record to the end, stamped when it was made.
    last = walked[-1]["updated_at"]
    clock.advance(seconds=1)
    changed_at = isoformat(clock.now)
    await resource.change(setup, made[0])
    clock.advance(seconds=SETTLE)
    after_change = await walk(tenant, resource.path, start)
    assert sorted(ids(after_change)) == sorted(expected)
    assert after_change[-1]["updated_at"] == changed_at
    assert made[0]["id"] in [r["id"] for r in after_change if r["updated_at"] == changed_at]
    assert ids(after_change) == in_change_order(after_change)
    # Resuming from the last record seen serves the change, and only what changed.
    resumed = await walk(tenant, resource.path, last)
    assert made[0]["id"] in ids(resumed)
    assert all(record["updated_at"] == changed_at for record in resumed)


def made_in(order: list[str], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {record["id"]: record for record in records}
    return [by_id[record_id] for record_id in order]


def _read_scope(name: str) -> str:
    return {
        "contacts": "contacts:read",
        "leads": "leads:read",
        "messages": "messages:read",
    }[name]


async def _pii_free_walk(runtime, tenant, name, path, start):
    """The same workspace through a key without contacts:read:pii."""
    key_id, key = await make_key(runtime, tenant.id, [_read_scope(name)])
    masked = Tenant(tenant.id, key, key_id, tenant.client, {"Authorization": f"token {key}"})
    return await walk(masked, path, start)


@pytest.mark.parametrize("name", RESOURCES)
@pytest.mark.parametrize(
    "value",
    [
        "yesterday",
        "2026-11-20T17:04:05",  # no zone
        "2026-11-20",
        "1700000000",  # not read as seconds since 1970
        "2026-13-01T00:00:00Z",
        "0001-01-01T00:00:00+01:00",  # before year 1 in UTC
        "2026-11-20T17:04:05." + "1" * 80 + "Z",
    ],
)
async def test_a_bad_time_is_a_400_naming_updated_after(name, value, tenant):
    response = await tenant.get(RESOURCES[name].path, params={"updated_after": value})
    assert failing_fields(response) == {"updated_after"}
    error = assert_error(response, 400, "validation_failed")
    assert {item["in"] for item in error["details"]["errors"]} == {"query"}


async def test_a_search_combines_with_updated_after(runtime, clock, tenant):
    """`q` in a walk: the changed contacts that match, by the search's own rule (email by
    substring only with contacts:read:pii, else only the exact address)."""
    start = isoformat(clock.now)
    made = []
    for index, (first, email) in enumerate(
        [("Dana", "dana@example.com"), ("Eli", "eli@example.com"), ("Danaë", "x@example.com")] * 2
    ):
        clock.advance(seconds=1)
        body = {"first_name": first, "last_name": "Reyes" if index < 3 else "Ochoa"}
        made.append(await _ok(await tenant.post("/v1/contacts", json={**body, "email": email})))
    clock.advance(seconds=SETTLE)
    assert ids(await walk(tenant, "/v1/contacts", start, q="dana")) == ids(
        [made[0], made[2], made[3], made[5]]
    )
    assert ids(await walk(tenant, "/v1/contacts", start, q="dana reyes")) == ids([made[0]])
    # A plain list finds this through the trigram indexes; in a walk the same rule
    # decides each row.
    assert ids(await walk(tenant, "/v1/contacts", start, q="eli@example")) == ids(
        [made[1], made[4]]
    )
    key_id, key = await make_key(runtime, tenant.id, ["contacts:read"])
    masked = Tenant(tenant.id, key, key_id, tenant.client, {"Authorization": f"token {key}"})
    assert await walk(masked, "/v1/contacts", start, q="eli@example") == []
    exact = await walk(masked, "/v1/contacts", start, q="eli@example.com")
    assert ids(exact) == ids([made[1], made[4]]) and exact[0]["email"] != "eli@example.com"
    # A later change moves a match to the end of the walk.
    clock.advance(seconds=1)
    await _ok(await tenant.patch(f"/v1/contacts/{made[0]['id']}", json={"notes": "x"}), 200)
    clock.advance(seconds=SETTLE)
    assert ids(await walk(tenant, "/v1/contacts", start, q="dana")) == ids(
        [made[2], made[3], made[5], made[0]]
    )


async def test_a_cursor_belongs_to_its_walk(runtime, clock, tenant):
    """A plain list's cursor, or the cursor of a walk with other filters, restarts the
    walk from updated_after. (A walk's cursor with another updated_after goes on from its
    position: tests/sync/test_cursor_wins.py.)"""
    start = isoformat(clock.now)
    clock.advance(seconds=1)
    made = [
        (await tenant.post("/v1/contacts", json={"first_name": f"C{i}"})).json() for i in range(3)
    ]
    clock.advance(seconds=SETTLE)
    plain = (await tenant.get("/v1/contacts", params={"limit": 1})).json()["next_cursor"]
    other = (
        await tenant.get(
            "/v1/contacts",
            params={"limit": 1, "updated_after": "2000-01-01T00:00:00Z", "stage": "LEAD"},
        )
    ).json()["next_cursor"]
    assert other is not None
    for cursor in (plain, other, "garbage"):
        page = await tenant.get(
            "/v1/contacts", params={"updated_after": start, "cursor": cursor, "limit": 200}
        )
        assert page.status_code == 200
        assert ids(page.json()["data"]) == in_change_order(made)


async def test_an_erased_contact_comes_as_changed(runtime, clock, tenant):
    person = (
        await tenant.post("/v1/contacts", json={"first_name": "Dana", "email": "d@x.io"})
    ).json()
    task = await tenant.post("/v1/tasks", json={"title": "Call Dana", "contact_id": person["id"]})
    message = await tenant.post(
        "/v1/messages",
        json={"channel": "email", "contact_id": person["id"], "subject": "Hi", "body": "Hello"},
    )
    assert task.status_code == 201 and message.status_code == 201, message.text
    clock.advance(seconds=SETTLE + 1)
    seen = isoformat(clock.now - timedelta(seconds=SETTLE))
    clock.advance(seconds=1)
    erased_at = isoformat(clock.now)
    assert (await tenant.delete(f"/v1/contacts/{person['id']}")).status_code == 200
    clock.advance(seconds=SETTLE)
    changed = await walk(tenant, "/v1/contacts", seen)
    assert ids(changed) == [person["id"]]
    assert changed[0]["anonymized_at"] == erased_at == changed[0]["updated_at"]
    assert changed[0]["first_name"] is None and changed[0]["email"] is None
    tasks = await walk(tenant, "/v1/tasks", seen)
    assert ids(tasks) == [task.json()["id"]] and tasks[0]["updated_at"] == erased_at
    messages = await walk(tenant, "/v1/messages", seen)
    assert ids(messages) == [message.json()["id"]] and messages[0]["body"] is None
    assert messages[0]["updated_at"] == erased_at


async def test_contact_filters_combine_with_updated_after(runtime, clock, tenant):
    """Every contact filter of the walk (the tag on SQLite through contact_tags, on
    PostgreSQL through the GIN index's operator), together."""
    await add_members(runtime, tenant.id, MEMBER)
    start = isoformat(clock.now)
    made = []
    for index, (stage, tags, owner) in enumerate(
        [
            ("HOT_LEAD", ["buyer"], MEMBER),
            ("HOT_LEAD", ["seller"], MEMBER),
            ("LEAD", ["buyer"], MEMBER),
            ("HOT_LEAD", ["buyer", "vip"], None),
            ("HOT_LEAD", ["buyer"], MEMBER),
        ]
    ):
        clock.advance(seconds=1)
        body = {"first_name": f"C{index}", "stage": stage, "tags": tags, "source": "Zillow"}
        if owner:
            body["owner_id"] = owner
        made.append(await _ok(await tenant.post("/v1/contacts", json=body)))
    clock.advance(seconds=SETTLE)
    query = {"stage": "HOT_LEAD", "tag": "buyer", "owner_id": MEMBER, "source": "Zillow"}
    assert ids(await walk(tenant, "/v1/contacts", start, **query)) == ids([made[0], made[4]])
    assert ids(await walk(tenant, "/v1/contacts", start, tag="buyer")) == ids(
        [made[0], made[2], made[3], made[4]]
    )
    assert await walk(tenant, "/v1/contacts", start, tag="nobody") == []


async def test_an_empty_q_is_no_search_with_updated_after_either(clock, tenant):
    response = await tenant.get(
        "/v1/contacts", params={"q": "", "updated_after": "2026-11-20T17:04:05Z"}
    )
    assert response.status_code == 200, response.text
