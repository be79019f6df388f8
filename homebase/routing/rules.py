"""Creating routing rules (load-fixtures): the format is checked by RuleSpec, the
references here; an invalid rule is refused with a message naming what is wrong."""

from collections.abc import Callable
from typing import Any

from sqlalchemy import Table

from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.kit.ids import new_id
from homebase.routing import repository
from homebase.routing.cache import invalidate
from homebase.routing.engine import ROUND_ROBIN
from homebase.routing.schemas import RuleSpec

Resolve = Callable[[str | None, str], str | None]


async def _check(session: TenantSession, table: Table, object_id: str | None, what: str) -> None:
    if object_id is not None and not await repository.exists(session, table, object_id):
        raise AdminError(f"{what}: no {what.split('[')[0]} {object_id} in this workspace")


async def create_rule(session: TenantSession, spec: RuleSpec, resolve: Resolve) -> dict[str, Any]:
    """`resolve(value, what)` turns a fixture ref (or literal id) into an id."""
    agent_ids = (
        [resolve(spec.agent, "agent")]
        if spec.agent
        else [resolve(agent, f"agents[{index}]") for index, agent in enumerate(spec.agents)]
    )
    unique_agent_ids = list(dict.fromkeys(agent_ids))
    team_id, office_id = resolve(spec.team, "team"), resolve(spec.office, "office")
    targets = {"agent_ids": unique_agent_ids, "team_id": team_id, "office_id": office_id}
    for index, agent_id in enumerate(unique_agent_ids):
        await _check(
            session, repository.users, agent_id, "agent" if spec.agent else f"member[{index}]"
        )
    await _check(session, repository.teams, team_id, "team")
    await _check(session, repository.offices, office_id, "office")
    if spec.fallback and await repository.has_fallback(session):
        raise AdminError("the workspace already has a fallback rule; only one is allowed")
    now = session.now()
    row: dict[str, Any] = {
        "id": new_id("rrl"),
        "name": spec.name,
        "position": await repository.next_position(session),
        "enabled": spec.enabled,
        "is_fallback": spec.fallback,
        "conditions": spec.conditions.model_dump(exclude_none=True),
        "method": spec.method,
        "targets": targets,
        "created_at": now,
    }
    await repository.insert_rule(session, row)
    if spec.method == ROUND_ROBIN:
        await repository.create_cursor(session, row["id"], now)
    invalidate(session.workspace_id)
    return row
