"""Routing queries: rules, members, rotation cursors, recent assignments."""

from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, func

from homebase.db.tenancy import TenantSession, tenant_update
from homebase.models import Lead, Office, RoutingCursor, RoutingRule, Team, User
from homebase.routing.engine import Member, Rule

rules_table = RoutingRule.__table__
cursors = RoutingCursor.__table__
users = User.__table__
leads = Lead.__table__
offices = Office.__table__
teams = Team.__table__


def _rule(row: dict[str, Any]) -> Rule:
    return Rule(
        id=row["id"],
        name=row["name"],
        position=row["position"],
        method=row["method"],
        conditions=row["conditions"],
        targets=row["targets"],
        enabled=row["enabled"],
        is_fallback=row["is_fallback"],
    )


async def load_rules(session: TenantSession) -> list[Rule]:
    rows = await session.fetch_all(
        session.select(rules_table).order_by(rules_table.c.position, rules_table.c.id)
    )
    return [_rule(row) for row in rows]


async def load_members(session: TenantSession) -> list[Member]:
    """The workspace's current members (a removed member is routed nothing)."""
    rows = await session.fetch_all(
        session.select(users, users.c.id, users.c.name, users.c.office_id, users.c.team_id).where(
            users.c.removed_at.is_(None)
        )
    )
    return [Member(**row) for row in rows]


async def get_member(session: TenantSession, member_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(
        session.select(users, users.c.id, users.c.name).where(
            users.c.id == member_id, users.c.removed_at.is_(None)
        )
    )


async def set_targets(session: TenantSession, rule_id: str, targets: dict[str, Any]) -> None:
    await session.execute(
        session.update(rules_table).where(rules_table.c.id == rule_id).values(targets=targets)
    )


async def read_cursor(session: TenantSession, rule_id: str) -> int:
    row = await session.fetch_one(
        session.select(cursors, cursors.c.position).where(cursors.c.rule_id == rule_id)
    )
    return row["position"] if row else 0


_TAKE_TURN = (
    tenant_update(cursors)
    .where(cursors.c.rule_id == bindparam("rule"))
    .values(
        position=cursors.c.position + 1,
        updated_at=bindparam("now", type_=cursors.c.updated_at.type),
    )
    .returning(cursors.c.position)
)


async def take_turn(session: TenantSession, rule_id: str, now: datetime) -> int:
    """The turn this caller owns (0, 1, 2, ...): one atomic increment, so concurrent
    requests on any instance each get a distinct turn. It is part of the lead's
    transaction: a request that fails gives its turn back with everything else."""
    row = await session.fetch_one(_TAKE_TURN, {"rule": rule_id, "now": now})
    if row is None:  # rules get their cursor when created; this is only a safety net
        await create_cursor(session, rule_id, now, position=1)
        return 0
    position: int = row["position"]
    return position - 1


async def create_cursor(
    session: TenantSession, rule_id: str, now: datetime, position: int = 0
) -> None:
    await session.insert(cursors, {"rule_id": rule_id, "position": position, "updated_at": now})


async def recent_assignments(
    session: TenantSession, member_ids: tuple[str, ...], since: datetime
) -> dict[str, int]:
    count = func.count().label("count")
    rows = await session.fetch_all(
        session.select(leads, leads.c.assignee_id, count)
        .where(leads.c.assignee_id.in_(member_ids), leads.c.assigned_at >= since)
        .group_by(leads.c.assignee_id)
    )
    return {row["assignee_id"]: row["count"] for row in rows}


async def next_position(session: TenantSession) -> int:
    row = await session.fetch_one(
        session.select(rules_table, func.max(rules_table.c.position).label("top"))
    )
    return ((row or {}).get("top") or 0) + 1


async def has_fallback(session: TenantSession) -> bool:
    row = await session.fetch_one(
        session.select(rules_table, rules_table.c.id)
        .where(rules_table.c.is_fallback.is_(True))
        .limit(1)
    )
    return row is not None


async def insert_rule(session: TenantSession, row: dict[str, Any]) -> None:
    await session.insert(rules_table, row)


async def exists(session: TenantSession, table: Table, object_id: str) -> bool:
    return (
        await session.fetch_one(session.select(table, table.c.id).where(table.c.id == object_id))
        is not None
    )
