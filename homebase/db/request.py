"""A request's transaction without SQLAlchemy's connection and transaction objects,
unless something asks for them: on SQLite (below) and on PostgreSQL (db/postgres.py).

`engine.connect()` + `begin()` + commit + close cost greenlet switches, events and pool
bookkeeping per request; checking the pooled connection out with `raw_connection()` and
sending BEGIN / COMMIT to its driver (`driver_connection`, the Driver of db/sqlite.py)
costs a fraction of that (docs/performance.md, "Request connections"). The pool is the
engine's own, so requests and in-process workers still share its connection(s).

RequestConnection *is* an AsyncConnection, so everything that takes one keeps working:
the first use of SQLAlchemy's API on it (execute, run_sync, dialect-specific inserts in
a repository, a credential resolver) builds the sync Connection around the same pooled
connection and marks its transaction as begun (the BEGIN already went to the driver).
TenantSession and the API-key lookup run statements built once on the driver directly
(db/direct.py), which never needs it.

The transaction ends the same way either way: commit when the block ends normally,
rollback when it raises; a connection whose rollback failed is invalidated rather than
returned to the pool mid-transaction.

Between requests the connection stays checked out, parked (`Parking`), when nobody is
waiting for the pool: checking it out again goes through a new greenlet
(`AsyncEngine.raw_connection`), which over HTTP was most of a GET /v1/ping's difference
from a hello-world beyond the work itself (docs/performance.md, "Request connections").
Whoever else needs a pooled connection (Database.transaction) first hands parked
connections back, and a request never parks one while anybody waits. On PostgreSQL a
request parks in `ReservedParking` instead (below).
"""

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

import asyncpg
from sqlalchemy.engine import Connection, CursorResult, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.base import Executable

from homebase.db import postgres, unavailable
from homebase.db.direct import ReadOnlyRequest
from homebase.db.sqlite import Driver

BEGUN = "homebase_begun"  # execution option: the driver is already inside BEGIN


class RequestDriver(Protocol):
    """What RequestConnection needs of the driver under it (db/sqlite.py's Driver,
    db/postgres.py's PgDriver)."""

    @property
    def in_transaction(self) -> bool: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...


class Parking:
    """Pooled connections kept checked out between requests, and who waits for the pool.

    Everything in a process that takes a connection from the engine's pool goes through
    Database (request_transaction, transaction), which counts itself in `waiting` while
    it waits; `put` parks a connection only when that count is zero, so a parked
    connection never keeps anyone waiting."""

    def __init__(
        self, limit: int, on_return: Callable[[PoolProxiedConnection], None] | None = None
    ):
        self.limit = limit
        self.idle: list[PoolProxiedConnection] = []
        self.waiting = 0
        # Called before a connection goes back to the pool (PostgreSQL: autocommit off).
        self.on_return = on_return

    def restore(self, pooled: PoolProxiedConnection) -> None:
        if self.on_return is not None and pooled.is_valid:
            self.on_return(pooled)

    def take(self) -> PoolProxiedConnection | None:
        return self.idle.pop() if self.idle else None

    def put(self, pooled: PoolProxiedConnection) -> None:
        if self.waiting == 0 and len(self.idle) < self.limit and pooled.is_valid:
            self.idle.append(pooled)
        else:
            self.restore(pooled)
            pooled.close()  # back to the pool

    def release(self) -> None:
        while self.idle:
            pooled = self.idle.pop()
            self.restore(pooled)
            pooled.close()

    async def checkout(self, engine: AsyncEngine) -> PoolProxiedConnection:
        """A parked connection, else one from the pool; failing to get one is the
        database's unavailability (503, db/unavailable.py)."""
        pooled = self.take()
        if pooled is not None:
            return pooled
        self.waiting += 1
        try:
            return await engine.raw_connection()
        except Exception as error:
            # raw_connection raises the driver's own Error unwrapped (connect() wraps it).
            raise unavailable.on_connect_failure(
                error, engine.dialect.loaded_dbapi.Error
            ) from error
        finally:
            self.waiting -= 1

    def left(self) -> None:
        """A connection a request held went back to the pool without `put` (invalidated,
        or closed through SQLAlchemy's Connection): nothing to count here."""


