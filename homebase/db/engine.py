"""Database: the engines, and the one way to a connection, `transaction(write=...)`: a
SQLAlchemy AsyncConnection for the block, the pool's or kept by an earlier block.

- `write=True`: one transaction (`driver.begin`), committed when the block ends, rolled
  back when it raises; on SQLite IMMEDIATE, this process's writers taking `writing` in turn.
- `write=False`: AUTOCOMMIT (READ COMMITTED gives each statement its snapshot anyway) on
  an engine and pool of its own (`reader`), where TenantSession refuses to write.

Work marked in a transaction (db/work.py) is announced after it commits (`on_work`).
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext import asyncio as sqlalchemy_asyncio
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import ConnectionPoolEntry

from homebase.db import checkpoint, driver, settle, sqlite, unavailable, work
from homebase.db.notifier import Notifier
from homebase.kit import json_columns

SQLITE_BUSY_TIMEOUT_MS = 30_000
AUTOCOMMIT = "AUTOCOMMIT"
READ_ONLY = "homebase_read_only"  # execution option of the reader's connections
log = logging.getLogger("homebase.db")


def _configure_sqlite(engine: AsyncEngine, *, writes: bool) -> None:
    """SQLite's settings on every new connection; the writer's BEGIN IMMEDIATE (do_begin)."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        record.info[sqlite.BEGIN_IMMEDIATE] = writes
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA wal_autocheckpoint={checkpoint.SAFETY_NET_PAGES}")
        cursor.close()


def sqlite_url(url: str) -> URL:
    """`url` on the driver of db/sqlite.py, whichever SQLite driver it names."""
    return make_url(url).set(drivername=sqlite.DRIVER_NAME)


def _create_engine(url: str | URL, **options: Any) -> AsyncEngine:
    # Looked up on the module at each call: tracing's SQLAlchemy instrumentation replaces
    # it, so later engines span their statements (tracing/setup.py).
    return sqlalchemy_asyncio.create_async_engine(url, **options)


def _options(pool_size: int, pool_timeout: float, connect_args: dict[str, Any]) -> dict[str, Any]:
    """Both engines'. No pre-ping: a dead connection fails its next statement (503)."""
    json = {"json_deserializer": json_columns.loads, "json_serializer": json_columns.dumps}
    pool = {"pool_size": pool_size, "max_overflow": 0, "pool_timeout": pool_timeout}
    return {**json, **pool, "connect_args": connect_args}


def _postgres_connect_args(
    connect_timeout: float | None, statement_timeout: float | None
) -> dict[str, Any]:
    connect_args: dict[str, Any] = {} if connect_timeout is None else {"timeout": connect_timeout}
    if statement_timeout is not None:
        milliseconds = max(1, round(statement_timeout * 1000))
        connect_args["server_settings"] = {"statement_timeout": str(milliseconds)}
    return connect_args


