"""Kept statements run on the driver connection, as SQLAlchemy compiled them.

A statement object run a second time (a module constant, a template) runs as SQLAlchemy's
public `compile()` wrote it, with its types' processors, on the documented driver connection
(`get_raw_connection().driver_connection`: asyncpg, or db/sqlite.py's Driver). SQLAlchemy
runs the rest: a statement seen once, one completed at run time, all while tracing spans SQL
(`DIRECT`). Driver errors are raised as SQLAlchemy's; a broken connection is invalidated."""

import functools
import sqlite3
import weakref
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy import bindparam, exc, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable

from homebase.db import unavailable

DIRECT = True  # False while OpenTelemetry instruments SQLAlchemy: it spans every statement
_INFO = "homebase_driver"  # the connection's info: its driver connection
# An INSERT's execution option (TenantSession.insert's): many rows go by COPY on PostgreSQL
# (below COPY_ROWS by executemany: COPY's set-up costs more), on SQLite in multi-row
# INSERTs (one a row made the contacts' FTS5 and tag triggers write each on its own).
COPY, COPY_ROWS, MANY_ROWS = "homebase_copy", 50, 64


@dataclass(frozen=True, slots=True)
class Prepared:  # names: the positional parameters'; keys: the row's (none: no rows)
    sql: str
    names: tuple[str, ...]
    binds: tuple[Any, ...]
    keys: tuple[str, ...]
    converted: tuple[tuple[str, Any], ...]  # (key, result processor), where there is one
    compiled: Any  # SQLAlchemy's Compiled: construct_params() fills constants and names
    # an insert whose every parameter is a key of the rows it was prepared for: each row's
    # values are read straight from it (a batch's 250 rows skip 250 construct_params)
    from_row: bool = False
    copy_into: tuple[str, list[str]] | None = None  # an INSERT marked COPY: (table, columns)


# statement -> {(dialect, parameter names): Prepared or None (SQLAlchemy runs it)}
_SEEN: "weakref.WeakKeyDictionary[Executable, dict[Any, Prepared | None]]"
_SEEN = weakref.WeakKeyDictionary()


def _prepare(statement: Any, dialect: Dialect, names: tuple[str, ...]) -> Prepared | None:
    compiled = statement.compile(dialect=dialect, column_keys=list(names) or None)
    binds = [compiled.binds[name] for name in compiled.positiontup or ()]
    if compiled.positiontup is None or compiled.insert_prefetch or compiled.update_prefetch:
        return None  # SQLAlchemy completes these at run time
    if any(bind.expanding or bind.literal_execute for bind in compiled.binds.values()):
        return None
    columns = list(statement.exported_columns)
    return Prepared(
        compiled.string,
        tuple(compiled.positiontup),
        tuple(bind.type.dialect_impl(dialect).bind_processor(dialect) for bind in binds),
        tuple(column.key for column in columns),
        tuple(
            (c.key, process)
            for c in {c.key: c for c in columns}.values()  # the last of a key, as a dict keeps
            if (process := c.type.dialect_impl(dialect).result_processor(dialect, None))
        ),
        compiled,
        _reads_rows(statement, compiled.positiontup, names),
        _copy_into(statement, compiled.positiontup),
    )


def _reads_rows(statement: Any, parameters: list[str], names: tuple[str, ...]) -> bool:
    return bool(statement.is_insert) and set(parameters) <= set(names)  # (Prepared.from_row)


def _copy_into(statement: Any, parameters: list[str]) -> tuple[str, list[str]] | None:
    """The table and columns, in the parameters' order, of an INSERT marked COPY."""
    if not statement.get_execution_options().get(COPY):
        return None
    return statement.table.name, [statement.table.c[name].name for name in parameters]


def _form(
    connection: AsyncConnection, statement: Any, rows: list[dict[str, Any]]
) -> Prepared | None:
    """The statement compiled for this connection, or None: SQLAlchemy runs it."""
    forms = _SEEN.get(statement)
    if forms is None or not DIRECT:
        _SEEN[statement] = {}
        return None
    key = (connection.dialect.name, tuple(sorted(rows[0])) if statement.is_insert else ())
    if key not in forms:
        forms[key] = _prepare(statement, connection.dialect, key[1])
    found = forms[key]
    return None if found is not None and len(rows) > 1 and found.keys else found


