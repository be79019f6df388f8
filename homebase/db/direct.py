"""Running SQLAlchemy Core statements straight on the SQLite driver.

Through AsyncConnection.execute a statement costs ~150 µs of Python before SQLite sees
it (a greenlet switch, an execution context, events, a Result and Row objects); the
SQLite work itself is a few µs (docs/performance.md). Here the statement is compiled
through SQLAlchemy's own compiled cache (`_compile_w_cache`, the engine's LRU, so the
SQL and bind order are exactly SQLAlchemy's), and what SQLAlchemy derives per execution
(positional parameters through the types' bind processors; rows through the types'
result processors) is derived once per compiled statement and kept on it.

Only what this covers runs here; anything else goes through SQLAlchemy unchanged
(`execute` returns None and the caller falls back): PostgreSQL, a connection outside a
transaction, statements with Python-side column defaults, schema translation,
executemany with RETURNING, textual or ambiguous result columns. Driver errors are
raised as SQLAlchemy's exception classes (IntegrityError ...), as before.

Calls go through InlineConnection._execute, which keeps its guarantees: inline unless
calls are queued on the driver's thread, and a call that meets a lock (SQLITE_BUSY) is
re-run on that thread with the busy timeout.
"""

import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy import exc
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import compiler
from sqlalchemy.sql.base import Executable

from homebase import tracing
from homebase.db.sqlite import InlineConnection

_UNSUPPORTED = object()  # a compiled statement this module leaves to SQLAlchemy


class Plan:
    """What SQLAlchemy's execution context works out per execution, worked out once."""

    __slots__ = ("sql", "positions", "bind_processors", "keys", "result_processors",
                 "returns_rows", "expanding", "is_dml")

    def __init__(self, compiled: compiler.SQLCompiler, dialect) -> None:
        self.sql = compiled.string
        self.positions = tuple(compiled.positiontup or ())
        self.bind_processors = compiled._bind_processors
        self.expanding = bool(compiled.literal_execute_params or compiled.post_compile_params)
        self.returns_rows = bool(compiled._result_columns)
        self.is_dml = bool(compiled.isinsert or compiled.isupdate or compiled.isdelete)
        keys, processors = [], []
        for index, (key, _name, _objects, type_) in enumerate(compiled._result_columns):
            keys.append(key)
            processor = type_._cached_result_processor(dialect, None)
            if processor is not None:
                processors.append((index, key, processor))
        self.keys = tuple(keys)
        self.result_processors = tuple(processors)


def _plan(compiled: compiler.SQLCompiler, dialect) -> Any:
    plan = getattr(compiled, "_homebase_plan", None)
    if plan is None:
        plan = Plan(compiled, dialect) if _supported(compiled) else _UNSUPPORTED
        compiled._homebase_plan = plan  # compiled objects live in the engine's LRU
    return plan


def _supported(compiled: compiler.SQLCompiler) -> bool:
    if not isinstance(compiled, compiler.SQLCompiler) or not compiled.positional:
        return False
    if compiled.insert_prefetch or compiled.update_prefetch or compiled.schema_translate_map:
        return False
    if compiled._textual_ordered_columns or compiled._ad_hoc_textual:
        return False
    if compiled.for_executemany and compiled._result_columns:
        return False
    keys = [column[0] for column in compiled._result_columns]
    return len(set(keys)) == len(keys)  # repeated names: RowMapping's rules apply


def driver_of(connection: AsyncConnection) -> InlineConnection | None:
    """The inline SQLite driver under `connection` while it is inside a transaction."""
    driver = getattr(connection, "homebase_driver", None)  # db/request.py's connection
    if driver is None:
        sync = connection.sync_connection
        if sync is None or sync.dialect.name != "sqlite" or not sync.in_transaction():
            return None
        fairy = sync._dbapi_connection
        driver = getattr(getattr(fairy, "dbapi_connection", None), "_connection", None)
        if not isinstance(driver, InlineConnection):
            return None
    conn = driver._conn
    return driver if conn is not None and conn.in_transaction else None


