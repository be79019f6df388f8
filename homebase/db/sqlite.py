"""aiosqlite without the thread hop where no hop is needed.

aiosqlite runs every call (cursor, execute, fetchall, close, commit ...) on its own
thread and wakes the event loop for each result: 60-180 µs apiece, several per
statement through SQLAlchemy, which made the hops most of a request's cost
(docs/performance.md). A statement on a local SQLite file in WAL mode takes a few
microseconds, so this connection runs calls inline on the event loop's thread, with
SQLite's busy timeout at 0 so an inline call can never wait for a lock. The one thing
that waits is another writer's lock (BEGIN IMMEDIATE while another process writes, or
a read that meets WAL recovery): SQLite answers SQLITE_BUSY at once, the statement has
had no effect, and the same call is re-run on aiosqlite's thread with the full busy
timeout, exactly as before. Calls also go to the thread while earlier ones are still
queued there, so a connection's calls always run one at a time and in order.

Statements that are slow by themselves (a search scanning a whole workspace) now run
on the loop thread. With one pooled connection per process (the SQLite default here)
every /v1 request waits for that connection anyway, so this changes little for them.
"""

import sqlite3
from typing import Any

import aiosqlite

SQLITE_BUSY = 5


def _is_busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == SQLITE_BUSY
    return "locked" in str(error) or "busy" in str(error)


class InlineConnection(aiosqlite.Connection):
    def __init__(self, connector, iter_chunk_size: int, busy_timeout_ms: int):
        super().__init__(connector, iter_chunk_size)
        self._thread.daemon = True
        self._busy_timeout_ms = busy_timeout_ms
        # Written by one thread each, so `queued > finished` needs no lock.
        self._queued = 0
        self._finished = 0

    async def _execute(self, fn, *args, **kwargs):
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        if self._queued == self._finished:
            try:
                return fn(*args, **kwargs)
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
        self._queued += 1
        return await super()._execute(self._waiting, fn, args, kwargs)

    async def begin(self, mode: str) -> None:
        await self._execute(self._begin, mode)

    def _begin(self, mode: str) -> None:
        self._conn.execute(f"BEGIN {mode}").close()

    def _waiting(self, fn, args, kwargs) -> Any:
        """On aiosqlite's thread: the call, allowed to wait for locks."""
        try:
            connection = self._conn
            connection.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")
            try:
                return fn(*args, **kwargs)
            finally:
                connection.execute("PRAGMA busy_timeout=0")
        finally:
            self._finished += 1


def connect(database: str, *, busy_timeout_ms: int, iter_chunk_size: int = 64,
            **kwargs: Any) -> InlineConnection:
    """Like aiosqlite.connect; the sqlite3 connection may be used from the loop thread."""
    kwargs["check_same_thread"] = False
    kwargs["timeout"] = 0  # the busy timeout: inline calls never wait (see _waiting)

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(database, **kwargs)

    return InlineConnection(connector, iter_chunk_size, busy_timeout_ms)
