"""Running statements built once straight on the SQLite driver.

Through AsyncConnection.execute a statement costs ~50 µs of CPU before SQLite sees it
when built once, ~130 µs when built per call (a greenlet switch, the statement's cache
key, an execution context, events, a Result and Row objects); the SQLite work itself is a
few µs (docs/performance.md). A statement marked with `once()` (built at import, or once
per workspace and kept) is compiled here once with the public `statement.compile()`; what
SQLAlchemy derives per execution (the positional parameters through the types' bind
processors, rows through their result processors) is derived once from the compiled
statement and kept beside it, keyed by the statement object.

Only what this covers runs here; anything else goes through SQLAlchemy unchanged
(`execute` returns None and the caller falls back): statements not marked `once`,
PostgreSQL, a connection outside a transaction, statements with Python-side column
defaults, expanding IN parameters, result columns that repeat a name or that the
statement's columns do not describe. Driver errors are raised as SQLAlchemy's exception
classes (IntegrityError ...), as SQLAlchemy raises them. When anything listens for
SQLAlchemy's cursor events (tracing, metrics) nothing runs here, so they see every
statement; HOMEBASE_SQLITE_DIRECT=0 turns this path off (Database(sqlite_direct=False)).

Calls go through Driver.call (db/sqlite.py): inline unless calls are queued on the
connection's thread, and a call that meets a lock (SQLITE_BUSY) is re-run on that thread
with the busy timeout.
"""

import sqlite3
import weakref
from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import exc
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.base import Executable

from homebase.db.sqlite import Driver

ONCE = "homebase_compile_once"  # execution option of a statement kept and run many times
Statement = TypeVar("Statement", bound=Executable)


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
        "supported",
    )

    def __init__(self, statement: Executable, dialect, column_keys: list[str]):
        compiled = statement.compile(dialect=dialect, column_keys=column_keys)
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ())
        # Values the statement carries (literals, bindparams given a value); the others
        # (bindparam("name") alone) each call supplies.
        self.defaults = {
            name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required
        }
        self.bind_processors = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.bind_processors[name] = processor
        self.is_dml = bool(compiled.isinsert or compiled.isupdate or compiled.isdelete)
        columns = list(getattr(statement, "exported_columns", ()) or ())
        self.result_types = [column.type.dialect_impl(dialect) for column in columns]
        self.returns_rows = bool(columns)
        self.result_processors: tuple | None = None  # from the first result's description
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

    def learn(self, description: Sequence[tuple] | None, dialect) -> bool:
        """The result's keys and processors, from the columns SQLite reports; False when
        they do not match the statement's columns one for one or repeat a name."""
        names = tuple(column[0] for column in description or ())
        if len(names) != len(self.result_types) or len(set(names)) != len(names):
            return False
        processors = []
        for index, (name, type_) in enumerate(zip(names, self.result_types, strict=True)):
            processor = type_.result_processor(dialect, None)
            if processor is not None:
                processors.append((index, name, processor))
        self.keys, self.result_processors = names, tuple(processors)
        return True


# Compiled statements, per statement object (statements marked `once` live long; a
# statement dropped takes its plans with it) and per set of inserted columns.
_PLANS: "weakref.WeakKeyDictionary[Executable, dict[tuple, Plan]]" = weakref.WeakKeyDictionary()


def _plan(statement: Executable, dialect, column_keys: list[str]) -> Plan:
    plans = _PLANS.get(statement)
    if plans is None:
        plans = _PLANS[statement] = {}
    key = tuple(column_keys)
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


def _instrumented(engine) -> bool:
    """Something listens for SQLAlchemy's cursor events (tracing, metrics)."""
    dispatch = engine.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


class Outcome:
    """`rows` are dicts with the column types' result processing applied, or, for
    `execute(..., stored=True)`, the driver's tuples as stored, in the order of `keys`."""

    __slots__ = ("rows", "rowcount", "keys")

    def __init__(self, rows: list[Any] | None, rowcount: int, keys: tuple[str, ...] = ()):
        self.rows, self.rowcount, self.keys = rows, rowcount, keys


def _run(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool, returns_rows: bool, first: bool
) -> tuple[list[tuple] | None, int, Any]:
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


def _rows(plan: Plan, raw: list[tuple]) -> list[dict[str, Any]]:
    keys, processors = plan.keys, plan.result_processors
    rows = [dict(zip(keys, row, strict=True)) for row in raw]
    if processors:
        for row, values in zip(rows, raw, strict=True):
            for index, key, processor in processors:
                row[key] = processor(values[index])
    return rows


async def execute(
    connection: AsyncConnection,
    statement: Executable,
    parameters: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
    *,
    first: bool = False,
    stored: bool = False,
) -> Outcome | None:
    """Run `statement` on the driver; None when it is left to SQLAlchemy (see above).
    With `first`, only the first row is read (the rest are never fetched); with
    `stored`, rows are the driver's tuples, without result processing."""
    if not statement.get_execution_options().get(ONCE):
        return None
    driver = driver_of(connection)
    if driver is None or _instrumented(connection.sync_engine):
        return None
    many = isinstance(parameters, list | tuple)
    if many and not parameters:
        return Outcome(None, 0)
    single = parameters[0] if many else parameters
    dialect = connection.dialect
    # Compiled for the parameters' names, as SQLAlchemy compiles for each execution (an
    # INSERT's columns are those given).
    plan = _plan(statement, dialect, sorted(single) if single else [])
    if not plan.supported or (plan.returns_rows and many):
        return None
    if plan.returns_rows and plan.result_processors is None and first:
        first = False  # the first run learns the description; read it all once
    if many and len(parameters) > 1:
        arguments: Any = [plan.arguments(row) for row in parameters]
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
        and not plan.learn(description, dialect)
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
