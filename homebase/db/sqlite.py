"""SQLite for SQLAlchemy's asyncio engine (its pysqlite dialect, the `sqlite+homebase` URL
for every SQLite URL), run on the event loop's thread: a statement on a local WAL file
takes far less than a thread hop (docs/performance.md, "SQLite driver"). Calls run inline
with SQLite's busy timeout at 0; one that meets another writer's lock (SQLITE_BUSY) is
re-run on the connection's thread with the full timeout, as are calls made while earlier
ones are queued. Slow calls (a search, an import's batch) run on that thread inside
`off_loop()`. sqlite3 stays in autocommit mode; `do_begin` sends a writer's BEGIN IMMEDIATE.
"""

import asyncio
import contextvars
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar, TypeVarTuple

from sqlalchemy import pool
from sqlalchemy.connectors.asyncio import AsyncAdapt_dbapi_connection, AsyncAdapt_dbapi_module
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import URL
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import PoolProxiedConnection

SQLITE_BUSY = 5
DRIVER_NAME = "sqlite+homebase"
BEGIN_IMMEDIATE = "homebase_begin_immediate"  # a writer's connection (info, db/engine.py)
Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")


# Set by off_loop(): the calls of the current task go to the connection's thread.
_OFF_LOOP: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "homebase_sqlite_off_loop", default=False
)


@contextmanager
def off_loop(active: bool = True) -> Iterator[None]:
    """Within this block (when `active`), this task's SQLite calls run on their
    connection's thread: for statements that may take milliseconds to seconds."""
    if not active:
        yield
        return
    token = _OFF_LOOP.set(True)
    try:
        yield
    finally:
        _OFF_LOOP.reset(token)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    code: int | None = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == SQLITE_BUSY
    return "locked" in str(error) or "busy" in str(error)


class Driver:
    """One SQLite connection, asyncio-shaped: `await` each call; it runs inline unless it
    must wait for a lock (see above). `sqlite` is the sqlite3 connection itself."""

    def __init__(self, connection: sqlite3.Connection, busy_timeout_ms: int):
        self.sqlite = connection
        self.busy_timeout_ms = busy_timeout_ms
        self.thread: threading.Thread | None = None
        self.inbox: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        # Written by one thread each (queued: the loop's; finished: the connection
        # thread's), so `queued > finished` needs no lock.
        self.queued = 0
        self.finished = 0

    async def call(self, function: Callable[[*Arguments], Result], *args: *Arguments) -> Result:
        if self.queued == self.finished and not _OFF_LOOP.get():
            try:
                return function(*args)
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
        return await self.on_thread(function, args)

    async def on_thread(self, function: Callable[..., Result], args: Sequence[Any]) -> Result:
        """The call on this connection's thread, allowed to wait for locks. Once queued it
        always runs (and counts as finished), even if its caller is cancelled, so the calls
        after it never overtake it."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._serve, name="homebase-sqlite", daemon=True)
            self.thread.start()
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self.queued += 1
        self.inbox.put(_Call(function, args, future))
        return await future

    def _serve(self) -> None:
        while (call := self.inbox.get()) is not None:
            try:
                outcome = self._waiting(call.function, call.args)
            except BaseException as error:  # delivered to the caller, raised there
                call.deliver(None, error)
            else:
                call.deliver(outcome, None)

    def _waiting(self, function: Callable[..., Result], args: Sequence[Any]) -> Result:
        try:
            self.sqlite.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
            try:
                return function(*args)
            finally:
                self.sqlite.execute("PRAGMA busy_timeout=0")
        finally:
            self.finished += 1

    @property
    def in_transaction(self) -> bool:
        return self.sqlite.in_transaction

    @property
    def isolation_level(self) -> str | None:
        return self.sqlite.isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        # sqlite3 takes "" too (the pysqlite dialect's value for BEGIN's default mode).
        self.sqlite.isolation_level = value  # type: ignore[assignment]  # typeshed: 3 modes

    def create_function(self, *args: Any, **kwargs: Any) -> None:
        self.sqlite.create_function(*args, **kwargs)

    def cursor(self) -> "Cursor":
        return Cursor(self, self.sqlite.cursor())

    async def commit(self) -> None:
        await self.call(self.sqlite.commit)

    async def rollback(self) -> None:
        await self.call(self.sqlite.rollback)

    async def close(self) -> None:
        try:
            await self.call(self.sqlite.close)
        finally:
            if self.thread is not None:
                self.inbox.put(None)  # the thread ends after the calls queued before
                self.thread = None


class _Call:
    """A call queued for a connection's thread, and the loop's future for its outcome."""

    __slots__ = ("function", "args", "future")

    def __init__(
        self, function: Callable[..., Any], args: Sequence[Any], future: "asyncio.Future[Any]"
    ):
        self.function, self.args, self.future = function, args, future

    def deliver(self, outcome: Any, error: BaseException | None) -> None:
        """From the connection's thread: the outcome to the future, on its loop."""
        try:
            self.future.get_loop().call_soon_threadsafe(self._settle, outcome, error)
        except RuntimeError:  # the loop has closed: nobody waits any more
            pass

    def _settle(self, outcome: Any, error: BaseException | None) -> None:
        if self.future.cancelled():  # its caller was cancelled; the call ran all the same
            return
        if error is not None:
            self.future.set_exception(error)
        else:
            self.future.set_result(outcome)


