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
than running it (docs/performance.md). They are marked `direct.once`, so on SQLite and
on a /v1 request's PostgreSQL connection they run straight on the driver, compiled once
(db/direct.py).

The session hands out no connection: what a domain needs beyond select/insert/update/
delete is a method here (running a statement: fetch_one, fetch_all, fetch_stored,
execute, execute_later, fetch_one_committed; a conditional insert, an upsert, the
workspace's own row, announcing background work), each scoped to the session's
workspace. A statement that
must reach across workspaces (an email's password salt, a global OAuth app) is declared
with `across_workspaces` where it is built, and tests/db/test_tenant_scoping.py allows that,
like any statement run outside a TenantSession, only in the modules it lists, each
with its reason.
"""

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import (
    CursorResult,
    String,
    Table,
    TextClause,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import ColumnElement, Delete, Executable, Insert, Update

from homebase.db import direct, work
from homebase.kit.clock import Clock, system_clock
from homebase.kit.statements import AnySelect, AnyStatement
from homebase.models.workspace import Workspace

_MARK = "homebase_tenant"
_TEMPLATE = "\x00template"  # the mark of a tenant_* statement; never a workspace id
_ACROSS = "\x00across"  # the mark of an across_workspaces statement; never a workspace id
WORKSPACE = "tenant_workspace_id"  # the bindparam a TenantSession fills in templates
Statement = TypeVar("Statement", bound=Executable)
_INSERTS: dict[Table, Insert] = {}  # insert(table), built once: its cache key is memoized


def _insert(table: Table) -> Insert:
    statement = _INSERTS.get(table)
    if statement is None:
        statement = _INSERTS[table] = direct.once(insert(table))
    return statement


class StoredRows(NamedTuple):
    """Rows (tuples, or asyncpg records) in the order of `keys`. With `stored` true
    (SQLite, run on the driver directly) the values are as the database holds them,
    before the column types' result processing (UTCDateTime text, JSON text); otherwise
    they are processed, or asyncpg's own values (aware datetimes, not always in UTC, and
    decoded JSON), which only kit.clock.isoformat may read."""

    keys: tuple[str, ...]
    rows: Sequence[Sequence[Any]]
    stored: bool


# A one-row FROM item whose evaluation sets synchronous_commit off for the statement's
# own transaction (set_config's is_local: SET LOCAL).
_ASYNC_COMMIT = select(
    func.set_config(
        literal_column("'synchronous_commit'", String), literal_column("'off'", String), True
    ).label("setting")
).subquery("async_commit")


@lru_cache(maxsize=64)
def _committed_alone(statement: Update) -> Update:
    """`statement` (PostgreSQL) with its transaction's commit made asynchronous, for
    fetch_one_committed when it runs on its own; built once per statement."""
    return statement.where(_ASYNC_COMMIT.c.setting.is_not(None))


def _unique_keys(result: CursorResult[*tuple[Any, ...]]) -> list[str] | None:
    """The result's column names, or None when some repeat (RowMapping's rules apply)."""
    keys = list(result.keys())
    return keys if len(set(keys)) == len(keys) else None


def tenant_select(table: Table, *columns: Any) -> AnySelect:
    """TenantSession.select built once: run it with `session.fetch_*(statement, params)`."""
    statement = select(*(columns or (table,))).where(table.c.workspace_id == bindparam(WORKSPACE))
    return direct.once(statement.execution_options(**{_MARK: _TEMPLATE}))


def tenant_update(table: Table) -> Update:
    """TenantSession.update built once; set values with bindparams (names other than the
    columns'), run with `session.execute(statement, params)` or `fetch_one` (RETURNING)."""
    statement = update(table).where(table.c.workspace_id == bindparam(WORKSPACE))
    return direct.once(statement.execution_options(**{_MARK: _TEMPLATE}))


def across_workspaces(statement: Statement) -> Statement:
    """`statement`, declared to reach across workspaces: a TenantSession runs it as it is
    (it adds no workspace filter). Only the modules tests/db/test_tenant_scoping.py allows
    may declare one; build it once, at import, with bindparams for its values."""
    return direct.once(statement.execution_options(**{_MARK: _ACROSS}))


_workspaces = Workspace.__table__
# The session's own workspace row: the tenant itself, so it is found by its id.
_OWN_WORKSPACE = direct.once(select(_workspaces).where(_workspaces.c.id == bindparam(WORKSPACE)))
_OWN_SETTINGS = direct.once(
    update(_workspaces)
    .where(_workspaces.c.id == bindparam(WORKSPACE))
    .values(settings=bindparam("new_settings"))
)


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
        self._connection = connection  # private: every statement goes through a method
        self.workspace_id = workspace_id
        self.clock = clock
        self.actor = actor

    @property
    def dialect(self) -> str:
        return self._connection.dialect.name

    def now(self) -> datetime:
        return self.clock()

    def select(self, table: Table, *columns: Any) -> AnySelect:
        statement = select(*(columns or (table,))).where(table.c.workspace_id == self.workspace_id)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def select_via_other_index(self, table: Table, *columns: Any) -> AnySelect:
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

    def _checked(
        self, statement: AnyStatement, params: dict[str, Any] | None
    ) -> dict[str, Any] | None:
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
        if mark == _ACROSS:
            return params
        raise UnscopedQuery("build statements with TenantSession.select/update/delete")

    async def insert(self, table: Table, values: dict[str, Any]) -> None:
        """Inserts the row in this workspace. On a PostgreSQL write request it may be
        sent later, with the request's other writes, in one statement (db/batch.py): a
        constraint it breaks is raised then, failing the request. A caller that handles
        a conflict uses `insert_if_absent` or `upsert`."""
        row = {**values, "workspace_id": self.workspace_id}
        if await direct.execute(self._connection, _insert(table), row, defer=True) is None:
            await self._connection.execute(_insert(table), row)

    async def insert_many(self, table: Table, rows: Sequence[dict[str, Any]]) -> None:
        """`insert` of several rows (one statement)."""
        if rows:
            rows = [{**row, "workspace_id": self.workspace_id} for row in rows]
            if await direct.execute(self._connection, _insert(table), rows, defer=True) is None:
                await self._connection.execute(_insert(table), rows)

    async def fetch_one(
        self, statement: AnySelect | Update, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """`params` fill the statement's named bindparams (a statement built once and
        kept, e.g. a keyset page, run with this request's values)."""
        params = self._checked(statement, params)
        outcome = await direct.execute(self._connection, statement, params, first=True)
        if outcome is not None:
            return outcome.rows[0] if outcome.rows else None
        result = await self._connection.execute(statement, params)
        keys = _unique_keys(result)
        if keys is None:
            mapping = result.mappings().first()
            return dict(mapping) if mapping is not None else None
        row = result.first()
        return dict(zip(keys, row, strict=True)) if row is not None else None

    async def fetch_one_committed(
        self, statement: Update, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """`fetch_one` for an UPDATE ... RETURNING that takes the next value of a
        counter (a round-robin turn): on a PostgreSQL request that has written nothing
        yet it runs on its own and commits at once, so its row lock ends when it returns
        instead of holding every other taker until the request ends. The value is then
        the caller's even if the request fails later, as a sequence's is. Elsewhere
        (SQLite, a transaction that has written) it is `fetch_one`.

        That commit does not wait for its WAL to reach the disk (synchronous_commit off
        for its transaction, _committed_alone): waiting held the row lock through a
        flush, so every taker queued behind the previous one's fsync (docs/leads.md).
        Nothing the request reports depends on it alone: the request's own commit comes
        later and is synchronous, and flushing the WAL to its record flushes this one,
        which precedes it. A crash before that loses at most a turn that no answered
        request used."""
        params = self._checked(statement, params)
        alone = _committed_alone(statement) if self.dialect == "postgresql" else None
        outcome = await direct.execute(self._connection, statement, params, alone=alone)
        if outcome is not None:
            return outcome.rows[0] if outcome.rows else None
        return await self.fetch_one(statement, params)

    async def fetch_all(
        self, statement: AnySelect, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        params = self._checked(statement, params)
        outcome = await direct.execute(self._connection, statement, params)
        if outcome is not None:
            return outcome.rows or []
        result = await self._connection.execute(statement, params)
        keys = _unique_keys(result)
        if keys is None:
            return [dict(row) for row in result.mappings()]
        # zip with the keys read once: a RowMapping per row rebuilds its key view.
        return [dict(zip(keys, row, strict=True)) for row in result]

    async def fetch_stored(
        self, statement: AnySelect, params: dict[str, Any] | None = None
    ) -> StoredRows:
        """fetch_all for a renderer that reads stored values itself (the contact list,
        contacts/render.py): on SQLite, parsing every timestamp into a datetime only to
        format it back was a large part of a page's CPU (docs/performance.md); on PostgreSQL
        the rows are asyncpg's, unprocessed (StoredRows)."""
        params = self._checked(statement, params)
        outcome = await direct.execute(self._connection, statement, params, stored=True)
        if outcome is not None:
            return StoredRows(outcome.keys, outcome.rows or [], outcome.stored)
        result = await self._connection.execute(statement, params)
        return StoredRows(tuple(result.keys()), [tuple(row) for row in result], False)

    async def execute(
        self, statement: Update | Delete | Insert, params: dict[str, Any] | None = None
    ) -> int:
        """The rows changed. An Insert runs only if declared `across_workspaces`; the
        session's own inserts are `insert` / `insert_many` / `insert_if_absent` / `upsert`."""
        params = self._checked(statement, params)
        outcome = await direct.execute(self._connection, statement, params)
        if outcome is not None:
            return outcome.rowcount
        return (await self._connection.execute(statement, params)).rowcount

    async def execute_later(
        self,
        statement: Update | Delete,
        params: dict[str, Any] | None = None,
        *,
        disjoint: bool = False,
    ) -> None:
        """`execute` for a write whose row count nobody reads: on a PostgreSQL write
        request it may be sent later, with the request's other writes, in one statement
        (db/batch.py); an error it meets is raised then, failing the request. With
        `disjoint`, the caller vouches that the rows it changes are none that the
        request's earlier writes to its table changed, and that those writes moved no row
        into or out of its WHERE: it may then join them in one statement, which sees the
        table as it was before them."""
        params = self._checked(statement, params)
        outcome = await direct.execute(
            self._connection, statement, params, defer=True, disjoint=disjoint
        )
        if outcome is None:
            await self._connection.execute(statement, params)

    def _dialect_insert(
        self, table: Table, values: dict[str, Any]
    ) -> postgresql.Insert | sqlite.Insert:
        insert_ = postgresql_insert if self.dialect == "postgresql" else sqlite_insert
        return insert_(table).values(**{**values, "workspace_id": self.workspace_id})

    async def insert_if_absent(
        self,
        table: Table,
        values: dict[str, Any],
        *,
        conflict: Sequence[str],
        index_where: ColumnElement[bool] | TextClause | None = None,
    ) -> bool:
        """INSERT ... ON CONFLICT (conflict) DO NOTHING, the row in this workspace: True
        when inserted, False when a row with those values (under `index_where`, for a
        partial unique index) was there first."""
        statement = self._dialect_insert(table, values).on_conflict_do_nothing(
            index_elements=list(conflict), index_where=index_where
        )
        return (await self._connection.execute(statement)).rowcount == 1

    async def upsert(
        self,
        table: Table,
        values: dict[str, Any],
        *,
        conflict: Sequence[str],
        set_: dict[str, Any],
        where: ColumnElement[bool] | None = None,
    ) -> bool:
        """INSERT ... ON CONFLICT (conflict) DO UPDATE SET `set_` WHERE `where`, the row in
        this workspace: True when a row was inserted or updated, False when `where` kept
        the row there unchanged. Only a row of this workspace is ever updated (the
        workspace filter is added to `where`), whatever the conflict target."""
        scope = table.c.workspace_id == self.workspace_id
        statement = (
            self._dialect_insert(table, values)
            .on_conflict_do_update(
                index_elements=list(conflict),
                set_=set_,
                where=scope if where is None else (where & scope),
            )
            .returning(table.c.workspace_id)
        )
        return (await self._connection.execute(statement)).first() is not None

    async def workspace(self) -> dict[str, Any] | None:
        """This session's own workspace row (id, name, status, settings, created_at)."""
        params = {WORKSPACE: self.workspace_id}
        outcome = await direct.execute(self._connection, _OWN_WORKSPACE, params, first=True)
        if outcome is not None:
            return outcome.rows[0] if outcome.rows else None
        row = (await self._connection.execute(_OWN_WORKSPACE, params)).mappings().first()
        return dict(row) if row is not None else None

    async def save_workspace_settings(self, settings: dict[str, Any]) -> None:
        """Replaces this session's workspace's stored settings (the JSON object whole)."""
        params = {WORKSPACE: self.workspace_id, "new_settings": settings}
        if await direct.execute(self._connection, _OWN_SETTINGS, params) is None:
            await self._connection.execute(_OWN_SETTINGS, params)

    def mark_work(self) -> None:
        """This transaction wrote work for the worker (an event, a message, an enrolment):
        announce it when it commits (db/work.py)."""
        work.mark(self._connection)
