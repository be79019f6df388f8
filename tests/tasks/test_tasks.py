"""POST/GET /v1/tasks: references, filters, and the 60-second dedupe window (atomic, also
across two app instances on one database)."""

import asyncio

import httpx

from homebase.db.engine import Database
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.automations_support import contact, frozen, member
from tests.conftest import test_settings as settings_for
from tests.support import assert_error, failing_fields

DUE = "2026-12-01T17:00:00Z"


async def test_an_identical_task_within_60_seconds_is_not_duplicated(runtime, tenant):
    clock = frozen(runtime)
    contact_id = await contact(tenant)
    assignee = await member(runtime, tenant)
    body = {
        "title": "Call Dana",
        "contact_id": contact_id,
        "assignee_id": assignee,
        "due_at": DUE,
        "notes": "comps",
    }
    first = await tenant.post("/v1/tasks", json=body)
    assert first.status_code == 201, first.text
    assert first.json()["created"] is True
    clock.advance(seconds=59)
    # Whitespace, notes and status do not make a different task; the due moment is the same.
    again = await tenant.post(
        "/v1/tasks",
        json={
            **body,
            "title": "  Call   Dana ",
            "notes": "other",
            "status": "done",
            "due_at": "2026-12-01T12:00:00-05:00",
        },
    )
    assert again.status_code == 200, again.text
    assert again.json() == {**first.json(), "created": False}
    listed = (await tenant.get("/v1/tasks")).json()["data"]
    assert [task["id"] for task in listed] == [first.json()["id"]]

    different = await tenant.post("/v1/tasks", json={**body, "due_at": "2026-12-01T17:00:01Z"})
    assert different.status_code == 201 and different.json()["created"] is True

    clock.advance(seconds=1)  # 60 s after the first: its window has closed
    later = await tenant.post("/v1/tasks", json=body)
    assert later.status_code == 201, later.text
    assert later.json()["id"] != first.json()["id"]
    clock.advance(seconds=30)  # the new task opened a new window
    assert (await tenant.post("/v1/tasks", json=body)).json()["id"] == later.json()["id"]
    assert len((await tenant.get("/v1/tasks")).json()["data"]) == 3


async def test_the_window_is_per_workspace(runtime, tenant, other_tenant):
    first = await tenant.post("/v1/tasks", json={"title": "Same"})
    other = await other_tenant.post("/v1/tasks", json={"title": "Same"})
    assert first.status_code == other.status_code == 201
    assert first.json()["id"] != other.json()["id"]


async def test_another_workspaces_contact_and_member_are_400_and_nothing_is_written(
    runtime, tenant, other_tenant
):
    foreign_contact = await contact(other_tenant)
    foreign_member = await member(runtime, other_tenant)
    response = await tenant.post(
        "/v1/tasks",
        json={"title": "x", "contact_id": foreign_contact, "assignee_id": foreign_member},
    )
    assert failing_fields(response) == {"contact_id", "assignee_id"}
    response = await tenant.post("/v1/tasks", json={"title": "x", "assignee_id": "usr_nope"})
    assert failing_fields(response) == {"assignee_id"}
    assert (await tenant.get("/v1/tasks")).json()["data"] == []


async def test_invalid_bodies_name_each_field(tenant):
    response = await tenant.post(
        "/v1/tasks",
        json={"title": "", "due_at": "2026-12-01T17:00:00", "status": "later", "color": "red"},
    )
    assert failing_fields(response) == {"title", "due_at", "status", "color"}
    assert failing_fields(await tenant.post("/v1/tasks", json={})) == {"title"}
    assert failing_fields(await tenant.post("/v1/tasks", json={"title": "x" * 201})) == {"title"}


async def test_a_task_s_priority_is_normal_unless_given(tenant):
    plain = await tenant.post("/v1/tasks", json={"title": "Send comps"})
    urgent = await tenant.post("/v1/tasks", json={"title": "Call back", "priority": "high"})
    assert (plain.status_code, urgent.status_code) == (201, 201)
    assert (plain.json()["priority"], urgent.json()["priority"]) == ("normal", "high")
    read = await tenant.get(f"/v1/tasks/{urgent.json()['id']}")
    assert read.json()["priority"] == "high"
    wrong = await tenant.post("/v1/tasks", json={"title": "x", "priority": "asap"})
    assert failing_fields(wrong) == {"priority"}


