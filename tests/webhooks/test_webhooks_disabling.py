"""Subscriptions that keep failing: the failure streak, disabling after
HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS (here a few minutes' worth), nothing queued while
disabled, re-enabling. A real receiver on 127.0.0.1, the worker's jobs driven with a
FrozenClock; SQLite and PostgreSQL."""

from datetime import UTC, datetime, timedelta

import pytest

from homebase.kit.clock import FrozenClock, isoformat
from homebase.webhooks import dispatcher, jobs, streaks
from tests.support import assert_error
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

WINDOW_MINUTES = 5
DISABLE_AFTER = {"webhook_disable_after_days": WINDOW_MINUTES / (24 * 60)}


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def hook_of(tenant, hook_id: str) -> dict:
    response = await tenant.get(f"/v1/webhooks/{hook_id}")
    assert response.status_code == 200, response.text
    return response.json()


async def deliveries_of(tenant, hook_id: str) -> list[dict]:
    response = await tenant.get(f"/v1/webhooks/{hook_id}/deliveries?limit=200")
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def advance_and_work(clock, runtime, minutes: float) -> None:
    clock.advance(seconds=minutes * 60)
    await work(runtime)


@pytest.mark.parametrize("settings_overrides", [DISABLE_AFTER])
async def test_disabled_once_every_attempt_failed_for_the_window(
    tenant, runtime, receiver, clock, settings_overrides
):
    receiver.respond = script(500)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    started = clock()
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await receiver.wait_for(1)
    shown = await hook_of(tenant, hook["id"])
    assert shown["status"] == "active" and shown["failing_since"] == isoformat(started)
    assert shown["disabled_reason"] is None and shown["disabled_at"] is None

    # Attempts 2, 3 and 4 at +1, +3 and +7 minutes: the streak reaches 5 minutes at +7.
    await advance_and_work(clock, runtime, 1)
    await advance_and_work(clock, runtime, 2)
    assert (await hook_of(tenant, hook["id"]))["status"] == "active"
    await advance_and_work(clock, runtime, 4)
    await receiver.wait_for(4)
    disabled_at = clock()
    shown = await hook_of(tenant, hook["id"])
    assert shown["status"] == "disabled" and shown["disabled_reason"] == "failing"
    assert shown["disabled_at"] == isoformat(disabled_at)
    assert shown["failing_since"] == isoformat(started)
    listed = (await tenant.get("/v1/webhooks")).json()["data"]
    assert listed == [shown]

    # The delivery's remaining schedule is cancelled: nothing reaches the receiver after.
    [delivery] = await deliveries_of(tenant, hook["id"])
    assert delivery["status"] == "cancelled" and delivery["attempts"] == 4
    assert delivery["last_error"] == streaks.CANCELLED
    assert delivery["completed_at"] == isoformat(disabled_at)

    # Nothing is queued while disabled; the events are still there to read.
    await tenant.post("/v1/contacts", {"first_name": "Bo"})
    for _ in range(3):
        await advance_and_work(clock, runtime, 60)
    assert len(receiver.requests) == 4
    assert len(await deliveries_of(tenant, hook["id"])) == 1
    events = (await tenant.get("/v1/events", params={"type": "contact.created"})).json()
    assert [event["data"]["first_name"] for event in events["data"]] == ["Ana", "Bo"]
    path = f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver"
    assert_error(await tenant.post(path), 409, "conflict")


@pytest.mark.parametrize("settings_overrides", [DISABLE_AFTER])
async def test_a_success_within_the_window_restarts_the_streak(
    tenant, runtime, receiver, clock, settings_overrides
):
    answer = {"status": 500}
    receiver.respond = lambda request: (answer["status"], {}, 0)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)  # +0 fails: the streak starts
    await advance_and_work(clock, runtime, 1)  # +1 fails
    answer["status"] = 204
    await advance_and_work(clock, runtime, 2)  # +3 succeeds
    shown = await hook_of(tenant, hook["id"])
    assert shown["failing_since"] is None and shown["status"] == "active"

    answer["status"] = 503
    await advance_and_work(clock, runtime, 1)
    restarted = clock()
    await tenant.post("/v1/contacts", {"first_name": "Bo"})
    await work(runtime)  # +4 fails: a new streak
    await advance_and_work(clock, runtime, 1)  # +5
    await advance_and_work(clock, runtime, 2)  # +7: failures span 7 minutes, the streak 3
    await receiver.wait_for(6)
    shown = await hook_of(tenant, hook["id"])
    assert shown["status"] == "active", shown
    assert shown["failing_since"] == isoformat(restarted)
    await advance_and_work(clock, runtime, 4)  # +11: the streak is 7 minutes old
    assert (await hook_of(tenant, hook["id"]))["disabled_reason"] == "failing"


