"""Appointments at the HTTP level, on SQLite and PostgreSQL: booking, moving, outcomes,
their events and timeline entries, lists, scopes, tenancy and anonymization."""

from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.errors import AdminError
from homebase.models import Appointment, OutboxEvent
from tests.calendar_support import add_member, book, contact, slot
from tests.support import assert_error, failing_fields


async def events_of(runtime, tenant, event_type: str) -> list[dict]:
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            await connection.execute(
                select(table.c.data)
                .where(table.c.workspace_id == tenant.id, table.c.type == event_type)
                .order_by(table.c.id)
            )
        ).all()
    return [row.data for row in rows]


async def stored_count(runtime, tenant) -> int:
    table = Appointment.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            await connection.execute(select(table.c.id).where(table.c.workspace_id == tenant.id))
        ).all()
    return len(rows)


async def timeline_types(tenant, contact_id: str) -> list[str]:
    response = await tenant.get(f"/v1/contacts/{contact_id}/events")
    assert response.status_code == 200, response.text
    return [entry["type"] for entry in response.json()["data"]]


async def test_book_and_retrieve(tenant, runtime):
    member = await add_member(runtime, tenant)
    contact_id = await contact(tenant)
    created = await book(
        tenant,
        contact_id,
        created_by=member,
        location="1421 Sanchez St",
        notes="Bring the disclosure packet.",
        starts_at="2026-11-21T09:00:00-08:00",
        ends_at="2026-11-21T09:45:00-08:00",
    )
    assert created["id"].startswith("apt_")
    assert created["starts_at"] == "2026-11-21T17:00:00.000Z"
    assert created["ends_at"] == "2026-11-21T17:45:00.000Z"
    assert created["assignee_id"] == member  # defaults to the creator
    assert created["status"] == "scheduled" and created["outcome"] is None
    assert created["outcome_recorded_at"] is None
    fetched = await tenant.get(f"/v1/appointments/{created['id']}")
    assert fetched.status_code == 200 and fetched.json() == created
    narrowed = await tenant.get(
        f"/v1/appointments/{created['id']}", params={"fields": "title,starts_at"}
    )
    assert narrowed.json() == {
        "id": created["id"],
        "title": created["title"],
        "starts_at": created["starts_at"],
    }

    [booked] = await events_of(runtime, tenant, "appointment.booked")
    assert booked["id"] == created["id"] and booked["contact_id"] == contact_id
    assert booked["starts_at"] == created["starts_at"] and "notes" not in booked
    assert "+14155550142" not in str(booked)
    assert await timeline_types(tenant, contact_id) == ["appointment_booked"]


async def test_invalid_bookings_name_each_field_and_write_nothing(tenant, other_tenant, runtime):
    assert failing_fields(await tenant.post("/v1/appointments", json={})) == {
        "contact_id",
        "title",
        "starts_at",
        "ends_at",
    }
    contact_id = await contact(tenant)
    base = {"contact_id": contact_id, "title": "Showing", **slot(17)}
    cases = [
        ({"ends_at": base["starts_at"]}, {"ends_at"}),  # not strictly after
        ({"ends_at": "2026-11-21T16:00:00Z"}, {"ends_at"}),
        ({"starts_at": "2026-11-21T17:00:00"}, {"starts_at"}),  # no offset
        ({"title": "x" * 201, "location": "y" * 301}, {"title", "location"}),
        ({"title": "   "}, {"title"}),
        ({"notes": "n" * 20001, "status": "done"}, {"notes", "status"}),
        ({"contact_id": "con_00000000000000000000000000"}, {"contact_id"}),
        ({"created_by": "usr_nobody", "assignee_id": "usr_nobody"}, {"created_by", "assignee_id"}),
    ]
    for change, fields in cases:
        assert (
            failing_fields(await tenant.post("/v1/appointments", json={**base, **change})) == fields
        ), change
    # Another workspace's contact and member read exactly like unknown ones.
    foreign_member = await add_member(runtime, other_tenant)
    foreign = await tenant.post(
        "/v1/appointments",
        json={**base, "contact_id": await contact(other_tenant), "created_by": foreign_member},
    )
    assert failing_fields(foreign) == {"contact_id", "created_by"}
    assert await stored_count(runtime, tenant) == 0
    assert await events_of(runtime, tenant, "appointment.booked") == []
    assert await timeline_types(tenant, contact_id) == []


