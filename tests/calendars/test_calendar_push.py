"""Calendar push against a real Radicale CalDAV server, on SQLite and PostgreSQL: booked,
moved and cancelled appointments land on the creator's calendar under one UID; a calendar
that is down never fails the booking, and the push is retried with backoff until it
succeeds or runs out of attempts. The worker job is driven directly with a FrozenClock."""

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import select

from homebase.calendars import ical, jobs
from homebase.calendars.service import CalendarUrlInvalid, collection_url
from homebase.kit.clock import FrozenClock
from homebase.models import CalendarPush, MemberCalendar
from tests.calendar_support import (
    PASSWORD,
    add_member,
    book,
    connect,
    contact,
    radicale_fixture,  # noqa: F401  (the session's Radicale server: `radicale`)
    slot,
    start_radicale,
)
from tests.support import closed_port


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def push_row(runtime, appointment_id: str) -> dict | None:
    table = CalendarPush.__table__
    async with runtime.db.transaction(write=False) as connection:
        row = (
            (
                await connection.execute(
                    select(table).where(table.c.appointment_id == appointment_id)
                )
            )
            .mappings()
            .first()
        )
    return dict(row) if row else None


def vevent(radicale_server, calendar_url: str, appointment_id: str) -> dict[str, str]:
    response = radicale_server.fetch(f"{calendar_url}{appointment_id}.ics")
    assert response.status_code == 200, response.text
    unfolded = response.text.replace("\r\n ", "").replace("\n ", "")
    event = unfolded.split("BEGIN:VEVENT", 1)[1].split("END:VEVENT", 1)[0]
    return dict(line.split(":", 1) for line in event.strip().splitlines() if ":" in line)


async def setup_calendar(runtime, tenant, url: str) -> tuple[str, str]:
    member = await add_member(runtime, tenant)
    await connect(runtime, tenant, member, url)
    return member, await contact(tenant)


