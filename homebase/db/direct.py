"""Running statements built once straight on the driver: SQLite's, and asyncpg under a
/v1 request's PostgreSQL connection (db/postgres.py, "PostgreSQL" below).

Through AsyncConnection.execute a statement pays, before the database sees it, for a
greenlet switch, the statement's cache key, an execution context, events, a Result and
Row objects: several times what a small statement costs SQLite itself (docs/performance.md,
"Statements built once"). A statement marked with `once()` (built at import, or once per
workspace and kept) is compiled here once with the public `statement.compile()`; what
SQLAlchemy derives per execution (the positional parameters through the types' bind
processors, rows through their result processors) is derived once from the compiled
statement and kept beside it, keyed by the statement object and the dialect.

Only what this covers runs here; anything else goes through SQLAlchemy, on the same
connection and in the same transaction (`execute` returns None and the caller falls
back): statements not marked `once`, a SQLite connection outside a transaction, a
PostgreSQL connection that is not a /v1 request's (Database.transaction: jobs, commands),
statements with Python-side column defaults, expanding IN parameters, result columns that
repeat a name, that the statement's columns do not describe, or (PostgreSQL) whose result
processor needs asyncpg's type code. Driver errors are raised as SQLAlchemy's exception
classes (IntegrityError ...), as SQLAlchemy raises them. When anything listens for
SQLAlchemy's cursor events (tracing, metrics) nothing runs here, so they see every
statement. HOMEBASE_SQLITE_DIRECT=0 and HOMEBASE_POSTGRES_DIRECT=0 turn this path off
(Database(sqlite_direct=False, postgres_direct=False)).

SQLite: calls go through Driver.call (db/sqlite.py): inline unless calls are queued on
the connection's thread, and a call that meets a lock (SQLITE_BUSY) is re-run on that
thread with the busy timeout.

PostgreSQL: SELECTs and writes run on asyncpg (`fetch` / `fetchrow` / `execute` /
`executemany`) with the SQL compiled once for the asyncpg dialect (`$n` parameters and
their casts, as SQLAlchemy sends them); asyncpg keeps the prepared statement per
connection. The JSON codecs SQLAlchemy's dialect set on the connection when it connected
apply, so rows read back as through SQLAlchemy. A read request's connection refuses a
statement that writes (ReadOnlyRequest). On a write request a statement that writes or
locks rows begins the transaction first (PgDriver.ensure_transaction); a write whose
outcome the caller does not read (`defer`: TenantSession.insert, insert_many,
execute_later) waits in the request's batch and goes with others as one statement
(db/batch.py); a statement that must run now sends the batch first, or carries it in
front of itself when it writes another table. asyncpg's errors are raised as
SQLAlchemy's (postgres.translate); a connection that saw one is replaced (PgDriver.failed).
"""

import re
import sqlite3
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeVar

from sqlalchemy import Insert, exc
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.compiler import SQLCompiler

from homebase.db import postgres
from homebase.db.batch import Write, combinable, insert_rows
from homebase.db.sqlite import Driver
from homebase.kit.statements import AnyStatement


class ReadOnlyRequest(RuntimeError):
    """A statement that writes reached a read request's connection. On PostgreSQL a read
    runs without a transaction (db/postgres.py), so a write there would not be atomic
    with the rest; the rule holds on SQLite too, so its tests find such a route."""


_LOCKING = re.compile(r"\bFOR (?:NO KEY UPDATE|UPDATE|KEY SHARE|SHARE)\b")
ONCE = "homebase_compile_once"  # execution option of a statement kept and run many times
Statement = TypeVar("Statement", bound=Executable)
Processor: TypeAlias = Callable[[Any], Any]  # a column type's bind or result processor


def once(statement: Statement) -> Statement:
    """`statement`, marked as built once and kept: this module compiles it once."""
    return statement.execution_options(**{ONCE: True})