@pytest.mark.parametrize("settings_overrides", [DISABLE_AFTER])
async def test_re_enabling_clears_the_streak_and_new_events_flow(
    tenant, runtime, receiver, clock, settings_overrides
):
    answer = {"status": 500}
    receiver.respond = lambda request: (answer["status"], {}, 0)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    for minutes in (1, 2, 4):
        await advance_and_work(clock, runtime, minutes)
    assert (await hook_of(tenant, hook["id"]))["status"] == "disabled"
    await tenant.post("/v1/contacts", {"first_name": "While disabled"})
    await work(runtime)

    answer["status"] = 200
    response = await tenant.patch(f"/v1/webhooks/{hook['id']}", {"status": "active"})
    assert response.status_code == 200, response.text
    enabled = response.json()
    assert "secret" not in enabled and enabled["secret_hint"] == hook["secret_hint"]
    assert enabled["status"] == "active"
    assert enabled["disabled_reason"] is enabled["disabled_at"] is enabled["failing_since"] is None
    assert await hook_of(tenant, hook["id"]) == enabled

    clock.advance(seconds=1)
    await tenant.post("/v1/contacts", {"first_name": "Cy"})
    await work(runtime)
    requests = await receiver.wait_for(5)
    assert b'"Cy"' in requests[-1].body
    # What was cancelled stays cancelled, and nothing queued while disabled is sent.
    assert not any(b"While disabled" in request.body for request in requests)
    statuses = sorted(d["status"] for d in await deliveries_of(tenant, hook["id"]))
    assert statuses == ["cancelled", "succeeded"]


async def test_paused_by_a_client_and_resumed(tenant, runtime, receiver, clock):
    receiver.respond = script(500, 200)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await receiver.wait_for(1)
    response = await tenant.patch(f"/v1/webhooks/{hook['id']}", {"status": "disabled"})
    assert response.status_code == 200, response.text
    paused = response.json()
    assert paused["status"] == "disabled" and paused["disabled_reason"] == "paused"
    assert paused["disabled_at"] == isoformat(clock())
    [delivery] = await deliveries_of(tenant, hook["id"])
    assert delivery["status"] == "cancelled" and delivery["last_error"] == streaks.CANCELLED
    # Pausing again changes nothing.
    clock.advance(minutes=1)
    again = await tenant.patch(f"/v1/webhooks/{hook['id']}", {"status": "disabled"})
    assert again.json() == paused
    await tenant.post("/v1/contacts", {"first_name": "Bo"})
    await advance_and_work(clock, runtime, 60)
    assert len(receiver.requests) == 1 and len(await deliveries_of(tenant, hook["id"])) == 1

    resumed = await tenant.patch(f"/v1/webhooks/{hook['id']}", {"status": "active"})
    assert resumed.json()["status"] == "active"
    clock.advance(seconds=1)
    await tenant.post("/v1/contacts", {"first_name": "Cy"})
    await work(runtime)
    [_, request] = await receiver.wait_for(2)
    assert b'"Cy"' in request.body


async def test_a_success_in_the_same_batch_keeps_the_subscription(tenant, runtime, clock):
    """The engine directly: one batch holding a success and a failure of one subscription
    clears its streak; a failure alone past the window disables it, once."""
    hook = await subscribe(tenant, "http://127.0.0.1:9/hook")
    table = dispatcher.subscriptions
    long_ago = clock() - timedelta(days=30)
    async with runtime.db.transaction() as connection:
        await connection.execute(
            table.update().where(table.c.id == hook["id"]).values(failing_since=long_ago)
        )
        both = [(hook["id"], False), (hook["id"], True)]
        assert await streaks.record(connection, both, clock(), runtime.settings) == []
    assert (await hook_of(tenant, hook["id"]))["failing_since"] is None

    async with runtime.db.transaction() as connection:
        await connection.execute(
            table.update().where(table.c.id == hook["id"]).values(failing_since=long_ago)
        )
        failed = [(hook["id"], False)]
        assert await streaks.record(connection, failed, clock(), runtime.settings) == [hook["id"]]
        assert await streaks.record(connection, failed, clock(), runtime.settings) == []
    shown = await hook_of(tenant, hook["id"])
    assert shown["status"] == "disabled" and shown["failing_since"] == isoformat(long_ago)


async def test_an_abandoned_attempt_does_not_start_a_streak(tenant, runtime, receiver, clock):
    """A worker that died says nothing about the receiver."""
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await jobs.fan_out(runtime)
    async with runtime.db.transaction() as connection:
        await dispatcher.claim(connection, runtime.settings, clock(), 10)
    clock.advance(seconds=runtime.settings.webhook_lease_seconds)
    assert await jobs.sweep(runtime) == 1
    assert (await hook_of(tenant, hook["id"]))["failing_since"] is None


async def test_a_delivery_fanned_out_as_it_is_disabled_is_never_sent(
    tenant, runtime, receiver, clock
):
    """As for a deletion: a fan-out that read the subscription as active before the
    disabling committed leaves a pending delivery, which claims skip and the sweeper
    cancels."""
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    assert await jobs.fan_out(runtime) == 1
    table = dispatcher.subscriptions
    async with runtime.db.transaction() as connection:  # the disabling, minus its cancel
        await connection.execute(
            table.update()
            .where(table.c.id == hook["id"])
            .values(disabled_at=clock(), disabled_reason=streaks.PAUSED)
        )
    assert await jobs.deliver_due(runtime) == 0
    assert await jobs.sweep(runtime) == 1
    assert receiver.requests == []
    [delivery] = await deliveries_of(tenant, hook["id"])
    assert delivery["status"] == "cancelled"