class Cursor:
    def __init__(self, driver: Driver, cursor: sqlite3.Cursor):
        self.driver = driver
        self.cursor = cursor

    async def __aenter__(self) -> "Cursor":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    @property
    def description(self) -> Any:
        return self.cursor.description

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self.cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self.cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self.cursor.arraysize = value

    async def execute(self, sql: str, parameters: Any = None) -> "Cursor":
        await self.driver.call(self.cursor.execute, sql, () if parameters is None else parameters)
        return self

    async def executemany(self, sql: str, parameters: Any) -> "Cursor":
        await self.driver.call(self.cursor.executemany, sql, parameters)
        return self

    async def fetchone(self) -> Any:
        return await self.driver.call(self.cursor.fetchone)

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        if size is None:
            return await self.driver.call(self.cursor.fetchmany)
        return await self.driver.call(self.cursor.fetchmany, size)

    async def fetchall(self) -> list[Any]:
        return await self.driver.call(self.cursor.fetchall)

    async def close(self) -> None:
        await self.driver.call(self.cursor.close)

    async def setinputsizes(self, *sizes: Any) -> None:
        return None


class Adapter(AsyncAdapt_dbapi_connection):
    """SQLAlchemy's DB-API face of a Driver, plus what the pysqlite dialect asks of a
    sqlite3 connection beyond the DB-API (isolation_level, create_function)."""

    __slots__ = ()

    @property
    def isolation_level(self) -> str | None:
        driver: Driver = self.driver_connection
        return driver.isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        self.driver_connection.isolation_level = value

    def create_function(self, *args: Any, **kwargs: Any) -> None:
        self.driver_connection.create_function(*args, **kwargs)


class DBAPI(AsyncAdapt_dbapi_module):
    """The module the dialect sees: sqlite3's names (exceptions, version, paramstyle)
    and a `connect` that returns an Adapter."""

    def __init__(self) -> None:
        super().__init__(sqlite3, dbapi_module=sqlite3)
        self.paramstyle = "qmark"

    def __getattr__(self, name: str) -> Any:
        return getattr(sqlite3, name)

    def connect(self, database: str, *, busy_timeout_ms: int = 5000, **kwargs: Any) -> Adapter:
        # The URL's `timeout` (s): the busy timeout on the thread. BEGIN: do_begin's only.
        timeout = kwargs.pop("timeout", None)
        if timeout is not None:
            busy_timeout_ms = round(float(timeout) * 1000)
        kwargs.update(check_same_thread=False, timeout=0, isolation_level=None)
        driver = Driver(sqlite3.connect(database, **kwargs), busy_timeout_ms)
        return Adapter(self, driver)  # type: ignore[arg-type]  # no __getattr__: not needed


class InlineSQLiteDialect(SQLiteDialect_pysqlite):
    driver = "homebase"
    is_async = True
    supports_statement_cache = True
    supports_server_side_cursors = False

    def set_isolation_level(self, dbapi_connection: DBAPIConnection, level: Any) -> None:
        """Nothing to send: sqlite3 stays in its autocommit mode whatever the level."""

    def do_begin(self, dbapi_connection: PoolProxiedConnection) -> None:
        """BEGIN IMMEDIATE on a writer's connection, as SQLAlchemy's dialects send BEGIN."""
        if dbapi_connection.info.get(BEGIN_IMMEDIATE):
            cursor = dbapi_connection.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            cursor.close()

    @classmethod
    def import_dbapi(cls) -> DBAPI:
        return DBAPI()

    @classmethod
    def get_pool_class(cls, url: URL) -> type[pool.Pool]:
        if is_memory(url):
            return pool.StaticPool  # one connection: each new one would be a new database
        return pool.AsyncAdaptedQueuePool

    def get_driver_connection(self, connection: DBAPIConnection) -> Driver:
        driver: Driver = connection.driver_connection  # an Adapter's
        return driver


def is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"


registry.register("sqlite.homebase", __name__, "InlineSQLiteDialect")