class ReservedParking(Parking):
    """PostgreSQL: /v1 requests (reads and writes) keep up to `limit` of the pool's
    2 x limit connections and hand each one straight to the next request that waits for
    it; transactions (Database.transaction: the worker, commands) use the rest of the
    pool through SQLAlchemy.

    Handing a connection back to SQLAlchemy's pool and checking it out again costs two
    greenlet switches and the pool's bookkeeping a request: under load,
    with more requests in flight than connections, the SQLite rule of `Parking` (park
    only while nobody waits for the pool) sent most GETs through the pool. Here a
    request that finds no idle connection and the reserve full waits for the next `put`,
    at most `timeout` seconds (the pool timeout: then 503, as for the pool), and a
    transaction never takes a read request's connection, so none is released for it.

    `held` counts the reserve's slots: connections out of the pool, idle or in a request,
    plus checkouts under way. A slot whose connection went back to the pool (`left`)
    passes to the first waiter, who checks a new connection out for it."""

    def __init__(
        self,
        limit: int,
        on_return: Callable[[PoolProxiedConnection], None] | None,
        timeout: float,
    ):
        super().__init__(limit, on_return)
        self.timeout = timeout
        self.held = 0
        # Each waiter's future gets a parked connection, or None: a free slot.
        self.queue: deque[asyncio.Future[PoolProxiedConnection | None]] = deque()

    def _next_waiter(self) -> asyncio.Future[PoolProxiedConnection | None] | None:
        while self.queue:
            future = self.queue.popleft()
            if not future.done():
                return future
        return None

    def put(self, pooled: PoolProxiedConnection) -> None:
        if not pooled.is_valid:
            self.restore(pooled)
            pooled.close()
            self.left()
        elif (waiter := self._next_waiter()) is not None:
            waiter.set_result(pooled)
        else:
            self.idle.append(pooled)

    def left(self) -> None:
        if (waiter := self._next_waiter()) is not None:
            waiter.set_result(None)  # the slot passes on
        else:
            self.held -= 1

    def release(self) -> None:
        self.held -= len(self.idle)
        super().release()

    async def checkout(self, engine: AsyncEngine) -> PoolProxiedConnection:
        pooled = self.take()
        if pooled is not None:
            return pooled
        if self.held < self.limit:
            self.held += 1
        else:
            pooled = await self._wait()
            if pooled is not None:
                return pooled
            # A free slot was handed over: fill it from the pool.
        try:
            return await engine.raw_connection()
        except Exception as error:
            self.left()
            raise unavailable.on_connect_failure(
                error, engine.dialect.loaded_dbapi.Error
            ) from error
        except BaseException:
            self.left()
            raise

    async def _wait(self) -> PoolProxiedConnection | None:
        """The next `put`'s connection (None: a free slot), or DatabaseUnavailable after
        `timeout`. Under load most read requests wait here, so the deadline is a plain
        timer that fails the future: asyncio.timeout (its Timeout object and the task's
        cancel bookkeeping) showed in a GET /v1/ping's profile (docs/performance.md,
        "Request connections")."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[PoolProxiedConnection | None] = loop.create_future()
        self.queue.append(future)
        timer = loop.call_later(self.timeout, _expire, future)
        try:
            return await future
        except BaseException:
            if future.done() and not future.cancelled() and future.exception() is None:
                # Handed over just as this waiter was cancelled: pass it on.
                handed = future.result()
                self.put(handed) if handed is not None else self.left()
            raise
        finally:
            timer.cancel()


def _expire(future: asyncio.Future[PoolProxiedConnection | None]) -> None:
    """A waiter's deadline: `put` skips it from now on (_next_waiter)."""
    if not future.done():
        future.set_exception(unavailable.DatabaseUnavailable(unavailable.POOL_TIMEOUT))


class RequestConnection(AsyncConnection):
    """An AsyncConnection whose sync Connection is made on first use (`sync_connection`,
    which AsyncConnection reads for every operation), around the pooled connection the
    request already holds, its transaction marked as begun."""

    __slots__ = (
        "homebase_pooled",
        "homebase_driver",
        "homebase_sync",
        "homebase_parking",
        "homebase_writes",
    )

    def __init__(
        self,
        engine: AsyncEngine,
        pooled: PoolProxiedConnection,
        driver: RequestDriver,
        parking: Parking,
        writes: bool,
    ):
        self.homebase_pooled = pooled
        self.homebase_driver = driver
        self.homebase_sync: Connection | None = None
        self.homebase_parking = parking
        self.homebase_writes = writes
        super().__init__(engine)

    async def execute(
        self, statement: Executable, parameters: Any = None, *, execution_options: Any = None
    ) -> CursorResult[*tuple[Any, ...]]:
        if not self.homebase_writes and getattr(statement, "is_dml", False):
            raise ReadOnlyRequest(f"a read request may not run {type(statement).__name__}")
        await self._before_sqlalchemy()
        return await super().execute(statement, parameters, execution_options=execution_options)

    async def exec_driver_sql(
        self, statement: str, parameters: Any = None, execution_options: Any = None
    ) -> CursorResult[*tuple[Any, ...]]:
        await self._before_sqlalchemy()
        return await super().exec_driver_sql(statement, parameters, execution_options)

    async def stream(  # type: ignore[override]  # (its overloads; the same signature)
        self, statement: Executable, parameters: Any = None, *, execution_options: Any = None
    ) -> Any:
        await self._before_sqlalchemy()
        return await super().stream(statement, parameters, execution_options=execution_options)

    async def run_sync(self, fn: Any, *arg: Any, **kw: Any) -> Any:
        await self._before_sqlalchemy()
        return await super().run_sync(fn, *arg, **kw)

    async def _before_sqlalchemy(self) -> None:
        """PostgreSQL write request: SQLAlchemy's statements run inside the transaction,
        after the writes waiting in the batch (db/batch.py)."""
        driver = self.homebase_driver
        if isinstance(driver, postgres.PgDriver) and driver.writes:
            await driver.flush()
            await driver.ensure_transaction()

    @property
    def sync_connection(self) -> Connection:
        if self.homebase_sync is None:
            sync = Connection(self.sync_engine, connection=self.homebase_pooled)
            sync.execution_options(**{BEGUN: True})
            sync.begin()  # no I/O: the begin listener skips BEGIN, do_begin is a no-op
            self.homebase_sync = sync
        return self.homebase_sync

    @sync_connection.setter
    def sync_connection(self, value: Connection | None) -> None:
        # AsyncConnection.__init__ assigns None (not started); nothing else assigns it.
        if value is not None:
            self.homebase_sync = value

    @property
    def dialect(self) -> Dialect:
        return self.sync_engine.dialect

    @dialect.setter
    def dialect(self, value: Dialect) -> None:  # as AsyncConnection's (nothing sets it)
        self.sync_connection.dialect = value

    async def finish(self, commit: bool) -> None:
        driver, sync = self.homebase_driver, self.homebase_sync
        try:
            try:
                if sync is not None and sync.in_transaction():
                    await (self.commit() if commit else self.rollback())
                if driver.in_transaction:
                    await (driver.commit() if commit else driver.rollback())
            except BaseException:
                await self._rollback_or_invalidate()
                if commit:
                    raise
                # A failed rollback: the connection is invalidated (or marked lost) and
                # the request's own error, which the caller re-raises, is the answer.
        finally:
            pooled, lost = self.homebase_pooled, getattr(driver, "lost", False)
            if lost:
                pooled.invalidate(soft=True)  # replaced at its next checkout
            if sync is not None:
                self.homebase_parking.restore(pooled)
                try:
                    await self.close()
                finally:
                    self.homebase_parking.left()
            elif lost:
                pooled.close()
                self.homebase_parking.left()
            else:
                self.homebase_parking.put(pooled)

    async def _rollback_or_invalidate(self) -> None:
        try:
            if self.homebase_sync is not None and self.homebase_sync.in_transaction():
                await self.rollback()
            if self.homebase_driver.in_transaction:
                await self.homebase_driver.rollback()
        except BaseException:
            if isinstance(self.homebase_driver, postgres.PgDriver):
                self.homebase_driver.lost = True  # closed in SQLAlchemy's greenlet later
            else:
                self.homebase_pooled.invalidate()


