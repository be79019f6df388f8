"""The PostgreSQL work NOTIFY, sent after commit from a connection of its own.

A NOTIFY inside a transaction holds the notification queue lock through its COMMIT's WAL
flush (async.c, PreCommit_Notify): under load, announcing writes committed one at a time.
So Database calls `notify` after the commit (db/work.py), and it sends `pg_notify` on its
own connection (`synchronous_commit` off), at most every MIN_INTERVAL_SECONDS. One lost
(the process dying, the connection down: it reconnects next time) is found by the worker's
poll. `close()` sends one still owed, so a short-lived command's work is announced.
"""

import asyncio
import logging
import time

import asyncpg
from sqlalchemy.engine import make_url

from homebase.db.work import CHANNEL

log = logging.getLogger("homebase.db")
NOTIFIER_NAME = "homebase work notifier"  # application_name, in pg_stat_activity
MIN_INTERVAL_SECONDS = 0.005
CONNECT_TIMEOUT_SECONDS = 5.0
CLOSE_TIMEOUT_SECONDS = 2.0


def asyncpg_dsn(database_url: str) -> str:
    """The SQLAlchemy URL as a DSN asyncpg takes (no driver suffix)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


class Notifier:
    """`notify()` (no I/O, safe to call from any code on the event loop) asks for one
    NOTIFY; a task sends it, coalescing the calls that arrive while it does."""

    def __init__(self, database_url: str, *, min_interval: float = MIN_INTERVAL_SECONDS):
        self._dsn = asyncpg_dsn(database_url)
        self._min_interval = min_interval
        self._owed = False  # a commit asked for a notification not yet sent
        self._task: asyncio.Task[None] | None = None
        self._connection: asyncpg.Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.sent = 0  # notifications sent

    def notify(self) -> None:
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # another event loop (tests, commands): start afresh
            self._loop, self._task, self._connection = loop, None, None
        self._owed = True
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        last = 0.0
        while self._owed and not self._closed:
            pause = last + self._min_interval - time.monotonic()
            if pause > 0:
                await asyncio.sleep(pause)
            self._owed = False
            last = time.monotonic()
            await self._send()

    async def _send(self) -> None:
        try:
            if self._connection is None or self._connection.is_closed():
                settings = {"application_name": NOTIFIER_NAME, "synchronous_commit": "off"}
                self._connection = await asyncpg.connect(
                    self._dsn,
                    timeout=CONNECT_TIMEOUT_SECONDS,
                    statement_cache_size=0,
                    server_settings=settings,
                )
            await self._connection.execute("SELECT pg_notify($1, '')", CHANNEL)
            self.sent += 1
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
            # The work is committed; the workers' poll finds it.
            log.warning("work notification not sent (%s); the worker's poll finds the work", error)
            connection, self._connection = self._connection, None
            if connection is not None and not connection.is_closed():
                connection.terminate()

    async def close(self) -> None:
        """Send a notification still owed (within CLOSE_TIMEOUT_SECONDS), then close."""
        task = self._task
        if self._loop is not asyncio.get_running_loop():
            task, self._connection = None, None  # bound to a loop that is gone
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), CLOSE_TIMEOUT_SECONDS)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
        self._closed = True
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            try:
                await asyncio.wait_for(connection.close(), CLOSE_TIMEOUT_SECONDS)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                connection.terminate()
