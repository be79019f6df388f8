"""Tenant scoping in one place.

Every domain query starts from a TenantSession: reads through `select`, writes through
`insert` / `update` / `delete`, each of which adds `workspace_id = <the credential's
workspace>` itself. Repositories receive a TenantSession, never a bare connection, so a
new endpoint cannot forget the scope, and another workspace's id is simply not found.

Hot paths may build a statement once, at import, with `tenant_select` / `tenant_update`
(module functions) and bindparams for their values: the workspace filter
is then a bindparam that only a TenantSession fills, always with its own workspace (a
caller's value for it is overwritten), so such a statement cannot run unscoped or for
another workspace either. Building and cache-keying a statement per request cost more
than running it (docs/performance.md). They are marked `direct.once`, so on SQLite they
run straight on the driver, compiled once (db/direct.py).
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import String, Table, bindparam, delete, insert, literal_column, select, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Delete, Select, Update

from homebase.db import direct
from homebase.kit.clock import Clock, system_clock

_MARK = "homebase_tenant"
_TEMPLATE = "\x00template"  # the mark of a tenant_* statement; never a workspace id
WORKSPACE = "tenant_workspace_id"  # the bindparam a TenantSession fills in templates
_INSERTS: dict[Table, Any] = {}  # insert(table), built once: its cache key is memoized


def _insert(table: Table):
    statement = _INSERTS.get(table)
    if statement is None:
        statement = _INSERTS[table] = direct.once(insert(table))
    return statement


class StoredRows(NamedTuple):
    """Rows as tuples in the order of `keys`. With `stored` true (SQLite, run on the
    driver directly) the values are as the database holds them, before the column types'
    result processing (UTCDateTime text, JSON text); otherwise they are processed."""

    keys: tuple[str, ...]
    rows: list[tuple]
    stored: bool


def _unique_keys(result) -> list[str] | None:
    """The result's column names, or None when some repeat (RowMapping's rules apply)."""
    keys = list(result.keys())
    return keys if len(set(keys)) == len(keys) else None


def tenant_select(table: Table, *columns: Any) -> Select:
    """TenantSession.select built once: run it with `session.fetch_*(statement, params)`."""
    statement = select(*(columns or (table,))).where(table.c.workspace_id == bindparam(WORKSPACE))
    return direct.once(statement.execution_options(**{_MARK: _TEMPLATE}))


def tenant_update(table: Table) -> Update:
    """TenantSession.update built once; set values with bindparams (names other than the
    columns'), run with `session.execute(statement, params)` or `fetch_one` (RETURNING)."""
    statement = update(table).where(table.c.workspace_id == bindparam(WORKSPACE))
    return direct.once(statement.execution_options(**{_MARK: _TEMPLATE}))


class UnscopedQuery(RuntimeError):
    """A statement reached a TenantSession without having been built by it."""


class TenantSession:
    def __init__(
        self,
        connection: AsyncConnection,
        workspace_id: str,
        *,
        clock: Clock = system_clock,
        actor: str | None = None,
    ):
        self.connection = connection
        self.workspace_id = workspace_id
        self.clock = clock
        self.actor = actor

    @property
    def dialect(self) -> str:
        return self.connection.dialect.name

    def now(self) -> datetime:
        return self.clock()

    def select(self, table: Table, *columns: Any) -> Select:
        statement = select(*(columns or (table,))).where(table.c.workspace_id == self.workspace_id)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def select_via_other_index(self, table: Table, *columns: Any) -> Select:
        """select() for a statement another index drives (the contact search's FTS5
        rowids, contacts/search.py). On SQLite the workspace filter is written
        `+workspace_id = ?`, SQLite's documented way to keep a term from choosing an
        index; rows are filtered by it all the same. Without it SQLite prefers the
        (workspace_id, id) index for the order and probes every row of the workspace.
        Elsewhere this is select()."""
        if self.dialect != "sqlite":
            return self.select(table, *columns)
        scope = literal_column(f"+{table.name}.workspace_id", String) == self.workspace_id
        statement = select(*(columns or (table,))).where(scope)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def update(self, table: Table) -> Update:
        statement = update(table).where(table.c.workspace_id == self.workspace_id)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def delete(self, table: Table) -> Delete:
        statement = delete(table).where(table.c.workspace_id == self.workspace_id)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def _checked(self, statement, params: dict[str, Any] | None) -> dict[str, Any] | None:
        """The parameters to run `statement` with, if this session may run it."""
        mark = statement.get_execution_options().get(_MARK)
        if mark == self.workspace_id:
            return params
        if mark == _TEMPLATE:
            return (
                {**params, WORKSPACE: self.workspace_id}
                if params
                else {WORKSPACE: self.workspace_id}
            )
        raise UnscopedQuery("build statements with TenantSession.select/update/delete")

    async def insert(self, table: Table, values: dict[str, Any]) -> None:
        row = {**values, "workspace_id": self.workspace_id}
        if await direct.execute(self.connection, _insert(table), row) is None:
            await self.connection.execute(_insert(table), row)

    async def insert_many(self, table: Table, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            rows = [{**row, "workspace_id": self.workspace_id} for row in rows]
            if await direct.execute(self.connection, _insert(table), rows) is None:
                await self.connection.execute(_insert(table), rows)

    async def fetch_one(
        self, statement: Select, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """`params` fill the statement's named bindparams (a statement built once and
        kept, e.g. a keyset page, run with this request's values)."""
        params = self._checked(statement, params)
        outcome = await direct.execute(self.connection, statement, params, first=True)
        if outcome is not None:
            return outcome.rows[0] if outcome.rows else None
        result = await self.connection.execute(statement, params)
        keys = _unique_keys(result)
        if keys is None:
            row = result.mappings().first()
            return dict(row) if row is not None else None
        row = result.first()
        return dict(zip(keys, row, strict=True)) if row is not None else None

    async def fetch_all(
        self, statement: Select, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        params = self._checked(statement, params)
        outcome = await direct.execute(self.connection, statement, params)
        if outcome is not None:
            return outcome.rows or []
        result = await self.connection.execute(statement, params)
        keys = _unique_keys(result)
        if keys is None:
            return [dict(row) for row in result.mappings()]
        # zip with the keys read once: a RowMapping per row rebuilds its key view.
        return [dict(zip(keys, row, strict=True)) for row in result]

    async def fetch_stored(
        self, statement: Select, params: dict[str, Any] | None = None
    ) -> StoredRows:
        """fetch_all for a renderer that reads stored values itself (the contact list,
        contacts/render.py): on SQLite, parsing every timestamp into a datetime only to
        format it back was a third of a page's CPU (docs/performance.md)."""
        params = self._checked(statement, params)
        outcome = await direct.execute(self.connection, statement, params, stored=True)
        if outcome is not None:
            return StoredRows(outcome.keys, outcome.rows or [], True)
        result = await self.connection.execute(statement, params)
        return StoredRows(tuple(result.keys()), [tuple(row) for row in result], False)

    async def execute(
        self, statement: Update | Delete, params: dict[str, Any] | None = None
    ) -> int:
        params = self._checked(statement, params)
        outcome = await direct.execute(self.connection, statement, params)
        if outcome is not None:
            return outcome.rowcount
        return (await self.connection.execute(statement, params)).rowcount
