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

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, String, Table, bindparam, tuple_

from homebase.db.types import stored
from homebase.kit.statements import AnySelect

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


def stamp_of(dialect: str) -> Callable[[dict[str, Any]], str]:
    """The function giving a row's position stamp as the cursor holds it (text)."""
    if dialect == "sqlite":
        return _as_stored
    return _as_iso


def _as_stored(row: dict[str, Any]) -> str:
    value: str = row[STAMP]
    return value


def _as_iso(row: dict[str, Any]) -> str:
    value: datetime = row[STAMP]
    return value.isoformat()  # microseconds and offset kept: exactly what was stored