async def test_list_filters_fields_and_paging(runtime, tenant):
    first_contact, second_contact = await contact(tenant), await contact(tenant, phone=None)
    assignee = await member(runtime, tenant)
    made = []
    for title, contact_id, due, status in [
        ("a", first_contact, "2026-12-01T10:00:00Z", "open"),
        ("b", second_contact, "2026-12-03T10:00:00Z", "done"),
        ("c", first_contact, None, "open"),
    ]:
        response = await tenant.post(
            "/v1/tasks",
            json={
                "title": title,
                "contact_id": contact_id,
                "due_at": due,
                "status": status,
                "assignee_id": assignee if title != "b" else None,
            },
        )
        made.append(response.json()["id"])

    async def ids(query: str) -> list[str]:
        response = await tenant.get(f"/v1/tasks?{query}")
        assert response.status_code == 200, response.text
        return [task["id"] for task in response.json()["data"]]

    assert await ids("") == made[::-1]
    assert await ids(f"contact_id={first_contact}") == [made[2], made[0]]
    assert await ids(f"assignee_id={assignee}") == [made[2], made[0]]
    assert await ids("status=done") == [made[1]]
    assert await ids("due_before=2026-12-02T00:00:00Z") == [made[0]]
    assert failing_fields(await tenant.get("/v1/tasks?status=soon")) == {"status"}
    assert failing_fields(await tenant.get("/v1/tasks?fields=title,colour")) == {"fields"}
    narrowed = (await tenant.get("/v1/tasks?fields=title&limit=1")).json()
    assert narrowed["data"] == [{"id": made[2], "title": "c"}] and narrowed["has_more"]
    second = (await tenant.get(f"/v1/tasks?limit=1&cursor={narrowed['next_cursor']}")).json()
    assert [task["id"] for task in second["data"]] == [made[1]]
    one = await tenant.get(f"/v1/tasks/{made[0]}?fields=due_at")
    assert one.json() == {"id": made[0], "due_at": "2026-12-01T10:00:00.000Z"}


async def test_scopes(make):
    reader = await make(["appointments:read"])
    assert (await reader.get("/v1/tasks")).status_code == 200
    error = assert_error(
        await reader.post("/v1/tasks", json={"title": "x"}), 403, "insufficient_scope"
    )
    assert error["details"]["missing_scope"] == "appointments:write"
    others = await make(["contacts:write", "automations:manage"])
    for path in ("/v1/tasks", "/v1/tasks/tsk_x"):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "appointments:read", path
    writers = await make(["appointments:write"])  # write implies read
    created = await writers.post("/v1/tasks", json={"title": "x"})
    assert created.status_code == 201
    assert (await writers.get(f"/v1/tasks/{created.json()['id']}")).status_code == 200


async def test_identical_creates_at_once_on_two_instances_make_one_task(
    runtime, client, tenant, database_url
):
    """Two apps, each with its own engine and pool, on one database; many identical
    creates at the same moment: exactly one is created, all answer with its id."""
    settings = settings_for(database_url)
    second = Runtime(
        settings=settings, db=Database(settings.database_url, pool_size=5), limiter=MemoryLimiter()
    )
    transport = httpx.ASGITransport(app=create_app(second))
    try:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", headers=tenant.headers
        ) as other_client:
            body = {"title": "Send the disclosure packet", "due_at": DUE}
            requests = [
                (client if index % 2 else other_client).post(
                    "/v1/tasks", json=body, headers=tenant.headers
                )
                for index in range(16)
            ]
            responses = await asyncio.gather(*requests)
    finally:
        await second.close()
    assert sorted(response.status_code for response in responses) == [200] * 15 + [201]
    assert len({response.json()["id"] for response in responses}) == 1
    assert len((await tenant.get("/v1/tasks")).json()["data"]) == 1