async def test_moving_needs_both_times(tenant, runtime):
    contact_id = await contact(tenant)
    created = await book(tenant, contact_id)
    url = f"/v1/appointments/{created['id']}"
    error = assert_error(
        await tenant.patch(url, json={"starts_at": "2026-11-22T18:00:00Z"}),
        400,
        "validation_failed",
    )
    assert [item["field"] for item in error["details"]["errors"]] == ["ends_at"]
    assert failing_fields(
        await tenant.patch(url, json={"ends_at": "2026-11-22T18:45:00Z", "title": "Moved"})
    ) == {"starts_at"}
    assert failing_fields(
        await tenant.patch(url, json={**slot(18, day=22), "ends_at": "2026-11-22T17:00:00Z"})
    ) == {"ends_at"}
    assert failing_fields(await tenant.patch(url, json={"starts_at": None, "ends_at": None})) == {
        "starts_at",
        "ends_at",
    }
    assert (await tenant.get(url)).json() == created  # nothing half-written

    moved = await tenant.patch(url, json=slot(18, day=22))
    assert moved.status_code == 200, moved.text
    body = moved.json()
    assert body["starts_at"] == "2026-11-22T18:00:00.000Z"
    assert body["ends_at"] == "2026-11-22T18:45:00.000Z"
    [event] = await events_of(runtime, tenant, "appointment.rescheduled")
    assert event["previous_starts_at"] == created["starts_at"]
    assert event["previous_ends_at"] == created["ends_at"]
    assert event["starts_at"] == body["starts_at"]
    assert await timeline_types(tenant, contact_id) == [
        "appointment_rescheduled",
        "appointment_booked",
    ]
    # The same times again change nothing and emit nothing.
    assert (await tenant.patch(url, json=slot(18, day=22))).json() == body
    assert len(await events_of(runtime, tenant, "appointment.rescheduled")) == 1


async def test_outcomes(tenant, runtime):
    contact_id = await contact(tenant)
    created = await book(tenant, contact_id, location="Office", notes="Parking in back")
    url = f"/v1/appointments/{created['id']}"
    for bad in (
        {"outcome": "no-show"},
        {"outcome": None},
        {"title": None},
        {"contact_id": contact_id},
        {"created_by": None},
        {"assignee_id": "usr_nobody"},
    ):
        assert failing_fields(await tenant.patch(url, json=bad)) == set(bad), bad

    no_show = (await tenant.patch(url, json={"outcome": "no_show"})).json()
    assert no_show["outcome"] == "no_show" and no_show["status"] == "done"
    assert no_show["outcome_recorded_at"] is not None
    showed = (await tenant.patch(url, json={"outcome": "showed"})).json()  # a correction
    assert showed["status"] == "done"
    cancelled = (
        await tenant.patch(url, json={"outcome": "cancelled", "location": None, "notes": None})
    ).json()
    assert cancelled["status"] == "cancelled"
    assert cancelled["location"] is None and cancelled["notes"] is None
    events = await events_of(runtime, tenant, "appointment.outcome")
    assert [(e["previous_outcome"], e["outcome"]) for e in events] == [
        (None, "no_show"),
        ("no_show", "showed"),
        ("showed", "cancelled"),
    ]
    assert (await timeline_types(tenant, contact_id)).count("appointment_outcome") == 3


async def test_list_filters_paging_and_fields(tenant, runtime):
    member = await add_member(runtime, tenant)
    first, second = await contact(tenant), await contact(tenant, first_name="Ari")
    early = await book(tenant, first, **slot(9, day=20))
    mine = await book(tenant, second, created_by=member, **slot(12, day=21))
    late = await book(tenant, first, **slot(15, day=23))
    await tenant.patch(f"/v1/appointments/{late['id']}", json={"outcome": "cancelled"})

    async def ids(**params) -> list[str]:
        response = await tenant.get("/v1/appointments", params=params)
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["data"]]

    assert await ids() == [late["id"], mine["id"], early["id"]]
    assert await ids(contact_id=first) == [late["id"], early["id"]]
    assert await ids(created_by=member) == await ids(assignee_id=member) == [mine["id"]]
    assert await ids(status="cancelled") == await ids(outcome="cancelled") == [late["id"]]
    assert await ids(status="scheduled") == [mine["id"], early["id"]]
    assert await ids(starts_after="2026-11-21T12:00:00Z") == [late["id"], mine["id"]]
    assert await ids(starts_before="2026-11-21T12:00:00Z") == [early["id"]]
    for bad in (
        {"status": "done-ish"},
        {"starts_after": "2026-11-21T12:00:00"},
        {"outcome": "no-show"},
    ):
        assert_error(await tenant.get("/v1/appointments", params=bad), 400, "validation_failed")

    page = (await tenant.get("/v1/appointments", params={"limit": 2, "fields": "title"})).json()
    assert page["has_more"] and [set(item) for item in page["data"]] == [{"id", "title"}] * 2
    rest = (
        await tenant.get(
            "/v1/appointments",
            params={"limit": 2, "fields": "title", "cursor": page["next_cursor"]},
        )
    ).json()
    assert [item["id"] for item in rest["data"]] == [early["id"]]
    assert not rest["has_more"] and rest["next_cursor"] is None
    assert_error(
        await tenant.get("/v1/appointments", params={"fields": "phone"}), 400, "validation_failed"
    )


