"""Writing a workspace's lead policy (the `workspace_settings` fixture kind). Here rather
than beside the policy (workspaces/lead_policy.py) because routing caches it (cache.py)
and a write must drop that copy: the cache imports the policy module, so that module
cannot import the cache."""

from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.routing.cache import invalidate
from homebase.workspaces.lead_policy import (
    LeadPolicy,
    forget_phone_region,
    lead_policy,
    stored_settings,
)


async def update_lead_policy(session: TenantSession, changes: dict[str, Any]) -> LeadPolicy:
    merged = {**(await lead_policy(session)).model_dump(), **changes}
    validated = LeadPolicy.model_validate(merged)
    stored = await stored_settings(session)
    await session.save_workspace_settings({**stored, **validated.model_dump()})
    invalidate(session.workspace_id)
    forget_phone_region(session.workspace_id)
    return validated
