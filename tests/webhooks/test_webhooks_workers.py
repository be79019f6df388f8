"""`homebase worker` processes against one PostgreSQL database and a real receiver:
a worker killed with SIGKILL mid-delivery loses nothing, and two workers never make the
same attempt twice."""

import asyncio
import collections
import os
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import httpx
import orjson
import pytest
from sqlalchemy import select

from homebase.db.engine import Database
from homebase.db.migrate import upgrade
from homebase.models import WebhookAttempt, WebhookDelivery
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests import conftest
from tests.dns_support import StubResolver
from tests.support import (
    POSTGRES_URL,
    create_database,
    drop_database_later,
    make_tenant,
    require_server,
    until,
)
from tests.webhook_receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY = "test-secret-key"


@pytest.fixture(scope="module")
def worker_database():
    """A database of its own: worker processes poll it while the test runs."""
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    name = f"homebase_webhook_workers_{uuid.uuid4().hex[:8]}"

    url = asyncio.run(create_database(name))
    asyncio.run(upgrade(url))
    yield url
    drop_database_later(name)


@pytest.fixture
async def setup(worker_database):
    settings = conftest.test_settings(worker_database, secret_key=SECRET_KEY)
    runtime = Runtime(
        settings=settings,
        db=Database(worker_database, pool_size=3),
        limiter=MemoryLimiter(),
        resolver=StubResolver(),
    )
    transport = httpx.ASGITransport(app=create_app(runtime))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        tenant = await make_tenant(runtime, client)
        yield runtime, tenant
    await runtime.close()


class Workers:
    """`homebase worker` subprocesses; every one is killed when the test ends."""

    def __init__(self, database_url: str, **settings: str):
        self.env = {
            **os.environ,
            "HOMEBASE_ENV": "test",
            "HOMEBASE_DATABASE_URL": database_url,
            "HOMEBASE_SECRET_KEY": SECRET_KEY,
            "HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS": "1",
            "HOMEBASE_WORKER_POLL_SECONDS": "0.05",
            **{f"HOMEBASE_{name.upper()}": value for name, value in settings.items()},
        }
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self.directory = tempfile.TemporaryDirectory()

    def start(self) -> subprocess.Popen:
        log = Path(self.directory.name) / f"worker{len(self.processes)}.log"
        with log.open("wb") as stderr:
            process = subprocess.Popen(
                [sys.executable, "-m", "homebase", "worker"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        self.processes.append(process)
        self.logs.append(log)
        return process

    async def wait_ready(self, within: float = 30) -> None:
        """Until every worker has logged its start (imports done, runtime built): on a
        busy machine one process can otherwise finish the work before the other is up."""
        await until(
            lambda: all(b"worker started" in log.read_bytes() for log in self.logs),
            within,
            what="every worker's start",
        )

    def kill_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)
        self.directory.cleanup()


@pytest.fixture
def workers(worker_database):
    pool = Workers(
        worker_database,
        webhook_timeout_seconds="2",
        webhook_lease_seconds="3",
        webhook_delivery_batch="4",
    )
    yield pool
    pool.kill_all()


async def _rows(runtime, table, **where):
    async with runtime.db.transaction(write=False) as connection:
        statement = select(table).where(*(table.c[k] == v for k, v in where.items()))
        return [dict(row) for row in (await connection.execute(statement)).mappings()]


async def test_sigkilled_worker_loses_nothing(setup, workers):
    runtime, tenant = setup
    held = asyncio.Event()

    def respond(_request):
        if not held.is_set():
            held.set()
            return 200, {}, None  # hold the first attempt open: the worker is mid-delivery
        return 200, {}, 0

    receiver = await Receiver(respond=respond).start()
    try:
        hook = (
            await tenant.post(
                "/v1/webhooks", {"url": receiver.url, "event_types": ["contact.created"]}
            )
        ).json()
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        first = workers.start()
        await receiver.wait_for(1, within=20)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        workers.start()
        first_request, second_request = await receiver.wait_for(2, within=20)
    finally:
        await receiver.stop()

    assert first_request.body == second_request.body
    assert orjson.loads(second_request.body)["data"]["event_id"].startswith("evt_")
    assert (
        first_request.headers["x-webhook-delivery"] == second_request.headers["x-webhook-delivery"]
    )
    assert second_request.headers["x-webhook-attempt"] == "2"

    async def succeeded():  # the new worker records its outcome just after the receiver answers
        [delivery] = await _rows(runtime, WebhookDelivery.__table__, subscription_id=hook["id"])
        return delivery if delivery["status"] == "succeeded" else None

    delivery = await until(succeeded, 60)
    attempts = await _rows(runtime, WebhookAttempt.__table__, delivery_id=delivery["id"])
    assert sorted((a["number"], a["outcome"]) for a in attempts) == [
        (1, "abandoned"),
        (2, "succeeded"),
    ]


async def test_two_workers_attempt_each_delivery_once(setup, workers):
    runtime, tenant = setup
    receiver = await Receiver(respond=lambda request: (200, {}, 0.02)).start()
    events = 40
    try:
        hook = (
            await tenant.post(
                "/v1/webhooks", {"url": receiver.url, "event_types": ["contact.created"]}
            )
        ).json()
        workers.start()
        workers.start()
        await workers.wait_ready()
        for index in range(events):
            assert (
                await tenant.post("/v1/contacts", {"first_name": f"C{index}"})
            ).status_code == 201
        await receiver.wait_for(events, within=30)
        await asyncio.sleep(1)  # time for any duplicate to show up
    finally:
        await receiver.stop()

    per_delivery = collections.Counter(r.headers["x-webhook-delivery"] for r in receiver.requests)
    assert len(per_delivery) == events
    assert set(per_delivery.values()) == {1}
    event_ids = {orjson.loads(r.body)["data"]["event_id"] for r in receiver.requests}
    assert len(event_ids) == events
    deliveries = await _rows(runtime, WebhookDelivery.__table__, subscription_id=hook["id"])
    assert len(deliveries) == events
    attempts = []
    for delivery in deliveries:
        attempts += await _rows(runtime, WebhookAttempt.__table__, delivery_id=delivery["id"])
    assert len(attempts) == events
    # Both processes took part (each claims batches of 4 while the other is sending).
    assert len({attempt["worker"] for attempt in attempts}) == 2
