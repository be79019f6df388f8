"""The worker starts on committed work at once, not at its next poll (worker/wakeup.py,
db/work.py): in-process on both databases, LISTEN/NOTIFY on PostgreSQL; the poll stays
the safety net. Real receivers on 127.0.0.1; SQLite and PostgreSQL.

The poll is set to 30 s: an arrival within half of that after the commit can only come
from the wake-up (ordering, with a margin taken from the setting, not the machine)."""

import asyncio
import contextlib

import asyncpg
import pytest
from sqlalchemy import text

from homebase.db.engine import Database
from homebase.db.notifier import asyncpg_dsn
from homebase.db.tenancy import TenantSession
from homebase.outbox.service import emit
from homebase.ratelimit import MemoryLimiter
from homebase.root.worker import run_until
from homebase.runtime import Runtime
from homebase.worker.wakeup import LISTENER_NAME
from tests.automations_support import automation, contact
from tests.conftest import test_settings as settings_for
from tests.support import until
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe

SLOW_POLL = {"worker_poll_seconds": 30}
WOKEN = SLOW_POLL["worker_poll_seconds"] / 2  # arrived by then: before the next poll
IDLE = 0.5  # the worker's first rounds (and its listener's first wake-up) are over


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@contextlib.asynccontextmanager
async def worker(runtime):
    """run_until in a task, as `homebase serve` runs it (or `homebase worker` when the
    runtime is its own), idle by the time the block starts."""
    stop = asyncio.Event()
    task = asyncio.create_task(run_until(runtime, stop))
    await asyncio.sleep(IDLE)
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


@contextlib.asynccontextmanager
async def separate_runtime(database_url, **overrides):
    """Another process's Runtime: its own Database, so no in-process signal reaches it."""
    settings = settings_for(database_url, **overrides)
    runtime = Runtime(
        settings=settings, db=Database(settings.database_url, pool_size=2), limiter=MemoryLimiter()
    )
    try:
        yield runtime
    finally:
        await runtime.close()


@pytest.mark.parametrize("settings_overrides", [SLOW_POLL])
async def test_a_committed_event_is_delivered_before_the_poll(tenant, runtime, receiver):
    await subscribe(tenant, receiver.url, ["contact.created"])
    async with worker(runtime):
        response = await tenant.post("/v1/contacts", {"first_name": "Dana"})
        assert response.status_code == 201
        [request] = await receiver.wait_for(1, within=WOKEN)
    assert b'"contact.created"' in request.body


@pytest.mark.parametrize("settings_overrides", [SLOW_POLL])
async def test_a_queued_send_is_sent_before_the_poll(tenant, runtime, receiver):
    """The local provider sends it; its message.sent event reaches the receiver."""
    await subscribe(tenant, receiver.url, ["message.sent"])
    async with worker(runtime):
        response = await tenant.post(
            "/v1/messages",
            json={
                "channel": "EMAIL",
                "to": "dana@example.com",
                "subject": "Hello",
                "body": "Listing attached.",
            },
        )
        assert response.status_code == 201, response.text
        assert response.json()["status"] == "QUEUED"
        [request] = await receiver.wait_for(1, within=WOKEN)
    assert response.json()["id"].encode() in request.body
    sent = (await tenant.get(f"/v1/messages/{response.json()['id']}")).json()
    assert sent["status"] == "SENT"


@pytest.mark.parametrize("settings_overrides", [SLOW_POLL])
async def test_an_enrolment_runs_its_first_step_before_the_poll(tenant, runtime, receiver):
    automation_id = await automation(runtime, tenant, [{"type": "move_stage", "stage": "NURTURE"}])
    contact_id = await contact(tenant)
    await subscribe(tenant, receiver.url, ["contact.stage_changed"])
    async with worker(runtime):
        response = await tenant.post(
            f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
        )
        assert response.status_code == 202, response.text
        [request] = await receiver.wait_for(1, within=WOKEN)
    assert contact_id.encode() in request.body and b'"NURTURE"' in request.body


