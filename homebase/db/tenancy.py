"""Tenant scoping in one place: every domain statement goes through a TenantSession, whose
reads and writes add `workspace_id = <the credential's workspace>` themselves, so another
workspace's id is simply not found. Hot paths build a statement once (`tenant_select`,
`tenant_update`): its workspace is a bindparam only a TenantSession fills, with its own;
kept, it runs on the driver (db/driver.py). On a read's connection the session refuses
writes (`ReadOnly`). A statement that must reach across workspaces is declared
`across_workspaces`, only in the modules tests/db/test_tenant_scoping.py lists."""

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Table, TextClause, bindparam, delete, insert, select, union_all, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import ColumnElement, Delete, Executable, Insert, Update

from homebase.db import driver, engine, work
from homebase.kit.clock import Clock, system_clock
from homebase.kit.statements import AnySelect, AnyStatement
from homebase.models.workspace import Workspace

_MARK = "homebase_tenant"
_TEMPLATE = "\x00template"  # the mark of a tenant_* statement; never a workspace id
_ACROSS = "\x00across"  # the mark of an across_workspaces statement; never a workspace id
WORKSPACE = "tenant_workspace_id"  # the bindparam a TenantSession fills in templates
STREAM_BATCH = 500  # rows `stream` fetches at a time
Statement = TypeVar("Statement", bound=Executable)
Rows = Sequence[Mapping[str, Any]]


@cache
def _insert(table: Table) -> Insert:
    # Built once: kept, so it runs on the driver, its many rows by COPY (db/driver.py).
    return insert(table).execution_options(**{driver.COPY: True})


def tenant_select(table: Table, *columns: Any) -> AnySelect:
    """TenantSession.select built once: run it with `session.fetch_*(statement, params)`."""
    statement = select(*(columns or (table,))).where(table.c.workspace_id == bindparam(WORKSPACE))
    return statement.execution_options(**{_MARK: _TEMPLATE})


def tenant_update(table: Table) -> Update:
    """TenantSession.update built once; set values with bindparams (names other than the
    columns'), run with `session.execute(statement, params)` or `fetch_one` (RETURNING)."""
    statement = update(table).where(table.c.workspace_id == bindparam(WORKSPACE))
    return statement.execution_options(**{_MARK: _TEMPLATE})


def tenant_merged(selects: Sequence[AnySelect], order: Sequence[str]) -> AnySelect:
    """The UNION ALL of `selects` (each a tenant_select, so scoped) ordered by `order`,
    columns all of them have: several ordered, limited index ranges read as one list (the
    events API's range per event type). Add the LIMIT; run it as a tenant_select."""
    if not selects or any(
        member.get_execution_options().get(_MARK) != _TEMPLATE for member in selects
    ):
        raise UnscopedQuery("merge statements built with tenant_select")
    # each member a subquery: its ORDER BY and LIMIT its own (SQLite refuses them otherwise)
    union = union_all(*(select(*member.subquery().c) for member in selects)).subquery()
    statement = select(union).order_by(*(union.c[name] for name in order))
    return statement.execution_options(**{_MARK: _TEMPLATE})


def across_workspaces(statement: Statement) -> Statement:
    """`statement`, declared to reach across workspaces: run as it is, no workspace filter.
    Only modules tests/db/test_tenant_scoping.py allows declare one, once, with bindparams."""
    return statement.execution_options(**{_MARK: _ACROSS})


_workspaces = Workspace.__table__
# The session's own workspace row: the tenant itself, so it is found by its id.
_OWN_WORKSPACE = select(_workspaces).where(_workspaces.c.id == bindparam(WORKSPACE))
_OWN_SETTINGS = (
    update(_workspaces)
    .where(_workspaces.c.id == bindparam(WORKSPACE))
    .values(settings=bindparam("new_settings"))
)


class UnscopedQuery(RuntimeError):
    """A statement reached a TenantSession without having been built by it."""


