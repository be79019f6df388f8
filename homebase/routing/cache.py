"""What routing reads for every lead (rules, members, workspace settings), cached per
workspace for a couple of seconds.

These change only through operator commands and fixtures, which drop this process's copy
as they write (invalidate). Another process (a CLI run next to a server) is seen within
TTL_SECONDS. Rotation cursors and assignment counts are never cached: they are read or
advanced inside the request's transaction.
"""

import time
from dataclasses import dataclass

from homebase.db.tenancy import TenantSession
from homebase.routing import repository
from homebase.routing.engine import Member, Rule
from homebase.workspaces.lead_policy import LeadPolicy, lead_policy

TTL_SECONDS = 2.0


@dataclass(frozen=True)
class RoutingInputs:
    rules: tuple[Rule, ...]
    members: tuple[Member, ...]
    settings: LeadPolicy
    loaded_at: float


_cache: dict[str, RoutingInputs] = {}


async def routing_inputs(session: TenantSession) -> RoutingInputs:
    cached = _cache.get(session.workspace_id)
    if cached is not None and time.monotonic() - cached.loaded_at < TTL_SECONDS:
        return cached
    loaded = RoutingInputs(
        tuple(await repository.load_rules(session)),
        tuple(await repository.load_members(session)),
        await lead_policy(session),
        time.monotonic(),
    )
    _cache[session.workspace_id] = loaded
    return loaded


def invalidate(workspace_id: str) -> None:
    _cache.pop(workspace_id, None)
