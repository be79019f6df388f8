"""`homebase admin create-oauth-client | authorize-app | revoke-app` (CONTRACT.md); the
commands themselves are declared in cli/admin.py."""

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.scopes import UnknownScope
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.oauth import service
from homebase.workspaces.service import get_workspace


async def _client(connection: AsyncConnection, client_id: str) -> dict[str, Any]:
    client = await service.get_client(connection, client_id)
    if client is None:
        raise AdminError(f"no OAuth client {client_id}")
    return client


async def create_client(
    connection: AsyncConnection, now: datetime, *, name: str, redirect_uris: list[str]
) -> dict[str, Any]:
    try:
        created = await service.create_client(
            connection, name, redirect_uris=redirect_uris, now=now
        )
    except service.InvalidClient as error:
        raise AdminError(str(error)) from error
    return created.as_json()


async def authorize_app(
    connection: AsyncConnection, now: datetime, *, workspace_id: str, client_id: str, scopes: str
) -> dict[str, Any]:
    await get_workspace(connection, workspace_id)
    await _client(connection, client_id)
    names = scopes.replace(",", " ").split()
    if not names:
        raise AdminError("--scopes must name at least one scope")
    try:
        return await service.authorize_app(
            connection,
            workspace_id=workspace_id,
            client_id=client_id,
            scopes=names,
            now=now,
            authorized_by="admin",
        )
    except UnknownScope as error:
        raise AdminError(str(error)) from error


async def revoke_app(
    connection: AsyncConnection, now: datetime, *, workspace_id: str, client_id: str
) -> dict[str, Any]:
    await get_workspace(connection, workspace_id)
    await _client(connection, client_id)
    session = TenantSession(connection, workspace_id, clock=lambda: now, actor="admin")
    if not await service.revoke_grant(session, client_id):
        raise AdminError(f"workspace {workspace_id} has not authorized {client_id}")
    return {"revoked": True}
