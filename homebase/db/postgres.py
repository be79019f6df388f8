"""A /v1 request's connection on PostgreSQL: at most one round trip per statement.

Through SQLAlchemy a request's transaction cost four round trips around its work (the
pool's pre-ping, BEGIN, COMMIT, and the statement), and each statement went through the
asyncpg adapter and the greenlet bridge, most of a GET /v1/ping's CPU
(docs/performance.md, "PostgreSQL: round trips"). A request here holds its pooled
connection like a SQLite request (db/request.py), handed from one request to the next
(ReservedParking), with the adapter in autocommit so it sends no BEGIN of its own, and:

- a read (GET, HEAD, OPTIONS) runs without a transaction: under READ COMMITTED,
  PostgreSQL's default, every statement takes its own snapshot inside a transaction
  too, so BEGIN and COMMIT around reads bought nothing but two round trips. Its
  connection refuses statements that write (`ReadOnlyRequest`, db/direct.py and
  db/request.py, on both databases), so no write can land outside a transaction;
- a write runs in a transaction begun on asyncpg at its first statement that writes
  or locks (`PgDriver.ensure_transaction`), committed or rolled back by
  RequestConnection.finish; writes nobody reads wait and go together as one statement
  (db/batch.py), last at COMMIT: a write whose statements end in one sends no BEGIN or
  COMMIT (its work is announced after, db/notifier.py);
- statements built once (`direct.once`) run straight on asyncpg (db/direct.py), the
  prepared statement cached per connection by asyncpg, the SQL compiled once by
  SQLAlchemy's public `compile()` for the asyncpg dialect, values through the same bind
  and result processors as SQLAlchemy's own execution. Anything else goes through
  SQLAlchemy on the same connection, inside the same transaction.

asyncpg's errors on this path are raised as SQLAlchemy's exception classes (`translate`),
so the handlers see what SQLAlchemy would have raised; a connection that saw an error is
marked lost: never parked again, and soft-invalidated, so the pool replaces it at its
next checkout (closing an asyncpg connection is I/O, which the pool can only do inside
SQLAlchemy's greenlet). The pool does not pre-ping: a connection asyncpg already saw
closed is replaced before use (db/request.py), and one that dies under a statement
answers 503 (db/unavailable.py) and is replaced.
"""

from collections.abc import Sequence
from typing import Any, NoReturn

import asyncpg
from sqlalchemy import exc

from homebase.db.batch import Batch, Write, combine

# asyncpg's errors that mean the connection is gone or the server is not serving.
_CONNECTION_LOST = (
    asyncpg.PostgresConnectionError,  # class 08
    asyncpg.InterfaceError,  # the connection is closed
    # asyncpg's protocol is mid-exchange: e.g. the server's FATAL after a backend was
    # terminated arrived while the connection sat idle in the pool.
    asyncpg.InternalClientError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    OSError,
)
# SQLSTATE class -> SQLAlchemy's class, as PEP 249 sorts them (psycopg does the same).
_BY_CLASS: dict[str, type[exc.DBAPIError]] = {
    "22": exc.DataError,
    "23": exc.IntegrityError,
    "25": exc.InternalError,
    "40": exc.OperationalError,
    "42": exc.ProgrammingError,
    "53": exc.OperationalError,
    "54": exc.OperationalError,
    "55": exc.OperationalError,
    "57": exc.OperationalError,
    "58": exc.OperationalError,
    "0A": exc.NotSupportedError,
    "XX": exc.InternalError,
}


def connection_lost(error: BaseException | None) -> bool:
    """Whether the connection is unusable after `error` came out of an operation on it:
    the server or the socket is gone, or the operation was abandoned halfway (cancelled,
    timed out, asyncpg's own state error), leaving the protocol mid-exchange. A server's
    error on a statement (a constraint, a cast) leaves it ready for the next; SQLAlchemy
    decides the same way (it invalidates on exit exceptions and disconnects)."""
    if error is None:
        return False
    if isinstance(error, _CONNECTION_LOST):
        return True
    return not isinstance(error, asyncpg.PostgresError | exc.SQLAlchemyError)


def translate(error: BaseException, sql: str | None, params: Any) -> BaseException:
    """`error` from asyncpg as the SQLAlchemy exception SQLAlchemy's execution raises for
    it (`orig` is asyncpg's error, with its `sqlstate`); other errors (cancellation, a
    timeout) unchanged."""
    if isinstance(error, _CONNECTION_LOST):
        return exc.OperationalError(sql, params, error, connection_invalidated=True)
    if isinstance(error, asyncpg.PostgresError):
        state = getattr(error, "sqlstate", None) or ""
        cls = _BY_CLASS.get(state[:2], exc.DatabaseError)
        return cls(sql, params, error)
    return error