async def test_booked_moved_and_cancelled_reach_the_calendar(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member, contact_id = await setup_calendar(runtime, tenant, calendar)
    created = await book(
        tenant,
        contact_id,
        created_by=member,
        title="Showing; 12 Elm, SF",
        location="12 Elm St",
        **slot(17),
    )
    assert (await push_row(runtime, created["id"]))["status"] == "pending"
    assert await jobs.run(runtime) == 1
    pushed = await push_row(runtime, created["id"])
    assert pushed["status"] == "succeeded" and pushed["attempts"] == 1
    assert pushed["last_status_code"] in (200, 201, 204) and pushed["lease_token"] is None
    event = vevent(radicale, calendar, created["id"])
    assert event["UID"] == created["id"]
    assert event["DTSTART"] == "20261121T170000Z" and event["DTEND"] == "20261121T174500Z"
    assert event["SUMMARY"] == "Showing\\; 12 Elm\\, SF" and event["LOCATION"] == "12 Elm St"
    assert event["STATUS"] == "CONFIRMED"
    assert await jobs.run(runtime) == 0  # nothing left to do

    moved = await tenant.patch(f"/v1/appointments/{created['id']}", json=slot(18, day=22))
    assert moved.status_code == 200
    assert await jobs.run(runtime) == 1
    event = vevent(radicale, calendar, created["id"])  # same UID, same resource
    assert event["DTSTART"] == "20261122T180000Z" and event["DTEND"] == "20261122T184500Z"
    assert event["SEQUENCE"] == "2"

    await tenant.patch(f"/v1/appointments/{created['id']}", json={"outcome": "no_show"})
    assert await jobs.run(runtime) == 0  # the calendar shows nothing of a no-show
    await tenant.patch(f"/v1/appointments/{created['id']}", json={"outcome": "cancelled"})
    assert await jobs.run(runtime) == 1
    assert vevent(radicale, calendar, created["id"])["STATUS"] == "CANCELLED"


async def test_only_the_creators_connected_calendar_is_pushed(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member, contact_id = await setup_calendar(runtime, tenant, calendar)
    unconnected = await add_member(runtime, tenant, email="ari@example.com")
    no_creator = await book(tenant, contact_id, assignee_id=member)
    other_creator = await book(tenant, contact_id, created_by=unconnected, assignee_id=member)
    for appointment in (no_creator, other_creator):
        assert await push_row(runtime, appointment["id"]) is None
    assert await jobs.run(runtime) == 0


async def test_a_calendar_that_is_down_never_fails_the_booking(tenant, runtime, clock, tmp_path):
    server = start_radicale(tmp_path)
    try:
        calendar = server.new_calendar()
        member, contact_id = await setup_calendar(runtime, tenant, calendar)
        server.stop()
        created = await book(tenant, contact_id, created_by=member)  # 201 while it is down

        assert await jobs.run(runtime) == 1
        failed = await push_row(runtime, created["id"])
        unit = runtime.settings.calendar_push_backoff_unit_seconds
        assert failed["status"] == "pending" and failed["attempts"] == 1
        assert "ConnectError" in failed["last_error"]
        assert failed["next_attempt_at"] == clock.now + timedelta(seconds=unit)
        assert await jobs.run(runtime) == 0  # not due before the backoff

        clock.advance(seconds=unit)
        assert await jobs.run(runtime) == 1  # still down: second failure, waits 2 units
        assert (await push_row(runtime, created["id"]))["next_attempt_at"] == clock.now + timedelta(
            seconds=2 * unit
        )

        server.start()
        clock.advance(seconds=2 * unit)
        assert await jobs.run(runtime) == 1
        done = await push_row(runtime, created["id"])
        assert done["status"] == "succeeded" and done["attempts"] == 3
        assert done["last_error"] is None
        assert vevent(server, calendar, created["id"])["DTSTART"] == "20261121T170000Z"
    finally:
        server.stop()


@pytest.mark.parametrize("settings_overrides", [{"calendar_push_max_attempts": 2}])
async def test_gives_up_after_the_last_attempt(tenant, runtime, clock):
    member, contact_id = await setup_calendar(
        runtime, tenant, f"http://127.0.0.1:{closed_port()}/nobody/"
    )
    created = await book(tenant, contact_id, created_by=member)
    assert await jobs.run(runtime) == 1
    clock.advance(hours=1)
    assert await jobs.run(runtime) == 1
    row = await push_row(runtime, created["id"])
    assert row["status"] == "failed" and row["attempts"] == 2
    assert row["next_attempt_at"] is None and row["completed_at"] == clock.now
    clock.advance(days=1)
    assert await jobs.run(runtime) == 0
    # A later change queues a fresh push with a fresh set of attempts.
    await tenant.patch(f"/v1/appointments/{created['id']}", json={"title": "Renamed"})
    row = await push_row(runtime, created["id"])
    assert row["status"] == "pending" and row["attempts"] == 0 and row["revision"] == 2


async def test_refused_credentials_are_recorded(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member = await add_member(runtime, tenant)
    await connect(runtime, tenant, member, calendar, password="wrong-" + PASSWORD)
    created = await book(tenant, await contact(tenant), created_by=member)
    assert await jobs.run(runtime) == 1
    row = await push_row(runtime, created["id"])
    assert row["status"] == "pending" and row["last_status_code"] == 401
    assert "401" in row["last_error"]
    # Reconnecting with the right password reaches the same queued push.
    await connect(runtime, tenant, member, calendar)
    clock.advance(hours=1)
    assert await jobs.run(runtime) == 1
    assert (await push_row(runtime, created["id"]))["status"] == "succeeded"


async def test_a_change_during_a_push_is_pushed_after_it(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member, contact_id = await setup_calendar(runtime, tenant, calendar)
    created = await book(tenant, contact_id, created_by=member)
    [claimed] = await jobs.claim(runtime, 10)
    assert await jobs.claim(runtime, 10) == []  # leased: no second worker takes it
    await tenant.patch(f"/v1/appointments/{created['id']}", json=slot(9, day=25))
    assert await jobs.claim(runtime, 10) == []  # still leased
    async with httpx.AsyncClient() as client:
        result = await jobs.push_one(runtime, claimed, client)  # the old state lands
    await jobs.record(runtime, [(claimed, result)])
    row = await push_row(runtime, created["id"])
    assert row["status"] == "pending" and row["revision"] == 2 and row["lease_token"] is None
    assert await jobs.run(runtime) == 1
    assert vevent(radicale, calendar, created["id"])["DTSTART"] == "20261125T090000Z"
    assert (await push_row(runtime, created["id"]))["status"] == "succeeded"


async def test_an_expired_lease_is_claimed_again(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member, contact_id = await setup_calendar(runtime, tenant, calendar)
    created = await book(tenant, contact_id, created_by=member)
    [lost] = await jobs.claim(runtime, 10)  # a worker that dies before recording
    clock.advance(seconds=jobs.lease_seconds(runtime.settings) + 1)
    assert await jobs.run(runtime) == 1
    assert (await push_row(runtime, created["id"]))["status"] == "succeeded"
    await jobs.record(runtime, [(lost, jobs.PushResult(succeeded=False, error="late"))])
    assert (await push_row(runtime, created["id"]))["status"] == "succeeded"  # fenced


async def test_anonymizing_the_contact_scrubs_the_calendar_too(tenant, runtime, radicale, clock):
    calendar = radicale.new_calendar()
    member, contact_id = await setup_calendar(runtime, tenant, calendar)
    created = await book(
        tenant, contact_id, created_by=member, title="Dana Reyes showing", notes="gate code 1234"
    )
    await jobs.run(runtime)
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    assert await jobs.run(runtime) == 1
    event = vevent(radicale, calendar, created["id"])
    assert event["SUMMARY"] == "[redacted]" and "DESCRIPTION" not in event


async def test_credentials_are_sealed_at_rest(tenant, runtime, radicale):
    member = await add_member(runtime, tenant)
    calendar_id = await connect(runtime, tenant, member, radicale.new_calendar())
    table = MemberCalendar.__table__
    async with runtime.db.transaction(write=False) as connection:
        row = (
            (await connection.execute(select(table).where(table.c.id == calendar_id)))
            .mappings()
            .one()
        )
    assert row["credentials_sealed"].startswith("v1.") and PASSWORD not in str(dict(row))


def test_the_worker_runs_the_push_job():
    from homebase.root.jobs import JOBS

    assert [job.run for job in JOBS if job.name == "calendars.push"] == [jobs.run]


def test_collection_urls():
    assert (
        collection_url("https://cal.example.com/maya/work") == "https://cal.example.com/maya/work/"
    )
    assert collection_url("http://10.0.0.5:5232/maya/") == "http://10.0.0.5:5232/maya/"
    for bad in (
        "ftp://cal.example.com/x/",
        "file:///etc/passwd",
        "https:///nohost",
        "https://maya:pw@cal.example.com/x/",
        "javascript:alert(1)",
        "https://cal.example.com/x/?q=1",
        "https://c.example.com/" + "x" * 2048,
    ):
        with pytest.raises(CalendarUrlInvalid):
            collection_url(bad)


def test_ical_escapes_and_folds():
    moment = datetime(2026, 11, 21, 17, 0, tzinfo=UTC)
    row = {
        "id": "apt_1",
        "title": "A, b; c\\d\nnext " + "é" * 60,
        "location": None,
        "notes": "line one\r\nline two",
        "starts_at": moment,
        "ends_at": moment + timedelta(minutes=45),
        "outcome": None,
        "created_at": moment,
        "updated_at": moment,
    }
    text = ical.calendar_object(row, sequence=3, now=moment).decode()
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    unfolded = text.replace("\r\n ", "")
    assert "SUMMARY:A\\, b\\; c\\\\d\\nnext " + "é" * 60 + "\r\n" in unfolded
    assert "DESCRIPTION:line one\\nline two\r\n" in unfolded
    assert "LOCATION" not in text and "SEQUENCE:3\r\n" in text and text.endswith("\r\n")
