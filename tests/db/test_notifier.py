"""The work NOTIFY on PostgreSQL (db/notifier.py): sent after the commit, from the
Notifier's own connection (never inside the request's statement, whose COMMIT would
then wait on PostgreSQL's notification queue lock), one for a burst of commits, a
notification still owed sent at close, and a server it cannot reach costing nothing
but a warning (the worker's poll finds the work)."""

import asyncio
import logging

import asyncpg
import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table

from homebase.db.notifier import NOTIFIER_NAME, Notifier, asyncpg_dsn
from homebase.db.tenancy import TenantSession
from homebase.db.work import CHANNEL
from tests.support import POSTGRES_URL, closed_port, own_postgres_database, require_server

metadata = MetaData()
things = Table(
    "notifier_things",
    metadata,
    Column("id", String, primary_key=True),
    Column("workspace_id", String, nullable=False),
    Column("n", Integer),
)


class Listener:
    """A LISTENing connection of the test's own: the channel's notifications and the
    application_name of the backend that sent each."""

    def __init__(self, connection: asyncpg.Connection):
        self.connection = connection
        self.received: asyncio.Queue[int] = asyncio.Queue()

    @classmethod
    async def on(cls, url: str) -> "Listener":
        listener = cls(await asyncpg.connect(asyncpg_dsn(url)))
        await listener.connection.add_listener(
            CHANNEL, lambda _connection, pid, _channel, _payload: listener.received.put_nowait(pid)
        )
        return listener

    async def sender(self, within: float = 5) -> str:
        pid = await asyncio.wait_for(self.received.get(), within)
        return await self.connection.fetchval(
            "SELECT application_name FROM pg_stat_activity WHERE pid = $1", pid
        )

    async def count_after(self, seconds: float) -> int:
        await asyncio.sleep(seconds)
        return self.received.qsize()

    async def close(self) -> None:
        await self.connection.close()


@pytest.fixture
async def database():
    async with own_postgres_database("homebase_notifier", pool_size=2) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        yield database


async def test_a_request_with_work_commits_without_notify_and_is_announced_after(database):
    listener = await Listener.on(database.url)
    sent: list[str] = []
    try:
        async with database.transaction() as connection:
            driver = (await connection.get_raw_connection()).driver_connection
            driver.add_query_logger(lambda record: sent.append(record.query))
            session = TenantSession(connection, "wrk_notifier")
            await session.insert(things, {"id": "t1", "n": 1})
            session.mark_work()
            assert listener.received.empty()
        for _ in range(3):  # asyncpg calls its query loggers soon after, not at once
            await asyncio.sleep(0)
        assert sent and not any("pg_notify" in query for query in sent), sent
        assert await listener.sender() == NOTIFIER_NAME
        assert await listener.count_after(0.2) == 0  # one commit, one notification
    finally:
        await listener.close()


async def test_a_burst_of_commits_is_one_or_two_notifications(database):
    notifier = Notifier(database.url, min_interval=0.2)
    listener = await Listener.on(database.url)
    try:
        for _ in range(50):
            notifier.notify()
            await asyncio.sleep(0)
        assert await listener.sender() == NOTIFIER_NAME
        assert await listener.count_after(0.5) <= 1
        assert 1 <= notifier.sent <= 2
        notifier.notify()  # after the burst, the next commit is announced again
        assert await listener.sender() == NOTIFIER_NAME
    finally:
        await notifier.close()
        await listener.close()


async def test_close_sends_a_notification_still_owed(database):
    notifier = Notifier(database.url)
    listener = await Listener.on(database.url)
    try:
        notifier.notify()
        await notifier.close()  # at once: the notification has not gone out yet
        assert notifier.sent == 1
        await asyncio.wait_for(listener.received.get(), 5)  # (its sender is gone now)
        notifier.notify()  # closed: nothing more
        assert await listener.count_after(0.2) == 0
    finally:
        await listener.close()


async def test_an_unreachable_server_costs_a_warning_and_the_next_commit_retries(caplog):
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    nowhere = f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/postgres"
    notifier = Notifier(nowhere)
    with caplog.at_level(logging.WARNING, logger="homebase.db"):
        notifier.notify()
        await notifier.close()
    assert notifier.sent == 0
    assert "work notification not sent" in caplog.text