class Database:
    def __init__(
        self,
        url: str,
        *,
        sqlite_pool_size: int = 4,
        pool_size: int = 20,
        pool_timeout: float = 30,
        connect_timeout: float | None = None,
        statement_timeout: float | None = None,
        write_timeout: float | None = None,
    ):
        """Bounds past which a block fails with 503 (None: none), `write_timeout`: a write
        older at its end rolls back (db/settle.py). Each engine pools `pool_size`."""
        self.url, self.write_timeout, self.is_sqlite = url, write_timeout, url.startswith("sqlite")
        self.checkpointer: checkpoint.Checkpointer | None = None
        self.writing = asyncio.Lock()  # SQLite write transactions, one at a time
        self.on_work: list[Callable[[], None]] = []  # the Wakeup, the notifier (db/work.py)
        # The pool metrics: once disposed (may run twice); a connection kept -1, taken +1.
        self.on_dispose: list[Callable[[], None]] = []
        self.on_idle: Callable[[int], None] = lambda change: None
        self._idle: dict[bool, list[AsyncConnection]] = {True: [], False: []}  # by write
        self._disposed = False
        self.notifier: Notifier | None = None
        if self.is_sqlite:
            path = make_url(url).database
            if path and path != ":memory:" and not path.startswith("file:"):
                self.checkpointer = checkpoint.Checkpointer(path)
            target: str | URL = sqlite_url(url)
            options = _options(sqlite_pool_size, 60, {"busy_timeout_ms": SQLITE_BUSY_TIMEOUT_MS})
        else:
            self.notifier = Notifier(url)  # other processes' workers (db/notifier.py)
            self.on_work.append(self.notifier.notify)
            target = url
            options = _options(
                pool_size, pool_timeout, _postgres_connect_args(connect_timeout, statement_timeout)
            )
        # PostgreSQL: a write's transaction is asyncpg's (`driver.begin`), nothing to reset
        own = {"isolation_level": AUTOCOMMIT, "pool_reset_on_return": None}
        self.engine = _create_engine(target, **options, **({} if self.is_sqlite else own))
        self.reader = self._reader(target, options)
        shared = self.reader.sync_engine.pool is self.engine.sync_engine.pool
        if self.is_sqlite:
            _configure_sqlite(self.engine, writes=True)
            if not shared:
                _configure_sqlite(self.reader, writes=False)
        # Connections the pools hold at most (metrics/pool.py); as many blocks of a kind
        # hold one at once (`_turn`), so SQLAlchemy's pool never has waiters.
        self.pool_capacity = options["pool_size"] * (1 if shared else 2)
        self._turns = {kind: asyncio.Semaphore(options["pool_size"]) for kind in (True, False)}
        self._pool_timeout: float = options["pool_timeout"]
        self.engines = (self.engine,) if shared else (self.engine, self.reader)
        for each in self.engines:  # a statement that breaks its connection invalidates it
            event.listen(each.sync_engine, "handle_error", unavailable.on_statement_error)

    def _reader(self, target: str | URL, options: dict[str, Any]) -> AsyncEngine:
        if self.is_sqlite and sqlite.is_memory(make_url(target)):  # one database, one connection
            return self.engine.execution_options(isolation_level=AUTOCOMMIT, **{READ_ONLY: True})
        return _create_engine(  # nothing to reset when a read's connection comes back
            target, isolation_level=AUTOCOMMIT, pool_reset_on_return=None, **options
        ).execution_options(**{READ_ONLY: True})

    @asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[AsyncConnection]:
        """A connection for the block (see above), `write` in one transaction; work marked
        in it (db/work.py) is announced after the commit."""
        if self.checkpointer is not None:
            self.checkpointer.ensure_running()
        async with self.writing if write and self.is_sqlite else nullcontext(), self._turn(write):
            if idle := self._idle[write]:  # kept by an earlier transaction (_give_back)
                self.on_idle(+1)
                connection = idle.pop()
            else:
                try:
                    connection = await (self.engine if write else self.reader).connect().start()
                except Exception as error:
                    raise unavailable.on_connect_failure(error) from error
            pending, token = work.track(connection)
            clean = True
            try:
                if write:
                    async with connection.begin() if self.is_sqlite else driver.begin(connection):
                        started = time.monotonic()
                        yield connection
                        if (
                            self.write_timeout is not None
                            and time.monotonic() - started > self.write_timeout
                        ):
                            raise settle.WriteTimedOut()  # rolls back: nothing is committed
                else:
                    yield connection
            except BaseException as error:
                clean = isinstance(error, Exception)  # cancelled: maybe cut mid-statement
                raise
            finally:
                work.untrack(token)
                await self._give_back(connection, write, clean)
        if pending.marked:
            self.announce()

    @asynccontextmanager
    async def _turn(self, write: bool) -> AsyncIterator[None]:
        """One of a kind's pool_size turns; a wait past the pool timeout answers 503."""
        turns = self._turns[write]
        try:
            async with asyncio.timeout(self._pool_timeout if turns.locked() else None):
                await turns.acquire()
        except TimeoutError:
            raise unavailable.DatabaseUnavailable(unavailable.POOL_TIMEOUT) from None
        try:
            yield
        finally:
            turns.release()

    async def _give_back(self, connection: AsyncConnection, write: bool, clean: bool) -> None:
        """Keeps a clean block's valid connection for the next block of its kind (with its
        turn); any other goes to the pool, an invalidated one with the kept ones."""
        broken, closed = connection.invalidated, self._disposed or connection.closed
        left_open = self.is_sqlite and write and connection.in_transaction()  # (else a marker)
        if write and not self.is_sqlite and driver.spent(connection):  # closed or cut short
            await connection.invalidate()
        elif clean and not (broken or closed or left_open):
            self._idle[write].append(connection)
            return self.on_idle(-1)
        await connection.close()
        if broken:
            await self._close_idle()

    async def _close_idle(self) -> None:
        while idle := self._idle[True] or self._idle[False]:
            self.on_idle(+1)
            await idle.pop().close()

    def announce(self) -> None:
        """Work committed: wake whoever waits for it in this process."""
        for callback in self.on_work:
            try:
                callback()
            except Exception:  # the commit stands; the worker's poll still finds the work
                log.exception("announcing committed work failed")

    async def dispose(self) -> None:
        self._disposed = True
        await self._close_idle()
        if self.notifier is not None:
            await self.notifier.close()
        if self.checkpointer is not None:
            await self.checkpointer.stop()
        for engine in self.engines:
            await engine.dispose()
        for callback in self.on_dispose:
            callback()
