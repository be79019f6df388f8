"""A receiver's Retry-After on 429 and 503: the next attempt moves to the later of its
scheduled time and the time asked for, never past the following step's wait; hostile
values change nothing or are capped. A real receiver on 127.0.0.1 and a FrozenClock;
the parsing and the rule itself as units."""

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from homebase.kit.clock import FrozenClock, isoformat
from homebase.webhooks import jobs
from homebase.webhooks.retry_after import next_wait, requested_seconds
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

UNIT = 60  # HOMEBASE_WEBHOOK_BACKOFF_UNIT_SECONDS's default: the schedule in minutes


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


def answering(*answers):
    """Each request's (status, headers); the last answer repeats."""
    sent = iter(range(10**6))

    def respond(_request):
        status, headers = answers[min(next(sent), len(answers) - 1)]
        return status, headers, 0

    return respond


async def first_failure(tenant, runtime, receiver, status, headers) -> dict:
    """Subscribe, emit one event, make its first attempt; the delivery as listed."""
    receiver.respond = answering((status, headers), (200, {}))
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await receiver.wait_for(1)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "pending" and delivery["last_status_code"] == status
    return delivery


async def attempted_after(runtime, clock, receiver, seconds: float) -> None:
    """No second attempt one second before `seconds`, the second one at it."""
    clock.advance(seconds=seconds - 1)
    assert await jobs.deliver_due(runtime) == 0
    clock.advance(seconds=1)
    assert await jobs.deliver_due(runtime) == 1
    await receiver.wait_for(2)


@pytest.mark.parametrize("status", [429, 503])
async def test_seconds_move_the_next_attempt(tenant, runtime, receiver, clock, status):
    started = clock()
    delivery = await first_failure(tenant, runtime, receiver, status, {"Retry-After": "90"})
    assert delivery["next_attempt_at"] == isoformat(started + timedelta(seconds=90))
    await attempted_after(runtime, clock, receiver, 90)


async def test_an_http_date_moves_the_next_attempt(tenant, runtime, receiver, clock):
    started = clock()
    when = format_datetime(started + timedelta(seconds=100), usegmt=True)
    delivery = await first_failure(tenant, runtime, receiver, 503, {"Retry-After": when})
    assert delivery["next_attempt_at"] == isoformat(started + timedelta(seconds=100))
    await attempted_after(runtime, clock, receiver, 100)


@pytest.mark.parametrize(
    "value", ["3600", "9" * 60, "Fri, 31 Dec 9999 23:59:59 GMT"], ids=["hour", "huge", "far-date"]
)
async def test_capped_at_the_following_step(tenant, runtime, receiver, clock, value):
    """After the first failure the schedule waits 1 unit and the following step 2: a
    later Retry-After waits 2 units, no more."""
    started = clock()
    delivery = await first_failure(tenant, runtime, receiver, 429, {"Retry-After": value})
    assert delivery["next_attempt_at"] == isoformat(started + timedelta(seconds=2 * UNIT))
    await attempted_after(runtime, clock, receiver, 2 * UNIT)


@pytest.mark.parametrize(
    "status, value",
    [
        (429, "soon"),
        (429, "-30"),
        (503, "1.5e3"),
        (503, ""),
        (429, "Mon, 01 Jan 2001 00:00:00 GMT"),  # in the past
        (429, "30"),  # sooner than the schedule: the schedule stands
        (500, "90"),  # only 429 and 503 are read
        (429, "Fri, 32 Foo 2026 99:99:99 GMT"),
        (503, "9" * 65),
    ],
)
async def test_garbage_and_earlier_values_leave_the_schedule(
    tenant, runtime, receiver, clock, status, value
):
    started = clock()
    delivery = await first_failure(tenant, runtime, receiver, status, {"Retry-After": value})
    assert delivery["next_attempt_at"] == isoformat(started + timedelta(seconds=UNIT))
    await attempted_after(runtime, clock, receiver, UNIT)


async def test_still_six_attempts_in_all(tenant, runtime, receiver, clock):
    """A receiver that always asks for an hour: each wait doubles (the following step),
    and the sixth failure still ends the delivery."""
    receiver.respond = answering((503, {"Retry-After": "3600"}))
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    for failures, planned in enumerate((1, 2, 4, 8, 16), start=1):
        await attempted_after_n(runtime, clock, receiver, 2 * planned * UNIT, failures + 1)
    clock.advance(days=2)
    await work(runtime)
    assert len(receiver.requests) == 6
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "failed" and delivery["attempts"] == 6


async def attempted_after_n(runtime, clock, receiver, seconds: float, count: int) -> None:
    clock.advance(seconds=seconds - 1)
    assert await jobs.deliver_due(runtime) == 0
    clock.advance(seconds=1)
    assert await jobs.deliver_due(runtime) == 1
    await receiver.wait_for(count)


NOW = datetime(2026, 11, 20, 17, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "value, seconds",
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("0", 0.0),
        ("Fri, 20 Nov 2026 17:02:00 GMT", 120.0),
        ("Friday, 20-Nov-26 17:02:00 GMT", 120.0),  # the obsolete forms HTTP still allows
        ("Fri Nov 20 17:02:00 2026", 120.0),
        ("Fri, 20 Nov 2026 17:02:00 -0000", 120.0),
        ("Fri, 20 Nov 2026 16:59:00 GMT", -60.0),
        (None, None),
        ("", None),
        ("-1", None),
        ("1.5", None),
        ("٣", None),  # a digit, but not an ASCII one
        ("120, 60", None),  # the header sent twice
        ("x" * 1000, None),
        ("\x00", None),
    ],
)
def test_requested_seconds(value, seconds):
    assert requested_seconds(value, NOW) == seconds


def test_next_wait_lies_between_the_step_and_the_following_one():
    minutes = timedelta(minutes=1)
    assert next_wait(1, UNIT, None) == 1 * minutes
    assert next_wait(1, UNIT, -5) == 1 * minutes
    assert next_wait(1, UNIT, 90) == timedelta(seconds=90)
    assert next_wait(1, UNIT, 1e60) == 2 * minutes
    assert next_wait(3, UNIT, 300) == 5 * minutes  # 4 planned, at most 8
    assert next_wait(3, UNIT, 3600) == 8 * minutes
    assert next_wait(5, UNIT, 3600) == 32 * minutes  # the last retry: 16, at most 32
    assert next_wait(2, 0, 3600) == timedelta(0)  # no backoff unit, nothing to stretch