class PgDriver:
    """The asyncpg connection under a request's pooled connection. A read runs without
    a transaction. A write (`writes`) begins one here only when it first needs one
    (`ensure_transaction`: before a statement that writes or locks runs, or before
    anything goes through SQLAlchemy): reads before that run on their own, as they would
    inside a READ COMMITTED transaction. Writes nobody waits for wait in `batch`
    (db/batch.py); a request whose writes all end in one statement sends no BEGIN or
    COMMIT at all, since one statement is atomic on its own. RequestConnection.finish
    ends it (`commit` / `rollback`); SQLAlchemy's adapter is in autocommit, so that it
    adds no BEGIN of its own."""

    __slots__ = ("asyncpg", "direct", "lost", "writes", "begun", "batch")

    def __init__(self, connection: asyncpg.Connection, *, direct: bool, writes: bool = False):
        self.asyncpg = connection
        self.direct = direct
        self.writes = writes
        self.begun = False  # BEGIN was sent
        self.batch = Batch()
        self.lost = False  # the connection failed: never parked, replaced at next checkout

    @property
    def in_transaction(self) -> bool:
        """Whether there is anything to commit or roll back."""
        return self.begun or bool(self.batch)

    def failed(self, error: BaseException, sql: str | None, params: Any) -> BaseException:
        """`error` translated (`translate`); the connection is marked `lost` whatever the
        error: asyncpg reports an error found while preparing a statement before the
        server has finished the exchange, and a connection used again before then fails
        ("another operation is in progress"), so one that saw an error is not reused.
        Errors are rare on this path; a new connection costs a few milliseconds."""
        self.lost = True
        return translate(error, sql, params)

    def _raise(self, error: BaseException, sql: str, arguments: Any) -> NoReturn:
        """Raise `error` from asyncpg as SQLAlchemy's (`failed`); others unchanged."""
        translated = self.failed(error, sql, arguments)
        if translated is error:
            raise error
        raise translated from error

    async def run(self, sql: str, arguments: Sequence[Any]) -> str:
        """`sql` on asyncpg for its status ("UPDATE 3"), errors translated."""
        try:
            status: str = await self.asyncpg.execute(sql, *arguments)
        except BaseException as error:
            self._raise(error, sql, arguments)
        return status

    async def run_many(self, sql: str, arguments: Sequence[Sequence[Any]]) -> None:
        """`sql` once per row of `arguments` (asyncpg's executemany), errors translated."""
        try:
            await self.asyncpg.executemany(sql, arguments)
        except BaseException as error:
            self._raise(error, sql, arguments)

    async def fetch(self, sql: str, arguments: Sequence[Any], *, first: bool = False) -> list[Any]:
        """`sql`'s rows (with `first`, the first one only), errors translated."""
        try:
            if first:
                record = await self.asyncpg.fetchrow(sql, *arguments)
                return [] if record is None else [record]
            return list(await self.asyncpg.fetch(sql, *arguments))
        except BaseException as error:
            self._raise(error, sql, arguments)

    async def ensure_transaction(self) -> None:
        if self.writes and not self.begun:
            await self.run("BEGIN", ())
            self.begun = True

    def defer(self, write: Write) -> bool:
        """Keep `write` for later (db/batch.py); False when the batch must be sent first
        (`flush`) or the write is too large to keep."""
        if not self.batch.accepts(write):
            return False
        self.batch.add(write)
        return True

    def carry(self, sql: str, arguments: list[Any], table: str | None) -> tuple[str, list[Any]]:
        """A statement that writes `table` now (its SQL `combinable`), with the batch in
        front of it when it may carry it (the batch is then sent); else unchanged
        (`flush` first)."""
        if self.batch and self.batch.independent_of(table, len(arguments)):
            return combine(self.batch.take(), sql, arguments)
        return sql, arguments

    async def flush(self) -> None:
        """Send the batch now, inside the transaction: before a read (which sees the
        transaction's writes), a write that cannot carry it, or SQLAlchemy."""
        if self.batch:
            await self.ensure_transaction()
            await self.finish_writes()

    async def finish_writes(self) -> None:
        """Send the batch as one statement (so, at the end of a request, without a
        transaction of its own when none was begun)."""
        writes = self.batch.take()
        if writes:
            first = writes[0]
            await self.run(*combine(writes[1:], first.sql, first.arguments))

    async def commit(self) -> None:
        await self.finish_writes()
        if self.begun:
            self.begun = False  # a failed COMMIT ends the transaction too
            await self.run("COMMIT", ())

    async def rollback(self) -> None:
        self.batch.clear()
        if self.begun:
            self.begun = False
            await self.run("ROLLBACK", ())