def _positional(plan: Plan, compiled, values: dict[str, Any]) -> tuple[str, list[Any]]:
    sql, positions, processors = plan.sql, plan.positions, plan.bind_processors
    if plan.expanding:
        expanded = compiled._process_parameters_for_postcompile(values)
        sql, positions = expanded.statement, expanded.positiontup
        processors = {**processors, **expanded.processors}
        values = expanded.parameters
    if processors:
        return sql, [processors[name](values[name]) if name in processors else values[name]
                     for name in positions]
    return sql, [values[name] for name in positions]


def _rows(plan: Plan, raw: list[tuple]) -> list[dict[str, Any]]:
    keys, processors = plan.keys, plan.result_processors
    rows = [dict(zip(keys, row, strict=True)) for row in raw]
    if processors:
        for row, values in zip(rows, raw, strict=True):
            for index, key, processor in processors:
                row[key] = processor(values[index])
    return rows


class Outcome:
    """`rows` are dicts with the column types' result processing applied, or, for
    `execute(..., stored=True)`, the driver's tuples as stored, in the order of `keys`."""

    __slots__ = ("rows", "rowcount", "keys")

    def __init__(self, rows: list[Any] | None, rowcount: int, keys: tuple[str, ...] = ()):
        self.rows, self.rowcount, self.keys = rows, rowcount, keys


def _run(conn: sqlite3.Connection, sql: str, parameters: Any, many: bool,
         returns_rows: bool, first: bool) -> tuple[list[tuple] | None, int]:
    cursor = conn.executemany(sql, parameters) if many else conn.execute(sql, parameters)
    try:
        if not returns_rows:
            return None, cursor.rowcount
        if first:
            row = cursor.fetchone()
            return ([] if row is None else [row]), cursor.rowcount
        return cursor.fetchall(), cursor.rowcount
    finally:
        cursor.close()


async def execute(connection: AsyncConnection, statement: Executable,
                  parameters: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
                  *, first: bool = False, stored: bool = False) -> Outcome | None:
    """Run `statement` on the driver; None when it is left to SQLAlchemy (see above).
    With `first`, only the first row is read (the rest are never fetched); with
    `stored`, rows are the driver's tuples, without result processing."""
    driver = driver_of(connection)
    if driver is None:
        return None
    many = isinstance(parameters, list | tuple)
    if many and not parameters:
        return Outcome(None, 0)
    single = parameters[0] if many else parameters
    sync_engine = connection.sync_engine
    dialect = sync_engine.dialect
    compiled, extracted, collected, _ = statement._compile_w_cache(
        dialect, compiled_cache=sync_engine._compiled_cache,
        column_keys=sorted(single) if single else [], for_executemany=many and len(parameters) > 1,
        schema_translate_map=None,
        linting=dialect.compiler_linting | compiler.WARN_LINTING)
    if extracted is None:  # not cacheable: SQLAlchemy compiles it every time anyway
        return None
    plan = _plan(compiled, dialect)
    if plan is _UNSUPPORTED:
        return None
    if many and len(parameters) > 1:
        if plan.expanding:
            return None
        sql = plan.sql
        arguments = [_positional(plan, compiled, compiled.construct_params(
            row, extracted_parameters=extracted, escape_names=False, _group_number=group,
            _collected_params=collected))[1] for group, row in enumerate(parameters)]
    else:
        sql, arguments = _positional(plan, compiled, compiled.construct_params(
            single, extracted_parameters=extracted, escape_names=False,
            _collected_params=collected))
        many = False
    run = driver._execute(_run, driver._conn, sql, arguments, many, plan.returns_rows,
                          first and not plan.is_dml)
    try:
        if tracing.ACTIVE:  # this path bypasses the engine and its instrumentation
            raw, rowcount = await tracing.traced_statement(
                run, "sqlite", sync_engine.url.database, sql)
        else:
            raw, rowcount = await run
    except sqlite3.Error as error:
        raise exc.DBAPIError.instance(sql, arguments, error, sqlite3.Error,
                                      dialect=dialect) from error
    if stored:
        return Outcome(raw, rowcount, plan.keys)
    return Outcome(_rows(plan, raw) if raw is not None else None, rowcount)