def _values(form: Prepared, row: dict[str, Any]) -> list[Any]:
    params = row if form.from_row else form.compiled.construct_params(row)
    return [
        value if bind is None else bind(value)
        for bind, value in zip(form.binds, (params[name] for name in form.names), strict=True)
    ]


async def execute(
    connection: AsyncConnection, statement: Any, params: Any = None, *, one: bool = False
) -> tuple[list[dict[str, Any]], int]:
    """The rows (as dicts; the first only with `one`) and the row count of `statement`
    run with `params` (a dict, or a list of dicts: one row each; see COPY)."""
    rows = params if isinstance(params, list) else [params or {}]
    form = _form(connection, statement, rows)
    if form is not None:
        raw = await _driver(connection)
        try:
            found, count = await _execute(raw, form, [_values(form, row) for row in rows])
        except (asyncpg.PostgresError, sqlite3.Error, *unavailable.BROKEN) as error:
            raise await _translated(connection, form.sql, error) from error
        return _dicts(form, found[:1] if one else found), count
    result = await connection.execute(statement, params)
    if not result.returns_rows:
        return [], result.rowcount
    keys = tuple(result.keys())  # once: a RowMapping per row rebuilds its key view
    read = ([first] if (first := result.first()) else []) if one else result.all()
    return [dict(zip(keys, row, strict=True)) for row in read], result.rowcount


async def insert_together(connection: AsyncConnection, parts: list[tuple[Any, Any]]) -> None:
    """Each (kept INSERT, its rows): on PostgreSQL one statement, the first INSERT with the
    others as data-modifying CTEs (`_together`), one round trip; else one after another."""
    together = len(parts) > 1 and connection.dialect.name == "postgresql"
    found = [_form(connection, insert, rows) for insert, rows in parts] if together else []
    forms = [form for form in found if form is not None]
    if not together or len(forms) < len(parts):
        for insert, rows in parts:
            await execute(connection, insert, rows)
        return
    raw = await _driver(connection)
    shape: list[tuple[Any, tuple[str, ...], int]] = []
    flat: list[Any] = []
    for (insert, rows), form in zip(parts, forms, strict=True):
        shape.append((insert.table, form.names, len(rows)))
        flat.extend(value for row in rows for value in _values(form, row))
    sql, places = _together(connection.dialect, tuple(shape))
    try:
        await raw.execute(sql, *(flat[place] for place in places))
    except (asyncpg.PostgresError, *unavailable.BROKEN) as error:
        raise await _translated(connection, sql, error) from error


@functools.lru_cache(maxsize=256)
def _together(dialect: Dialect, shape: tuple[tuple[Any, tuple[str, ...], int], ...]) -> Any:
    """The SQL SQLAlchemy compiles for (table, columns, rows) parts, one multi-row INSERT
    with the others' as CTEs, and its parameters' places in the parts' values end to end."""
    statements, start = [], 0
    for table, names, count in shape:
        rows = [
            {
                key: bindparam(f"p{start + row * len(names) + at}", type_=table.c[key].type)
                for at, key in enumerate(names)
            }
            for row in range(count)
        ]
        statements.append(insert(table).values(rows))
        start += count * len(names)
    first, *rest = statements
    for at, statement in enumerate(rest):
        first = first.add_cte(statement.cte(f"together_{at}"))
    compiled = first.compile(dialect=dialect)
    return compiled.string, [int(name[1:]) for name in compiled.positiontup or ()]


def _dicts(form: Prepared, rows: list[Any]) -> list[dict[str, Any]]:
    """Each row as a dict of the statement's keys; only a column whose type converts what
    the driver hands over is touched again (most of a page's columns are not)."""
    found = [dict(zip(form.keys, row, strict=False)) for row in rows]  # (one statement's)
    for key, process in form.converted:
        for row in found:
            if (value := row[key]) is not None:
                row[key] = process(value)
    return found


async def _driver(connection: AsyncConnection) -> Any:
    """The driver connection: asyncpg's, or db/sqlite.py's Driver."""
    if (raw := connection.info.get(_INFO)) is None:
        raw = connection.info[_INFO] = (await connection.get_raw_connection()).driver_connection
    return raw