async def test_scopes(tenant, make):
    contact_id = await contact(tenant)
    created = await book(tenant, contact_id)
    readers = await make(["appointments:read"])
    writers = await make(["appointments:write", "contacts:write"])
    others = await make(["contacts:read", "calls:read"])
    for path in ("/v1/appointments", f"/v1/appointments/{created['id']}"):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "appointments:read"
    for response in (
        await readers.post("/v1/appointments", json={}),
        await readers.patch(f"/v1/appointments/{created['id']}", json={}),
    ):
        error = assert_error(response, 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "appointments:write"
    assert (await readers.get("/v1/appointments")).json()["data"] == []
    own = await book(writers, await contact(writers))  # write implies read
    assert (await writers.get(f"/v1/appointments/{own['id']}")).status_code == 200


async def test_another_workspace_sees_404(tenant, other_tenant):
    created = await book(tenant, await contact(tenant))
    for response in (
        await other_tenant.get(f"/v1/appointments/{created['id']}"),
        await other_tenant.patch(
            f"/v1/appointments/{created['id']}", json={"outcome": "cancelled"}
        ),
    ):
        assert_error(response, 404, "not_found")
    assert (await other_tenant.get("/v1/appointments")).json()["data"] == []
    assert (await tenant.get(f"/v1/appointments/{created['id']}")).json() == created


async def test_anonymizing_the_contact_scrubs_its_appointments(tenant):
    contact_id, other_id = await contact(tenant), await contact(tenant, first_name="Ari")
    scrubbed = await book(
        tenant,
        contact_id,
        title="Showing for Dana Reyes",
        location="Dana's house",
        notes="Dana's gate code 1234",
    )
    kept = await book(tenant, other_id, title="Showing for Ari", notes="Ari's notes")
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    after = (await tenant.get(f"/v1/appointments/{scrubbed['id']}")).json()
    assert after["title"] == "[redacted]" and after["location"] is None
    assert after["notes"] is None and after["contact_id"] == contact_id
    assert after["starts_at"] == scrubbed["starts_at"]
    assert (await tenant.get(f"/v1/appointments/{kept['id']}")).json() == kept
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert all("Dana" not in str(event) for event in events)


async def test_fixture_kind_and_the_demo_file(tenant, runtime):
    async def load(document):
        async with runtime.db.transaction() as connection:
            return await load_fixtures(
                TenantSession(connection, tenant.id, clock=runtime.clock), document
            )

    demo = orjson.loads((Path(__file__).parents[2] / "homebase/fixtures/demo.json").read_bytes())
    created = await load(
        {key: demo[key] for key in ("offices", "teams", "members", "contacts", "appointments")}
    )
    booked = [
        (await tenant.get(f"/v1/appointments/{appointment_id}")).json()
        for appointment_id in created["appointments"]
    ]
    assert [item["status"] for item in booked] == ["scheduled", "done"]
    assert booked[0]["created_by"] == created["members"][0]
    assert booked[0]["contact_id"] == created["contacts"][0]
    assert booked[0]["starts_at"] > booked[1]["starts_at"]  # relative to load time
    for bad, message in (
        ({"contact": "con_nope", "title": "x", "starts_in_hours": 1}, "contact_id"),
        (
            {
                "contact": created["contacts"][0],
                "title": "x",
                "starts_in_hours": 1,
                "outcome": "no-show",
            },
            "outcome",
        ),
    ):
        with pytest.raises(AdminError, match=message):
            await load({"appointments": [bad]})
    assert len((await tenant.get("/v1/appointments")).json()["data"]) == 2