class Plan:
    """A compiled statement and what each execution of it needs, worked out once."""

    __slots__ = (
        "sql",
        "names",
        "defaults",
        "bind_processors",
        "result_types",
        "result_processors",
        "keys",
        "returns_rows",
        "is_dml",
        "table",
        "locks",
        "combinable",
        "supported",
    )

    def __init__(self, statement: AnyStatement, dialect: Dialect, column_keys: list[str]):
        compiled = statement.compile(dialect=dialect, column_keys=column_keys)
        if not isinstance(compiled, SQLCompiler):  # a SQL statement's always is
            raise TypeError(f"not a SQL statement: {statement!r}")
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ())
        # Values the statement carries (literals, bindparams given a value); the others
        # (bindparam("name") alone) each call supplies.
        self.defaults = {
            name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required
        }
        self.bind_processors: dict[str, Processor] = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.bind_processors[name] = processor
        self.is_dml = bool(compiled.isinsert or compiled.isupdate or compiled.isdelete)
        # The table a write writes (db/batch.py); a SELECT that locks rows needs the
        # write's transaction (db/postgres.py).
        table = getattr(statement, "table", None) if self.is_dml else None
        self.table: str | None = getattr(table, "name", None)
        self.locks = not self.is_dml and bool(_LOCKING.search(self.sql))
        self.combinable = combinable(self.sql)
        columns = list(getattr(statement, "exported_columns", ()) or ())
        self.result_types = [column.type.dialect_impl(dialect) for column in columns]
        self.returns_rows = bool(columns)
        # From the first result's description: (index, key, processor) per processed column.
        self.result_processors: tuple[tuple[int, str, Processor], ...] | None = None
        self.keys: tuple[str, ...] = ()
        self.supported = bool(
            compiled.positional
            and not compiled.insert_prefetch
            and not compiled.update_prefetch
            and not compiled.post_compile_params
            and not compiled.literal_execute_params
            and not any(bind.expanding for bind in compiled.binds.values())
            and set(self.names) <= set(compiled.binds)
        )

    def arguments(self, values: dict[str, Any] | None) -> list[Any]:
        merged = {**self.defaults, **values} if values else self.defaults
        processors = self.bind_processors
        try:
            return [
                processors[name](merged[name]) if name in processors else merged[name]
                for name in self.names
            ]
        except KeyError as missing:
            raise exc.StatementError(
                f"A value is required for bind parameter {missing}", self.sql, values, None
            ) from None

    def processors_known(self, dialect: Dialect) -> bool:
        """Whether every column's result processor can be had without the driver's type
        code (see `learn`): asked before a statement that writes runs, since one that
        has run cannot be handed to SQLAlchemy to run again."""
        for type_ in self.result_types:
            try:
                type_.result_processor(dialect, None)
            except Exception:
                return False
        return True

    def learn(self, names: Sequence[str], dialect: Dialect) -> bool:
        """The result's keys and processors, from the column names the driver reports
        (SQLite's description, asyncpg's record keys); False when they do not match the
        statement's columns one for one, repeat a name, or a column's processor needs the
        driver's type code (asyncpg's Numeric)."""
        names = tuple(names)
        if len(names) != len(self.result_types) or len(set(names)) != len(names):
            return False
        processors = []
        for index, (name, type_) in enumerate(zip(names, self.result_types, strict=True)):
            try:
                processor = type_.result_processor(dialect, None)
            except Exception:  # e.g. asyncpg's Numeric: it needs the column's type code
                return False
            if processor is not None:
                processors.append((index, name, processor))
        self.keys, self.result_processors = names, tuple(processors)
        return True


# Compiled statements, per statement object (statements marked `once` live long; a
# statement dropped takes its plans with it) and per set of inserted columns.
_PLANS: "weakref.WeakKeyDictionary[AnyStatement, dict[tuple[str, ...], Plan]]" = (
    weakref.WeakKeyDictionary()
)


def _plan(statement: AnyStatement, dialect: Dialect, column_keys: list[str]) -> Plan:
    plans = _PLANS.get(statement)
    if plans is None:
        plans = _PLANS[statement] = {}
    key = (dialect.name, *column_keys)  # a process may serve both databases (tests)
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = Plan(statement, dialect, column_keys)
    return plan


def driver_of(connection: AsyncConnection) -> Driver | None:
    """The SQLite driver under `connection` while it is inside a transaction, if
    statements may run on it directly."""
    driver = getattr(connection, "homebase_driver", None)  # db/request.py's connection
    if driver is None:
        sync = connection.sync_connection
        if (
            sync is None
            or sync.closed
            or sync.dialect.name != "sqlite"
            or not sync.in_transaction()
        ):
            return None
        driver = sync.connection.driver_connection
        if not isinstance(driver, Driver):
            return None
    if not driver.direct or not driver.in_transaction:
        return None
    return driver


def _instrumented(engine: Engine) -> bool:
    """Something listens for SQLAlchemy's cursor events (tracing, metrics)."""
    dispatch = engine.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


class Outcome:
    """`rows` are dicts with the column types' result processing applied, or, for
    `execute(..., stored=True)`, the driver's rows (tuples, asyncpg records) as it gives
    them, in the order of `keys`."""

    __slots__ = ("rows", "rowcount", "keys", "stored")

    def __init__(
        self,
        rows: list[Any] | None,
        rowcount: int,
        keys: tuple[str, ...] = (),
        stored: bool = True,
    ):
        self.rows, self.rowcount, self.keys = rows, rowcount, keys
        # With execute(stored=True): whether the tuples are as SQLite stores them (True)
        # or processed (PostgreSQL).
        self.stored = stored


