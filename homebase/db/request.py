"""A request's transaction on SQLite without SQLAlchemy's connection and transaction
objects, unless something asks for them.

`engine.connect()` + `begin()` + commit + close cost ~160 µs of CPU per request (greenlet
switches, events, pool bookkeeping); checking the pooled connection out with
`raw_connection()` and sending BEGIN / COMMIT to the driver costs ~25 µs. The pool is
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
from sqlalchemy.util import greenlet_spawn

from homebase.db import unavailable
from homebase.db.sqlite import InlineConnection

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

    def put(self, fairy) -> None:
        if self.waiting == 0 and len(self.idle) < self.limit and fairy.is_valid:
            self.idle.append(fairy)
        else:
            fairy.close()  # back to the pool (no reset on return)

    def release(self) -> None:
        while self.idle:
            self.idle.pop().close()

    async def checkout(self, engine: AsyncEngine):
        fairy = self.take()
        if fairy is not None:
            return fairy
        self.waiting += 1
        try:
            return await engine.raw_connection()
        finally:
            self.waiting -= 1


class RequestConnection(AsyncConnection):
    __slots__ = ("_fairy", "homebase_driver", "_sync", "_parking")

    def __init__(self, engine: AsyncEngine, fairy, driver: InlineConnection, parking: Parking):
        self._fairy = fairy
        self.homebase_driver = driver
        self._sync: Connection | None = None
        self._parking = parking
        super().__init__(engine)

    # AsyncConnection keeps its sync Connection in `sync_connection`; here it is made on
    # first use. The base class assigns None in __init__ (not started).
    @property
    def sync_connection(self) -> Connection | None:
        return self._sync

    @sync_connection.setter
    def sync_connection(self, value: Connection | None) -> None:
        self._sync = value

    @property
    def _proxied(self) -> Connection:
        if self._sync is None:
            sync = Connection(self.sync_engine, connection=self._fairy)
            sync.execution_options(**{BEGUN: True})
            sync.begin()  # no I/O: the begin listener skips BEGIN, do_begin is a no-op
            self._sync = self._assign_proxied(sync)
        return self._sync

    @property
    def dialect(self):
        return self.sync_engine.dialect

    async def finish(self, commit: bool) -> None:
        driver, sync = self.homebase_driver, self._sync
        try:
            try:
                if sync is not None:
                    await greenlet_spawn(_end_sync, sync, commit)
                if driver._conn is not None and driver._conn.in_transaction:
                    await (driver.commit() if commit else driver.rollback())
            except BaseException:
                await self._rollback_or_invalidate()
                raise
        finally:
            if sync is None:
                self._parking.put(self._fairy)
            else:
                await greenlet_spawn(sync.close)

    async def _rollback_or_invalidate(self) -> None:
        try:
            if self._sync is not None and self._sync.in_transaction():
                await greenlet_spawn(self._sync.rollback)
            if self.homebase_driver._conn is not None \
                    and self.homebase_driver._conn.in_transaction:
                await self.homebase_driver.rollback()
        except BaseException:
            self._fairy.invalidate()


def _end_sync(sync: Connection, commit: bool) -> None:
    transaction = sync.get_transaction()
    if transaction is not None and transaction.is_active:
        transaction.commit() if commit else transaction.rollback()


@asynccontextmanager
async def sqlite_request(engine: AsyncEngine, parking: Parking, *, write: bool
                         ) -> AsyncIterator[RequestConnection]:
    """Commit when the block ends normally, roll back when it raises."""
    try:
        fairy = await parking.checkout(engine)
    except Exception as error:
        raise unavailable.on_connect_failure(error) from error
    driver = getattr(fairy.dbapi_connection, "_connection", None)
    if not isinstance(driver, InlineConnection):
        fairy.close()
        raise RuntimeError("sqlite_request needs the inline aiosqlite driver (db/sqlite.py)")
    try:
        await driver.begin("IMMEDIATE" if write else "DEFERRED")
    except BaseException:
        fairy.close()
        raise
    connection = RequestConnection(engine, fairy, driver, parking)
    try:
        yield connection
    except BaseException:
        await connection.finish(commit=False)
        raise
    await connection.finish(commit=True)
