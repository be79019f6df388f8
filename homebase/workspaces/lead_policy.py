"""A workspace's lead policy (consent validity, routing windows): kept in the
workspace row's `settings` JSON column, with their defaults. Not the process's settings
(config.Settings, HOMEBASE_*) nor the messaging send policy kept in the same column
(messaging/send_policy.py).

Documented in docs/leads.md; set with the `workspace_settings` fixture kind, through
routing/policy.py (routing caches the policy, and a write drops that copy).
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from homebase.db.tenancy import TenantSession


class LeadPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Express written consent has no statutory expiry, but stale web-form consent is the
    # usual TCPA litigation target; a year is the common industry cut-off.
    consent_validity_days: int = Field(365, ge=1, le=3650)
    # "First available" counts each candidate's leads assigned within this window.
    first_available_window_hours: int = Field(24, ge=1, le=24 * 90)


async def stored_settings(session: TenantSession) -> dict[str, Any]:
    """Every setting the session's workspace stores (these and messaging's)."""
    row = await session.workspace()
    return (row["settings"] if row else None) or {}


async def lead_policy(session: TenantSession) -> LeadPolicy:
    stored = await stored_settings(session)
    known = {key: value for key, value in stored.items() if key in LeadPolicy.model_fields}
    return LeadPolicy.model_validate(known)