class ReadOnly(RuntimeError):
    """A statement that writes reached a read's connection (AUTOCOMMIT, db/engine.py):
    it would have committed on its own, outside any transaction."""


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
        self.workspace_id, self.clock, self.actor = workspace_id, clock, actor
        sync = connection.sync_connection
        options = sync.get_execution_options() if sync is not None else {}
        self.writes = not options.get(engine.READ_ONLY)
        self._scope = {"workspace_id": workspace_id}

    @property
    def dialect(self) -> str:
        return self._connection.dialect.name

    def now(self) -> datetime:
        return self.clock()

    def select(self, table: Table, *columns: Any) -> AnySelect:
        statement = select(*(columns or (table,))).where(table.c.workspace_id == self.workspace_id)
        return statement.execution_options(**{_MARK: self.workspace_id})

    def select_unindexed_scope(self, table: Table, *columns: Any) -> AnySelect:
        """select() whose workspace filter no index serves (`workspace_id || ''`): for a
        statement another index must drive (contacts/search.py's candidates), which SQLite's
        planner would trade for the (workspace_id, id) index, probing the whole workspace."""
        scope = table.c.workspace_id.concat("") == self.workspace_id
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
        if getattr(statement, "is_dml", False):
            self._writing(f"run {type(statement).__name__}")
        mark = statement.get_execution_options().get(_MARK)
        if mark == self.workspace_id or mark == _ACROSS:
            return params
        if mark == _TEMPLATE:
            return (
                {**params, WORKSPACE: self.workspace_id}
                if params
                else {WORKSPACE: self.workspace_id}
            )
        raise UnscopedQuery("build statements with TenantSession.select/update/delete")

    def _writing(self, what: str = "write") -> None:
        """The one check that this session may write (ReadOnly on a read's connection)."""
        if not self.writes:
            raise ReadOnly(f"a read may not {what}")

    async def insert(self, table: Table, values: Mapping[str, Any] | Rows) -> None:
        """Inserts the row, or the rows (one statement; many by COPY on PostgreSQL), in
        this workspace; a constraint it breaks raises here. A row: a dict or TypedDict."""
        self._writing()
        if rows := [values] if isinstance(values, Mapping) else values:  # (empty: nothing)
            scoped = [{**row, **self._scope} for row in rows]
            await driver.execute(self._connection, _insert(table), scoped)

    async def insert_together(self, parts: Sequence[tuple[Table, Rows]]) -> None:
        """insert() of each (table, rows), on PostgreSQL in one statement (db/driver.py)."""
        self._writing()
        scope = self._scope
        scoped = [(_insert(table), [{**row, **scope} for row in rows]) for table, rows in parts]
        await driver.insert_together(self._connection, [part for part in scoped if part[1]])

    async def fetch_one(
        self, statement: AnySelect | Update, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """The first row, as a dict; `params` fill a kept statement's named bindparams."""
        checked = self._checked(statement, params)
        rows, _ = await driver.execute(self._connection, statement, checked, one=True)
        return rows[0] if rows else None

    async def fetch_all(
        self, statement: AnySelect | Update, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        checked = self._checked(statement, params)
        return (await driver.execute(self._connection, statement, checked))[0]

    async def stream(
        self,
        statement: AnySelect,
        key: ColumnElement[Any],
        params: dict[str, Any] | None = None,
    ) -> AsyncIterator[dict[str, Any]]:
        """The rows of `statement` in the order of `key` (a unique column it selects),
        for reads too long to hold in memory (exports): STREAM_BATCH rows at a time, each
        batch a statement of its own after the last key read, no cursor held open."""
        last: Any = None
        while True:
            batch = statement.order_by(key).limit(STREAM_BATCH)
            if last is not None:
                batch = batch.where(key > last)
            rows = await self.fetch_all(batch, params)
            for row in rows:
                yield row
            if len(rows) < STREAM_BATCH:
                return
            last = rows[-1][str(key.key)]

    async def execute(
        self, statement: Update | Delete | Insert, params: dict[str, Any] | None = None
    ) -> int:
        """The rows changed. An Insert runs only if declared `across_workspaces`."""
        checked = self._checked(statement, params)
        return (await driver.execute(self._connection, statement, checked))[1]

    def _dialect_insert(
        self, table: Table, values: Mapping[str, Any]
    ) -> postgresql.Insert | sqlite.Insert:
        insert_ = postgresql_insert if self.dialect == "postgresql" else sqlite_insert
        return insert_(table).values(**{**values, "workspace_id": self.workspace_id})

    async def insert_if_absent(
        self,
        table: Table,
        values: Mapping[str, Any],
        *,
        conflict: Sequence[str],
        index_where: ColumnElement[bool] | TextClause | None = None,
    ) -> bool:
        """INSERT ... ON CONFLICT (conflict) DO NOTHING, the row in this workspace: True when
        inserted, False when a row with those values (under `index_where`) was there first."""
        self._writing()
        statement = self._dialect_insert(table, values).on_conflict_do_nothing(
            index_elements=list(conflict), index_where=index_where
        )
        return (await self._connection.execute(statement)).rowcount == 1

    async def upsert(
        self,
        table: Table,
        values: Mapping[str, Any],
        *,
        conflict: Sequence[str],
        set_: Mapping[str, Any],
        where: ColumnElement[bool] | None = None,
    ) -> bool:
        """INSERT ... ON CONFLICT (conflict) DO UPDATE SET `set_` WHERE `where`, the row in
        this workspace: True when inserted or updated, False when `where` kept it unchanged.
        Only a row of this workspace is ever updated (`where` gets the workspace filter)."""
        self._writing()
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
        scope = {WORKSPACE: self.workspace_id}
        rows, _ = await driver.execute(self._connection, _OWN_WORKSPACE, scope, one=True)
        return rows[0] if rows else None

    async def save_workspace_settings(self, settings: dict[str, Any]) -> None:
        """Replaces this session's workspace's stored settings (the JSON object whole)."""
        self._writing()
        params = {WORKSPACE: self.workspace_id, "new_settings": settings}
        await self._connection.execute(_OWN_SETTINGS, params)

    def mark_work(self) -> None:
        """This transaction wrote work for the worker (an event, a message, an enrolment):
        announce it when it commits (db/work.py)."""
        work.mark(self._connection)
