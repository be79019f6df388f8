"""Database: the engine, and the one place a transaction is opened (`transaction`; a /v1
request's `request_transaction`, db/request.py) and its background work announced."""

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext import asyncio as sqlalchemy_asyncio
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from homebase.db import checkpoint, request, sqlite, unavailable, work
from homebase.db.notifier import Notifier

SQLITE_BUSY_TIMEOUT_MS = 30_000
log = logging.getLogger("homebase.db")


def _configure_sqlite(engine: AsyncEngine) -> None:
    """Take BEGIN away from the driver so write transactions can BEGIN IMMEDIATE.

    A deferred transaction that later writes fails with SQLITE_BUSY when another
    process committed in between; IMMEDIATE takes the write lock up front and waits
    (busy_timeout) instead. This is the recipe in SQLAlchemy's SQLite dialect docs; the
    driver (db/sqlite.py) connects with sqlite3's own transaction handling off.
    """

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: DBAPIConnection, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA wal_autocheckpoint={checkpoint.SAFETY_NET_PAGES}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if options.get(request.BEGUN):  # a request's connection: BEGIN was sent already
            return
        mode = options.get("sqlite_begin", "DEFERRED")
        # Straight to the driver (inline, or on its thread if it must wait for a lock):
        # exec_driver_sql's cursor and execution context cost more than BEGIN itself.
        # run_async is SQLAlchemy's way to await the driver from a sync event.
        adapter = connection.connection.dbapi_connection
        if adapter is None:  # not while a transaction begins: `connection` revalidates
            raise RuntimeError("BEGIN on a closed pooled connection")
        adapter.run_async(lambda driver: driver.begin(mode))


def sqlite_url(url: str) -> URL:
    """`url` on the driver of db/sqlite.py, whichever SQLite driver it names."""
    return make_url(url).set(drivername=sqlite.DRIVER_NAME)


def _json_loads(text: str | bytes) -> Any:
    """orjson for JSON columns (several times faster); json for what it refuses
    (NaN, integers beyond 64 bits), so every stored value reads back as before."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _json_dumps(value: Any) -> str:
    """orjson for JSON columns (stdlib json showed in a lead's profile:
    docs/performance.md, "Row reading and writing"); json for what orjson refuses
    (integers beyond 64 bits, ...). The text is compact, the value read back the same."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value)


def _create_engine(url: str | URL, **options: Any) -> AsyncEngine:
    # Looked up on the module at each call, not imported once: with tracing on, the
    # SQLAlchemy instrumentation replaces the module's function so that every engine made
    # afterwards spans its statements (tracing/setup.py).
    return sqlalchemy_asyncio.create_async_engine(url, **options)