@asynccontextmanager
async def sqlite_request(
    engine: AsyncEngine, parking: Parking, *, write: bool
) -> AsyncIterator[RequestConnection]:
    """Commit when the block ends normally, roll back when it raises."""
    pooled = await parking.checkout(engine)
    driver = pooled.driver_connection
    if not isinstance(driver, Driver):
        pooled.close()
        raise RuntimeError("sqlite_request needs the driver of db/sqlite.py")
    try:
        await driver.begin("IMMEDIATE" if write else "DEFERRED")
    except BaseException:
        pooled.close()
        raise
    connection = RequestConnection(engine, pooled, driver, parking, write)
    try:
        yield connection
    except BaseException:
        await connection.finish(commit=False)
        raise
    await connection.finish(commit=True)


def autocommit_off(pooled: PoolProxiedConnection) -> None:
    """Parking.on_return on PostgreSQL: the pool's connections keep the adapter's own
    transaction handling; only a request's connection runs in autocommit."""
    adapter = pooled.dbapi_connection
    if adapter is not None:  # (restore() passes valid connections only)
        adapter.autocommit = False


def _closed(pooled: PoolProxiedConnection) -> bool:
    asyncpg_connection = pooled.driver_connection
    return asyncpg_connection is None or bool(asyncpg_connection.is_closed())


@asynccontextmanager
async def postgres_request(
    engine: AsyncEngine, parking: Parking, *, direct: bool, write: bool = False
) -> AsyncIterator[RequestConnection]:
    """A request's connection (db/postgres.py): a read's without a transaction; a
    write's in one, committed when the block ends normally, rolled back when it raises."""
    pooled = await parking.checkout(engine)
    if _closed(pooled):
        # Closed while it waited (a server restart, an idle timeout): asyncpg saw the
        # socket end. Replace it now rather than answer 503 for it.
        pooled.invalidate(soft=True)
        pooled.close()
        parking.left()
        pooled = await parking.checkout(engine)
    adapter, asyncpg_connection = pooled.dbapi_connection, pooled.driver_connection
    if adapter is None or asyncpg_connection is None:  # never: it was just checked out
        pooled.close()
        parking.left()
        raise RuntimeError("a pooled connection without its driver connection")
    # The adapter then sends no BEGIN of its own (a DBAPI connection's `autocommit`).
    adapter.autocommit = True
    driver = postgres.PgDriver(asyncpg_connection, direct=direct, writes=write)
    # A write's BEGIN waits for its first statement that writes (PgDriver).
    connection = RequestConnection(engine, pooled, driver, parking, write)
    try:
        yield connection
    except BaseException as error:
        if isinstance(error, DBAPIError | asyncpg.PostgresError | asyncpg.InterfaceError):
            driver.lost = True  # the database's error, by either path: see PgDriver.failed
        await connection.finish(commit=False)
        raise
    await connection.finish(commit=True)