def _run(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool, returns_rows: bool, first: bool
) -> tuple[list[tuple[Any, ...]] | None, int, Any]:
    cursor = conn.executemany(sql, parameters) if many else conn.execute(sql, parameters)
    try:
        if not returns_rows:
            return None, cursor.rowcount, None
        if first:
            row = cursor.fetchone()
            return ([] if row is None else [row]), cursor.rowcount, cursor.description
        return cursor.fetchall(), cursor.rowcount, cursor.description
    finally:
        cursor.close()


def _processed(plan: Plan, raw: Sequence[Any]) -> Sequence[Any]:
    """The driver's rows (tuples, asyncpg records) with the column types' result
    processing applied, in column order."""
    if not plan.result_processors:
        return raw
    rows = [list(row) for row in raw]
    for row in rows:
        for index, _key, processor in plan.result_processors:
            row[index] = processor(row[index])
    return rows


def _rows(plan: Plan, raw: Sequence[Any]) -> list[dict[str, Any]]:
    keys = plan.keys
    return [dict(zip(keys, row, strict=True)) for row in _processed(plan, raw)]


async def execute(
    connection: AsyncConnection,
    statement: AnyStatement,
    parameters: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
    *,
    first: bool = False,
    stored: bool = False,
    defer: bool = False,
    disjoint: bool = False,
    alone: AnyStatement | None = None,
) -> Outcome | None:
    """Run `statement` on the driver; None when it is left to SQLAlchemy (see above).
    With `first`, only the first row is read (the rest are never fetched); with
    `stored`, rows are the driver's tuples, without result processing. With `defer`, a
    write whose outcome the caller does not read (its rowcount is then -1) may be sent
    later with others, on a PostgreSQL write request (db/batch.py); with `disjoint` as
    well, an UPDATE or DELETE whose rows no earlier deferred write touches, nor would
    have moved into or out of its WHERE, may join a batch that wrote its table. With
    `alone`, a write runs on its own, committed at once, when the PostgreSQL write
    request has written nothing yet (TenantSession.fetch_one_committed): `alone` is the
    statement to run then (the same write, its commit made asynchronous)."""
    if not statement.get_execution_options().get(ONCE):
        return None
    pg = getattr(connection, "homebase_driver", None)
    if isinstance(pg, postgres.PgDriver):
        if not pg.direct or _instrumented(connection.sync_engine):
            return None
        return await _execute_pg(
            connection,
            pg,
            statement,
            parameters,
            first=first,
            stored=stored,
            defer=defer,
            disjoint=disjoint,
            alone=alone,
        )
    driver = driver_of(connection)
    if driver is None or _instrumented(connection.sync_engine):
        return None
    rows: Sequence[dict[str, Any]] | None = None
    if isinstance(parameters, list | tuple):
        if not parameters:
            return Outcome(None, 0)
        rows, single = parameters, parameters[0]
    else:
        single = parameters
    many = rows is not None
    dialect = connection.dialect
    # Compiled for the parameters' names, as SQLAlchemy compiles for each execution (an
    # INSERT's columns are those given).
    plan = _plan(statement, dialect, sorted(single) if single else [])
    if not plan.supported or (plan.returns_rows and many):
        return None
    if plan.is_dml and not getattr(connection, "homebase_writes", True):
        raise ReadOnlyRequest(f"a read request may not run {type(statement).__name__}")
    if plan.returns_rows and plan.result_processors is None and first:
        first = False  # the first run learns the description; read it all once
    if rows is not None and len(rows) > 1:
        arguments: Any = [plan.arguments(row) for row in rows]
    else:
        arguments, many = plan.arguments(single), False
    try:
        raw, rowcount, description = await driver.call(
            _run,
            driver.sqlite,
            plan.sql,
            arguments,
            many,
            plan.returns_rows,
            first and not plan.is_dml,
        )
    except sqlite3.Error as error:
        raise exc.DBAPIError.instance(
            plan.sql, arguments, error, sqlite3.Error, dialect=dialect
        ) from error
    if (
        plan.returns_rows
        and plan.result_processors is None
        and not plan.learn([column[0] for column in description or ()], dialect)
    ):
        plan.supported = False  # later runs go through SQLAlchemy
        if plan.is_dml:  # it has run and cannot be run again
            raise exc.InvalidRequestError(
                f"RETURNING columns {description!r} do not match the statement's columns"
            )
        return None  # a SELECT has done nothing: SQLAlchemy runs it
    if raw is None:
        return Outcome(None, rowcount)
    if stored:
        return Outcome(raw, rowcount, plan.keys)
    return Outcome(_rows(plan, raw), rowcount)