class Database:
    def __init__(
        self,
        url: str,
        *,
        sqlite_pool_size: int = 4,
        pool_size: int = 10,
        pool_timeout: float = 30,
        connect_timeout: float | None = None,
        statement_timeout: float | None = None,
        sqlite_direct: bool = True,
        postgres_direct: bool = True,
    ):
        """PostgreSQL bounds (None: none): `statement_timeout` is the server's
        statement_timeout for every statement of every connection, `pool_timeout` the
        longest wait for a pooled connection, `connect_timeout` for a new one. Failing to
        get a connection raises DatabaseUnavailable (503, db/unavailable.py).
        `sqlite_direct` / `postgres_direct` False send every statement through SQLAlchemy
        (db/direct.py).
        SQLite: `sqlite_pool_size` connections, so reads (DEFERRED, WAL: they never wait
        for each other or for the writer) run side by side; write transactions take
        `writing` first, so this process's writers still go one at a time, in turn,
        rather than polling SQLite's lock (busy timeout)."""
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.checkpointer: checkpoint.Checkpointer | None = None
        self.postgres_direct = postgres_direct
        # Connections requests keep between them (db/request.py).
        # SQLite: parked connections go back to the pool when anybody waits for it.
        # PostgreSQL: /v1 requests keep half the pool and hand connections on directly.
        self.parking: request.Parking = (
            request.Parking(limit=sqlite_pool_size)
            if self.is_sqlite
            else request.ReservedParking(
                limit=pool_size, on_return=request.autocommit_off, timeout=pool_timeout
            )
        )
        self.writing = asyncio.Lock()  # SQLite write transactions, one at a time
        # Called after a transaction that wrote background work commits (db/work.py):
        # the Runtime's in-process Wakeup and, on PostgreSQL, the notifier.
        self.on_work: list[Callable[[], None]] = []
        # Called once the engine is disposed (the pool metrics, registered by the Runtime:
        # db/ knows nothing of metrics/). Dispose may run twice; so may these.
        self.on_dispose: list[Callable[[], None]] = []
        self.notifier: Notifier | None = None
        if self.is_sqlite:
            path = make_url(url).database
            if path and path != ":memory:" and not path.startswith("file:"):
                self.checkpointer = checkpoint.Checkpointer(path)
            self.engine = _create_engine(
                sqlite_url(url),
                pool_size=sqlite_pool_size,
                max_overflow=0,
                pool_timeout=60,
                pool_reset_on_return=None,
                json_deserializer=_json_loads,
                json_serializer=_json_dumps,
                connect_args={"busy_timeout_ms": SQLITE_BUSY_TIMEOUT_MS, "direct": sqlite_direct},
            )
            _configure_sqlite(self.engine)
        else:
            # The other processes' workers: NOTIFY after the commit, from a connection of
            # its own (db/notifier.py).
            self.notifier = Notifier(url)
            self.on_work.append(self.notifier.notify)
            connect_args: dict[str, Any] = {}
            if connect_timeout is not None:
                connect_args["timeout"] = connect_timeout
            if statement_timeout is not None:
                connect_args["server_settings"] = {
                    "statement_timeout": str(max(1, round(statement_timeout * 1000)))
                }
            self.engine = _create_engine(
                url,
                # 2 x pool_size connections, none of them overflow: returning a connection
                # to the pool then never closes it, which on asyncpg is I/O that a request
                # returning its connection outside SQLAlchemy's greenlet could not do
                # (db/request.py).
                pool_size=2 * pool_size,
                max_overflow=0,
                pool_timeout=pool_timeout,
                # No pre-ping (a round trip per checkout): a connection that died with the
                # server fails its next statement, which answers 503 and invalidates it
                # (SQLAlchemy then recycles the pool; db/postgres.py).
                json_deserializer=_json_loads,
                json_serializer=_json_dumps,
                connect_args=connect_args,
            )
        # Connections the pool holds at most; metrics/pool.py reports it.
        self.pool_capacity = sqlite_pool_size if self.is_sqlite else 2 * pool_size

    @asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[AsyncConnection]:
        """Commit when the block ends normally, roll back when it raises. Work marked in
        it (db/work.py) is announced after the commit (on_work)."""
        if not self.is_sqlite:
            # Requests' connections stay theirs: the pool's other half is for
            # transactions (db/request.py, ReservedParking).
            try:
                connection = await self.engine.connect().start()
            except Exception as error:
                raise unavailable.on_connect_failure(error) from error
            pending, token = work.track(connection)
            try:
                async with connection.begin():
                    yield connection
            finally:
                work.untrack(token)
                await connection.close()
            if pending.marked:
                self.announce()
            return
        async with self._one_writer(write), self._sqlite_transaction(write=write) as connection:
            yield connection

    @asynccontextmanager
    async def _sqlite_transaction(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        if self.checkpointer is not None:
            self.checkpointer.ensure_running()
        # Connections parked by requests go back to the pool first, and this waits
        # counted, so none is parked while it does (db/request.py, Parking).
        self.parking.release()
        self.parking.waiting += 1
        try:
            connection = await self.engine.connect().start()
        except Exception as error:
            raise unavailable.on_connect_failure(error) from error
        finally:
            self.parking.waiting -= 1
        try:
            if write:
                connection = await connection.execution_options(sqlite_begin="IMMEDIATE")
            pending, token = work.track(connection)
            try:
                async with connection.begin():
                    yield connection
            finally:
                work.untrack(token)
        finally:
            await connection.close()
        if pending.marked:
            self.announce()

    @asynccontextmanager
    async def request_transaction(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        """A /v1 request's transaction: like `transaction`, and much cheaper
        (db/request.py): on SQLite reads begin DEFERRED, writes IMMEDIATE; on PostgreSQL
        a read runs without a transaction and a write in one begun on asyncpg at its
        first statement that writes (db/postgres.py).
        A read request's connection refuses statements that write."""
        if not self.is_sqlite:
            async with self._postgres_request(write=write) as connection:
                yield connection
            return
        if self.checkpointer is not None:
            self.checkpointer.ensure_running()
        async with self._one_writer(write), self._sqlite_request(write=write) as connection:
            yield connection

    def _one_writer(self, write: bool) -> AbstractAsyncContextManager[Any]:
        """SQLite write transactions take `writing` first, one at a time; reads do not."""
        return self.writing if write else nullcontext()

    @asynccontextmanager
    async def _sqlite_request(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        async with request.sqlite_request(self.engine, self.parking, write=write) as connection:
            pending, token = work.track(connection)
            try:
                yield connection
            finally:
                work.untrack(token)
        if pending.marked:
            self.announce()

    @asynccontextmanager
    async def _postgres_request(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        """A request on PostgreSQL (db/postgres.py): a read without a transaction and
        nothing to announce (it cannot write); a write's work is announced as in
        `transaction`, after the commit."""
        async with request.postgres_request(
            self.engine, self.parking, direct=self.postgres_direct, write=write
        ) as connection:
            if not write:
                yield connection
                return
            pending, token = work.track(connection)
            try:
                yield connection
            finally:
                work.untrack(token)
        if write and pending.marked:
            self.announce()

    def announce(self) -> None:
        """Work committed: wake whoever waits for it in this process."""
        for callback in self.on_work:
            try:
                callback()
            except Exception:  # the commit stands; the worker's poll still finds the work
                log.exception("announcing committed work failed")

    async def dispose(self) -> None:
        if self.notifier is not None:
            await self.notifier.close()
        self.parking.release()
        if self.checkpointer is not None:
            await self.checkpointer.stop()
        await self.engine.dispose()
        for callback in self.on_dispose:
            callback()
