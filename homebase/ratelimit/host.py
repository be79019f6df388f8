"""The limiter of `homebase serve --workers N` (N > 1) without Redis: one SQLite file that
every server process on the host counts in, so the processes share one limit per key as
the spec requires ("the limiter is shared across all server instances"). Without it each
process would count alone and a key could make N times its limit.

Same fixed one-minute windows as MemoryLimiter, on the host's clock. Each hit is one
atomic UPSERT ... RETURNING in autocommit, run on this process's one limiter thread (never
on the event loop). Counts need no durability: synchronous=OFF, WAL. If the file fails,
the process counts in memory (as with Redis down) and logs a warning.
"""

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from homebase.ratelimit.limiter import WINDOW_SECONDS, Counter, Decision, MemoryLimiter, decide

log = logging.getLogger("homebase.ratelimit")

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS windows (bucket TEXT NOT NULL, window INTEGER NOT NULL,"
    " count INTEGER NOT NULL, PRIMARY KEY (bucket, window)) WITHOUT ROWID"
)
_HIT = (
    "INSERT INTO windows (bucket, window, count) VALUES (?, ?, 1) "
    "ON CONFLICT (bucket, window) DO UPDATE SET count = count + 1 RETURNING count"
)
_PEEK = "SELECT count FROM windows WHERE bucket = ? AND window = ?"
_SWEEP = "DELETE FROM windows WHERE window < ?"


def _connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA synchronous=OFF")
    return connection


def prepare(path: str | Path) -> str:
    """Creates the file (WAL, the table) once, before the server processes start, so they
    never race to set it up. Returns the absolute path they are given."""
    path = Path(path).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = _connect(str(path))
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(_SCHEMA)
    finally:
        connection.close()
    return str(path)


class HostLimiter:
    def __init__(self, path: str, clock: Callable[[], float] = time.time):
        self.path = path
        self.clock = clock
        self.fallback = MemoryLimiter(clock)
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="homebase-ratelimit")
        self._connection: sqlite3.Connection | None = None
        self._swept: int | None = None  # the window whose older rows were last deleted

    def _count(self, bucket: str, window: int) -> int:
        connection = self._connected()
        if self._swept != window:
            connection.execute(_SWEEP, (window,))
            self._swept = window
        count: int
        (count,) = connection.execute(_HIT, (bucket, window)).fetchone()
        return count

    def _peek(self, bucket: str, window: int) -> int:
        row = self._connected().execute(_PEEK, (bucket, window)).fetchone()
        return (row[0] if row else 0) + 1  # what a hit would count

    def _connected(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = _connect(self.path)
            self._connection.execute(_SCHEMA)
        return self._connection

    async def hit(self, bucket: str, limit: int) -> Decision:
        return await self._run(self._count, bucket, limit, self.fallback.hit)

    async def peek(self, bucket: str, limit: int) -> Decision:
        return await self._run(self._peek, bucket, limit, self.fallback.peek)

    async def _run(
        self, count_in_file: Callable[[str, int], int], bucket: str, limit: int, fallback: Counter
    ) -> Decision:
        now = self.clock()
        window = int(now // WINDOW_SECONDS)
        try:
            count = await asyncio.get_running_loop().run_in_executor(
                self._executor, count_in_file, bucket, window
            )
        except sqlite3.Error as error:
            log.warning("rate limiter: %s failed (%s); counting in this process", self.path, error)
            return await fallback(bucket, limit)
        return decide(count, limit, (window + 1) * WINDOW_SECONDS, now)

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._executor, self._close)
        self._executor.shutdown(wait=False)