@asynccontextmanager
async def begin(connection: AsyncConnection) -> AsyncIterator[None]:
    """A PostgreSQL write block's transaction, asyncpg's, begun at once, so the block's first
    statement runs on the driver too; SQLAlchemy's run inside it (its engine: AUTOCOMMIT).
    A ROLLBACK that fails invalidates the connection; the block's error stands."""
    transaction = await _checked(connection, _started(await _driver(connection)), "BEGIN")
    try:
        yield
    except BaseException:
        if not connection.invalidated:
            try:
                await _checked(connection, transaction.rollback(), "ROLLBACK")
            except Exception:
                if not connection.invalidated:
                    await connection.invalidate()
        raise
    await _checked(connection, transaction.commit(), "COMMIT")


def spent(connection: AsyncConnection) -> bool:
    """Whether its asyncpg connection closed or kept its transaction open: never reused."""
    if connection.invalidated or connection.closed:
        return False
    raw = connection.info.get(_INFO)
    return isinstance(raw, asyncpg.Connection) and (raw.is_closed() or raw.is_in_transaction())


async def _started(raw: asyncpg.Connection) -> Any:
    transaction = raw.transaction()  # (raises at once on a connection known to be closed)
    await transaction.start()
    return transaction


async def _checked(connection: AsyncConnection, step: Awaitable[Any], sql: str) -> Any:
    try:
        return await step
    except (asyncpg.PostgresError, *unavailable.BROKEN) as error:
        raise await _translated(connection, sql, error) from error


async def _execute(raw: Any, form: Prepared, values: list[list[Any]]) -> tuple[list[Any], int]:
    if isinstance(raw, asyncpg.Connection):
        if form.copy_into is not None and len(values) >= COPY_ROWS:  # values as bound
            table, columns = form.copy_into
            await raw.copy_records_to_table(table, records=values, columns=columns)
            return [], len(values)
        if len(values) > 1:
            await raw.executemany(form.sql, values)
            return [], len(values)
        if form.keys:
            found = await raw.fetch(form.sql, *values[0])
            return found, len(found)
        status = await raw.execute(form.sql, *values[0])
        return [], int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else -1
    if form.copy_into is not None and len(values) > 1:
        done: tuple[list[Any], int] = await raw.call(_many, raw.sqlite, _in_many(form, values))
    else:
        done = await raw.call(_sqlite, raw.sqlite, form.sql, values)
    return done


def _sqlite(connection: sqlite3.Connection, sql: str, values: list[list[Any]]) -> Any:
    if len(values) > 1:
        return [], connection.executemany(sql, values).rowcount
    cursor = connection.execute(sql, values[0])
    return cursor.fetchall(), cursor.rowcount


def _in_many(form: Prepared, values: list[list[Any]]) -> list[tuple[str, list[Any]]]:
    """The rows as multi-row INSERTs of MANY_ROWS, then of half as many...: (SQL, values)."""
    found: list[tuple[str, list[Any]]] = []
    start, table = 0, form.compiled.statement.table
    while start < len(values):
        size = min(MANY_ROWS, 1 << ((len(values) - start).bit_length() - 1))
        sql, places = _together(form.compiled.dialect, ((table, form.names, size),))
        flat = [value for row in values[start : start + size] for value in row]
        found.append((sql, [flat[place] for place in places]))
        start += size
    return found


def _many(connection: sqlite3.Connection, statements: list[tuple[str, list[Any]]]) -> Any:
    return [], sum(connection.execute(sql, flat).rowcount for sql, flat in statements)


async def _translated(connection: AsyncConnection, sql: str, error: Exception) -> Exception:
    """SQLAlchemy's exception for a driver's error; a broken connection invalidated."""
    if unavailable.breaks_connection(error):
        await connection.invalidate()
        return exc.DBAPIError(sql, None, error, connection_invalidated=True)
    state = str(getattr(error, "sqlstate", "") or "")
    integrity = state.startswith("23") or isinstance(error, sqlite3.IntegrityError)
    kind = exc.OperationalError if isinstance(error, sqlite3.OperationalError) else exc.DBAPIError
    return (exc.IntegrityError if integrity else kind)(sql, None, error)