@pytest.mark.parametrize("settings_overrides", [{"worker_poll_seconds": 0.3}])
async def test_a_commit_that_announced_nothing_is_found_by_the_poll(tenant, runtime, receiver):
    """The safety net: a commit whose notification is lost (here: made on a connection
    Database did not open, so nothing is announced) is delivered at the next poll."""
    await subscribe(tenant, receiver.url, ["contact.created"])
    async with worker(runtime):
        async with runtime.db.engine.begin() as connection:
            await emit(
                TenantSession(connection, tenant.id),
                "contact.created",
                data={"id": "con_unannounced"},
            )
        await receiver.wait_for(1, within=WOKEN)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_separate_worker_wakes_on_notify(tenant, database_url, receiver):
    """`homebase worker` in its own process: only LISTEN reaches it."""
    await subscribe(tenant, receiver.url, ["contact.created"])
    async with separate_runtime(database_url, **SLOW_POLL) as other, worker(other):
        await tenant.post("/v1/contacts", {"first_name": "Dana"})
        await receiver.wait_for(1, within=WOKEN)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_the_listener_reconnects_after_its_connection_is_killed(
    tenant, database_url, receiver
):
    await subscribe(tenant, receiver.url, ["contact.created"])
    async with separate_runtime(database_url, **SLOW_POLL) as other, worker(other):
        first = await _listener_pids(database_url)
        assert len(first) == 1
        await _terminate(database_url, first)

        async def reconnected() -> bool:  # after 0.1 s
            return (now := await _listener_pids(database_url)) and now != first

        await until(reconnected, 60, every=0.1, what="the listener's new connection")
        await tenant.post("/v1/contacts", {"first_name": "Dana"})
        await receiver.wait_for(1, within=WOKEN)


async def _listener_pids(database_url) -> set[int]:
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1"
            " AND datname = current_database()",
            LISTENER_NAME,
        )
        return {row["pid"] for row in rows}
    finally:
        await connection.close()


async def _terminate(database_url, pids: set[int]) -> None:
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        for pid in pids:
            await connection.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await connection.close()


# The announcement itself (db/work.py): after the commit, once, and never for a rollback
# or a transaction that wrote no work.


async def test_work_is_announced_once_after_commit_and_never_after_rollback(tenant, runtime):
    announced = []
    runtime.db.on_work.append(lambda: announced.append(True))
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await emit(session, "contact.created", data={"id": "con_1"})
        await emit(session, "contact.created", data={"id": "con_2"})
        assert announced == []  # not before the commit
    assert announced == [True]
    with pytest.raises(RuntimeError):
        async with runtime.db.transaction() as connection:
            await emit(TenantSession(connection, tenant.id), "contact.created", data={"id": "c"})
            raise RuntimeError("rolled back")
    async with runtime.db.transaction() as connection:
        await connection.execute(text("SELECT 1"))
    assert announced == [True]

    assert (await tenant.get("/v1/contacts")).status_code == 200
    assert (
        await tenant.post("/v1/contacts", {"first_name": "Dana", "nope": 1})
    ).status_code == 400  # rolled back: nothing announced
    assert announced == [True]
    assert (await tenant.post("/v1/contacts", {"first_name": "Dana"})).status_code == 201
    assert announced == [True, True]


async def test_a_mark_belongs_to_its_own_transaction(tenant, database_url):
    """Work marked on the outer connection while a nested transaction (another connection)
    is open is announced when the outer one commits, not the inner."""
    db = Database(database_url, sqlite_pool_size=2, pool_size=2)
    announced = []
    db.on_work.append(lambda: announced.append(True))
    try:
        async with db.transaction() as outer:
            async with db.transaction(write=False):
                await emit(TenantSession(outer, tenant.id), "contact.created", data={"id": "c"})
            assert announced == []
        assert announced == [True]
    finally:
        await db.dispose()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_notify_is_sent_on_commit_only(tenant, runtime, database_url):
    listener = await asyncpg.connect(asyncpg_dsn(database_url))
    received = asyncio.Queue()
    await listener.add_listener("homebase_work", lambda *args: received.put_nowait(args))
    try:
        with pytest.raises(RuntimeError):
            async with runtime.db.transaction() as connection:
                await emit(
                    TenantSession(connection, tenant.id), "contact.created", data={"id": "c"}
                )
                raise RuntimeError("rolled back")
        async with runtime.db.transaction() as connection:
            await connection.execute(text("SELECT 1"))  # no work: no notification
        await asyncio.sleep(0.2)
        assert received.empty()
        assert (await tenant.post("/v1/contacts", {"first_name": "Dana"})).status_code == 201
        _connection, _pid, channel, payload = await asyncio.wait_for(received.get(), 5)
        assert (channel, payload) == ("homebase_work", "")
        await asyncio.sleep(0.2)
        assert received.empty()  # one per transaction
    finally:
        await listener.close()


def test_a_round_starts_with_the_webhook_delivery_jobs():
    """A woken worker starts the first attempt before the other jobs' checks."""
    from homebase.root.jobs import JOBS

    names = [job.name for job in JOBS]
    assert names[:2] == ["webhooks.fan_out", "webhooks.deliver"]
    assert {"automations.tick", "messages.send", "webhooks.sweep"} <= set(names[2:])
