"""Event queries. Every statement is scoped by the TenantSession that runs it.

A page walks (occurred_at, id) ascending from a position. With no type to narrow it, one
range of ix_outbox_events_workspace_occurred. With types (those a credential may read, or
a `type` filter), one range of ix_outbox_events_workspace_type_occurred per type, each
limited to the page, merged: no statement reads past the page's rows of each type, so a
key that reads only contact events costs the same however many messages the workspace
holds (an `IN` on the type would walk every other type's rows between them).

The statements are built once per shape (how many types, whether the start names an
event) with bindparams, as kit/pagination.keyset_template does: building and cache-keying
a union of several selects per request cost more than running it."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, and_, bindparam, or_

from homebase.db.tenancy import TenantSession, tenant_merged, tenant_select
from homebase.kit.statements import AnySelect
from homebase.models import OutboxEvent

outbox = OutboxEvent.__table__
COLUMNS = (
    outbox.c.id,
    outbox.c.workspace_id,
    outbox.c.type,
    outbox.c.data,
    outbox.c.occurred_at,
)
START_AT, START_ID, HORIZON, LIMIT = "start_at", "start_id", "horizon", "page_limit"


@dataclass(frozen=True, slots=True)
class Position:
    """An exclusive lower bound of the walk: events after `occurred_at`, or, with an
    `id`, after that event in (occurred_at, id) order."""

    occurred_at: datetime
    id: str | None = None

    def at_or_past(self, other: "Position") -> bool:
        """Whether this bound excludes everything `other` excludes."""
        if self.occurred_at != other.occurred_at:
            return self.occurred_at > other.occurred_at
        if self.id is None:
            return True
        return other.id is not None and self.id >= other.id


def _after(with_id: bool) -> ColumnElement[bool]:
    start = bindparam(START_AT, type_=outbox.c.occurred_at.type)
    if not with_id:
        return outbox.c.occurred_at > start
    # The range is on occurred_at (what the index orders first); the id only refines the
    # rows of that one instant.
    return and_(
        outbox.c.occurred_at >= start,
        or_(
            outbox.c.occurred_at > start,
            outbox.c.id > bindparam(START_ID, type_=outbox.c.id.type),
        ),
    )


def _walk(with_id: bool, type_param: str | None) -> AnySelect:
    statement = tenant_select(outbox, *COLUMNS).where(
        _after(with_id),
        outbox.c.occurred_at <= bindparam(HORIZON, type_=outbox.c.occurred_at.type),
    )
    if type_param is not None:
        named = bindparam(type_param, type_=outbox.c.type.type)
        statement = statement.where(outbox.c.type == named)
    return statement.order_by(outbox.c.occurred_at, outbox.c.id).limit(
        bindparam(LIMIT, type_=Integer())
    )


_KEPT: dict[tuple[int, bool], AnySelect] = {}


def _template(types: int, with_id: bool) -> AnySelect:
    """The page's statement for `types` types (0: every type)."""
    statement = _KEPT.get((types, with_id))
    if statement is None:
        if types <= 1:
            statement = _walk(with_id, "type_0" if types else None)
        else:
            members = [_walk(with_id, f"type_{index}") for index in range(types)]
            statement = tenant_merged(members, ("occurred_at", "id")).limit(
                bindparam(LIMIT, type_=Integer())
            )
        _KEPT[(types, with_id)] = statement
    return statement


async def page(
    session: TenantSession,
    types: Sequence[str] | None,
    start: Position,
    horizon: datetime,
    limit: int,
) -> list[dict[str, Any]]:
    """At most `limit` events after `start` and at or before `horizon`, in order; only
    of `types` unless None (every type). `types` must not be empty."""
    names = list(types) if types is not None else []
    params: dict[str, Any] = {START_AT: start.occurred_at, HORIZON: horizon, LIMIT: limit}
    if start.id is not None:
        params[START_ID] = start.id
    params.update({f"type_{index}": name for index, name in enumerate(names)})
    statement = _template(len(names), start.id is not None)
    return await session.fetch_all(statement, params)


def page_statement(types: Sequence[str] | None, with_id: bool) -> AnySelect:
    """The kept statement `page` runs (for plans: tests/events)."""
    return _template(len(types) if types is not None else 0, with_id)


async def get(session: TenantSession, event_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(outbox, *COLUMNS).where(outbox.c.id == event_id))


async def position_of(session: TenantSession, event_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(
        session.select(outbox, outbox.c.id, outbox.c.occurred_at).where(outbox.c.id == event_id)
    )
