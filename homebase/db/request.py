"""A request's transaction on SQLite without SQLAlchemy's connection and transaction
objects, unless something asks for them.

`engine.connect()` + `begin()` + commit + close cost ~160 µs of CPU per request (greenlet
switches, events, pool bookkeeping); checking the pooled connection out with
`raw_connection()` and sending BEGIN / COMMIT to its driver (`driver_connection`, the
Driver of db/sqlite.py) costs ~25 µs. The pool is
the engine's own, so requests and in-process workers still share its connection(s).

RequestConnection *is* an AsyncConnection, so everything that takes one keeps working:
the first use of SQLAlchemy's API on it (execute, run_sync, dialect-specific inserts in
a repository, a credential resolver) builds the sync Connection around the same pooled
connection and marks its transaction as begun (the BEGIN already went to the driver).
TenantSession and the API-key lookup run their statements on the driver directly
(db/direct.py), which never needs it.

The transaction ends the same way either way: commit when the block ends normally,
rollback when it raises; a connection whose rollback failed is invalidated rather than
returned to the pool mid-transaction.

Between requests the connection stays checked out, parked (`Parking`), when nobody is
waiting for the pool: checking it out again goes through a new greenlet
(`AsyncEngine.raw_connection`), which over HTTP cost ~40 µs a request, most of a
GET /v1/ping's difference from a hello-world beyond the work itself
(docs/performance.md). Whoever else needs a pooled connection (Database.transaction)
first hands parked connections back, and a request never parks one while anybody waits.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from homebase.db import unavailable
from homebase.db.sqlite import Driver

BEGUN = "homebase_begun"  # execution option: the driver is already inside BEGIN


class Parking:
    """Pooled connections kept checked out between requests, and who waits for the pool.

    Everything in a process that takes a connection from the engine's pool goes through
    Database (request_transaction, transaction), which counts itself in `waiting` while
    it waits; `put` parks a connection only when that count is zero, so a parked
    connection never keeps anyone waiting."""

    def __init__(self, limit: int):
        self.limit = limit
        self.idle: list = []
        self.waiting = 0

    def take(self):
        return self.idle.pop() if self.idle else None

    def put(self, pooled) -> None:
        if self.waiting == 0 and len(self.idle) < self.limit and pooled.is_valid:
            self.idle.append(pooled)
        else:
            pooled.close()  # back to the pool (no reset on return)

    def release(self) -> None:
        while self.idle:
            self.idle.pop().close()

    async def checkout(self, engine: AsyncEngine):
        pooled = self.take()
        if pooled is not None:
            return pooled
        self.waiting += 1
        try:
            return await engine.raw_connection()
        finally:
            self.waiting -= 1


class RequestConnection(AsyncConnection):
    """An AsyncConnection whose sync Connection is made on first use (`sync_connection`,
    which AsyncConnection reads for every operation), around the pooled connection the
    request already holds, its transaction marked as begun."""

    __slots__ = ("homebase_pooled", "homebase_driver", "homebase_sync", "homebase_parking")

    def __init__(self, engine: AsyncEngine, pooled, driver: Driver, parking: Parking):
        self.homebase_pooled = pooled
        self.homebase_driver = driver
        self.homebase_sync: Connection | None = None
        self.homebase_parking = parking
        super().__init__(engine)

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
    def dialect(self):
        return self.sync_engine.dialect

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
                raise
        finally:
            if sync is None:
                self.homebase_parking.put(self.homebase_pooled)
            else:
                await self.close()

    async def _rollback_or_invalidate(self) -> None:
        try:
            if self.homebase_sync is not None and self.homebase_sync.in_transaction():
                await self.rollback()
            if self.homebase_driver.in_transaction:
                await self.homebase_driver.rollback()
        except BaseException:
            self.homebase_pooled.invalidate()


@asynccontextmanager
async def sqlite_request(
    engine: AsyncEngine, parking: Parking, *, write: bool
) -> AsyncIterator[RequestConnection]:
    """Commit when the block ends normally, roll back when it raises."""
    try:
        pooled = await parking.checkout(engine)
    except Exception as error:
        raise unavailable.on_connect_failure(error) from error
    driver = pooled.driver_connection
    if not isinstance(driver, Driver):
        pooled.close()
        raise RuntimeError("sqlite_request needs the driver of db/sqlite.py")
    try:
        await driver.begin("IMMEDIATE" if write else "DEFERRED")
    except BaseException:
        pooled.close()
        raise
    connection = RequestConnection(engine, pooled, driver, parking)
    try:
        yield connection
    except BaseException:
        await connection.finish(commit=False)
        raise
    await connection.finish(commit=True)
