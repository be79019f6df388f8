"""The statement of a sync walk: a list asked for what changed (`updated_after`,
docs/sync.md), the same for the six lists that take it (http/lists.py runs it).

    WHERE <the list's own scope and filters>
      AND updated_at <= :horizon                     -- settled only (db/settle.py)
      AND updated_at > :after                        -- the first page
       or (updated_at, id) > (:at, :id)              -- a later one: the cursor's position
    ORDER BY updated_at, id LIMIT :limit + 1

The (workspace_id, updated_at, id) index of each synced table (migration 0019) gives the
rows in that order from the position on, on both databases, so a page deep in a walk
costs what the first does (docs/sync.md, "Cost").

The position is the last row's updated_at exactly as stored: on SQLite the column's text
(what SQLAlchemy wrote, compared as text, so it is bound back as text), on PostgreSQL the
timestamptz as asyncpg reads it (microseconds, exact). A rendering in milliseconds, or
anything parsed and formatted again, could differ from the stored value and skip or
repeat rows stamped in the same millisecond.
"""

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import ColumnElement, Integer, String, Table, bindparam, tuple_

from homebase.db.tenancy import TenantSession
from homebase.db.types import stored
from homebase.kit.statements import AnySelect
from homebase.paging.pages import Built

# Where a walk resumed from a cursor alone starts when the cursor's stamp is one this
# database could not have stored: every change, as a stale cursor restarts a list.
BEGINNING = datetime(1, 1, 1, tzinfo=UTC)
Position = tuple[str, str]  # (the last row's stamp as stored, its id)
Row = TypeVar("Row", bound=Mapping[str, Any])
STAMP = "sync_stamp"  # the position's stamp, a column of each row the walk reads
AFTER, AT, LAST_ID = "changes_after", "changes_at", "changes_last_id"
HORIZON, LIMIT = "changes_horizon", "changes_limit"


def _stamp(column: ColumnElement[Any], dialect: str) -> ColumnElement[Any]:
    return stored(column).label(STAMP) if dialect == "sqlite" else column.label(STAMP)


def statement(base: AnySelect, table: Table, dialect: str, *, resuming: bool) -> AnySelect:
    """`base` (the list's select of `table`: its scope, columns and filters) as one page
    of a walk by (updated_at, id) ascending, with bindparams (`first_params`,
    `resume_params`), so it can be built once per shape. `resuming`: from a cursor's
    position rather than from `updated_after`."""
    stamp, id_column = table.c.updated_at, table.c.id
    walk = base.add_columns(_stamp(stamp, dialect)).where(
        stamp <= bindparam(HORIZON, type_=stamp.type)
    )
    if resuming:
        at = bindparam(AT, type_=String() if dialect == "sqlite" else stamp.type)
        # A row value: both databases seek the (workspace_id, updated_at, id) index to
        # the position and walk on from there (docs/sync.md, "Cost").
        walk = walk.where(tuple_(stamp, id_column) > tuple_(at, bindparam(LAST_ID, type_=String())))
    else:
        walk = walk.where(stamp > bindparam(AFTER, type_=stamp.type))
    return walk.order_by(stamp.asc(), id_column.asc()).limit(bindparam(LIMIT, type_=Integer()))


def first_params(after: datetime, horizon: datetime, limit: int) -> dict[str, Any]:
    """The values of a first page's bindparams (`statement`, not resuming)."""
    return {AFTER: after, HORIZON: horizon, LIMIT: limit + 1}


def resume_params(
    dialect: str, position: tuple[str, str], horizon: datetime, limit: int
) -> dict[str, Any] | None:
    """The values of a later page's bindparams; None when the position's stamp is not
    one this database could have stored (a cursor from another database's walk)."""
    stamp, last_id = position
    at: str | datetime = stamp
    if dialect != "sqlite":
        try:
            at = datetime.fromisoformat(stamp)
        except ValueError:
            return None
        if at.tzinfo is None:
            return None
    return {AT: at, LAST_ID: last_id, HORIZON: horizon, LIMIT: limit + 1}


def stamp_of(dialect: str) -> Callable[[Mapping[str, Any]], str]:
    """The function giving a row's position stamp as the cursor holds it (text)."""
    if dialect == "sqlite":
        return _as_stored
    return _as_iso


def _as_stored(row: Mapping[str, Any]) -> str:
    value: str = row[STAMP]
    return value


def _as_iso(row: Mapping[str, Any]) -> str:
    value: datetime = row[STAMP]
    return value.isoformat()  # microseconds and offset kept: exactly what was stored


def without_stamp(row: Row) -> Row:
    """`row` without its stamp (the walk's own column, no member of what is rendered from
    the row, which a render may make from the row itself): once the cursor holds it."""
    cast("dict[str, object]", row).pop(STAMP, None)
    return row


def position(dialect: str, row: Mapping[str, Any]) -> Position:
    """Where a walk goes on after `row`, as a cursor holds it."""
    return stamp_of(dialect)(row), row["id"]


async def page(
    session: TenantSession,
    build: Callable[[bool], Built],
    *,
    updated_after: datetime | None,
    after: Position | None,
    horizon: datetime,
    limit: int,
) -> list[dict[str, Any]]:
    """Up to `limit` + 1 rows of a walk (the last says whether there is more): on from
    `after` (the last row served: a cursor's position, an export's previous batch) when
    given, else from `updated_after`. `build(resuming)` gives the list's walk statement
    (`statement` over its scope, columns and filters), or a kept one and its own
    bindparams' values. A list page (http/lists.py) and an export's batch
    (exports/jobs.py) both read a walk through here, so an export's file is the list
    walked page by page."""
    values = resume_params(session.dialect, after, horizon, limit) if after else None
    if values is None:
        values = first_params(updated_after or BEGINNING, horizon, limit)
    built = build(AT in values)
    statement, own = built if isinstance(built, tuple) else (built, {})
    return await session.fetch_all(statement, {**own, **values})