async def _execute_pg(
    connection: AsyncConnection,
    driver: postgres.PgDriver,
    statement: AnyStatement,
    parameters: dict[str, Any] | Sequence[dict[str, Any]] | None,
    *,
    first: bool,
    stored: bool,
    defer: bool,
    disjoint: bool,
    alone: AnyStatement | None,
) -> Outcome | None:
    """A request's statement on asyncpg (db/postgres.py); None to leave it to SQLAlchemy.
    A read request's connection writes nothing: a statement that writes is refused."""
    on_its_own = False
    if alone is not None and driver.writes and not driver.in_transaction:
        statement, on_its_own = alone, True
    rows: Sequence[dict[str, Any]] | None = None
    single: dict[str, Any] | None
    if parameters is not None and not isinstance(parameters, dict):  # several rows
        if not parameters:
            return Outcome(None, 0)
        rows, single = parameters, parameters[0]
    else:
        single = parameters
    dialect = connection.dialect
    plan = _plan(statement, dialect, sorted(single) if single else [])
    if plan.is_dml and not driver.writes:
        raise ReadOnlyRequest(f"a read request may not run {type(statement).__name__}")
    if not plan.supported or (not plan.returns_rows and not plan.is_dml):
        return None
    if rows is not None and len(rows) > 1:
        # Several rows: an INSERT without RETURNING (every row is inserted, or it raises).
        if plan.returns_rows or not isinstance(statement, Insert):
            return None
        return await _insert_many_pg(driver, plan, rows, defer=defer)
    if plan.is_dml and plan.returns_rows and not plan.processors_known(dialect):
        return None  # a RETURNING column needs asyncpg's type code: SQLAlchemy runs it
    arguments = plan.arguments(single)
    sql = plan.sql
    if driver.writes and not on_its_own:
        if plan.is_dml and not plan.returns_rows and defer and plan.table is not None:
            reads = not (disjoint or isinstance(statement, Insert))
            write = Write(sql, arguments, plan.table, reads)
            if plan.combinable and await _deferred(driver, write):
                return Outcome(None, -1)
        if plan.is_dml or plan.locks:
            await driver.ensure_transaction()
            if plan.combinable:
                sql, arguments = driver.carry(sql, arguments, plan.table)
        # Before a read (it sees the transaction's writes) or a write that cannot carry it.
        await driver.flush()
    if not plan.returns_rows:
        return Outcome(None, _status_rowcount(await driver.run(sql, arguments)))
    records = await driver.fetch(sql, arguments, first=first and not plan.is_dml)
    if plan.is_dml and plan.result_processors is None and records:
        # (Checked before running: every RETURNING column's processor is known.)
        if not plan.learn(list(records[0].keys()), dialect):
            plan.supported = False  # it has run and cannot be run again
            raise exc.InvalidRequestError(
                f"RETURNING columns {list(records[0].keys())!r} do not match the statement's"
            )
    if not records:
        return Outcome([], 0, (), stored=False)
    if plan.result_processors is None and not plan.learn(list(records[0].keys()), dialect):
        # The columns asyncpg reports do not fit the statement's, or a processor needs
        # the column's type code: SQLAlchemy runs it, now and from now on.
        plan.supported = False
        return None
    if stored:
        # asyncpg's values as they come (aware datetimes, decoded JSON): they differ from
        # processed ones only by UTCDateTime's conversion to UTC, which the wire's
        # isoformat makes anyway (TenantSession.fetch_stored).
        return Outcome(list(records), len(records), plan.keys, stored=False)
    return Outcome(_rows(plan, records), len(records))


async def _deferred(driver: postgres.PgDriver, write: Write) -> bool:
    """Whether `write` waits in the batch (db/batch.py): sent first when the write may
    not join it; False when it is too large to keep."""
    if driver.defer(write):
        return True
    await driver.flush()
    return driver.defer(write)


async def _insert_many_pg(
    driver: postgres.PgDriver, plan: Plan, rows: Sequence[dict[str, Any]], *, defer: bool
) -> Outcome:
    """Several rows of an INSERT: deferred as one INSERT of them all, or, when they
    cannot be, at once with asyncpg's executemany (one round trip)."""
    arguments = [plan.arguments(row) for row in rows]
    if defer and plan.table is not None and plan.combinable:
        sql = insert_rows(plan.sql, len(plan.names), len(rows))
        if sql is not None:
            flat = [value for row in arguments for value in row]
            if await _deferred(driver, Write(sql, flat, plan.table, False)):
                return Outcome(None, len(rows))
    await driver.ensure_transaction()
    await driver.flush()
    await driver.run_many(plan.sql, arguments)
    return Outcome(None, len(rows))


def _status_rowcount(status: str) -> int:
    """The row count of asyncpg's command tag: "UPDATE 3", "DELETE 0", "INSERT 0 1"."""
    count = status.rpartition(" ")[2]
    return int(count) if count.isdigit() else -1
