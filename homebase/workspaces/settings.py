"""Per-workspace settings kept in `workspaces.settings` (JSON), with their defaults.

Documented in docs/leads.md; set with the `workspace_settings` fixture kind.
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update

from homebase.db.tenancy import TenantSession
from homebase.models import Workspace

workspaces = Workspace.__table__


class WorkspaceSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Express written consent has no statutory expiry, but stale web-form consent is the
    # usual TCPA litigation target; a year is the common industry cut-off.
    consent_validity_days: int = Field(365, ge=1, le=3650)
    # "First available" counts each candidate's leads assigned within this window.
    first_available_window_hours: int = Field(24, ge=1, le=24 * 90)


async def get_settings(session: TenantSession) -> WorkspaceSettings:
    # The workspace row is the tenant itself, so it is read by its id, not through select().
    stored = (
        await session.connection.execute(
            select(workspaces.c.settings).where(workspaces.c.id == session.workspace_id)
        )
    ).scalar_one_or_none() or {}
    known = {key: value for key, value in stored.items() if key in WorkspaceSettings.model_fields}
    return WorkspaceSettings.model_validate(known)


async def update_settings(session: TenantSession, changes: dict[str, Any]) -> WorkspaceSettings:
    merged = {**(await get_settings(session)).model_dump(), **changes}
    validated = WorkspaceSettings.model_validate(merged)
    stored = (
        await session.connection.execute(
            select(workspaces.c.settings).where(workspaces.c.id == session.workspace_id)
        )
    ).scalar_one_or_none() or {}
    await session.connection.execute(
        update(workspaces)
        .where(workspaces.c.id == session.workspace_id)
        .values(settings={**stored, **validated.model_dump()})
    )
    from homebase.routing.cache import invalidate  # the cache imports this module

    invalidate(session.workspace_id)
    return validated
