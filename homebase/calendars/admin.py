"""`homebase admin connect-calendar --user ID --url URL --username U --password P`
(the command itself is declared in cli/admin.py)."""

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.calendars import service
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.models import User
from homebase.runtime import Runtime

users = User.__table__


async def member_workspace(connection: AsyncConnection, user_id: str) -> str | None:
    """The workspace of a member id: the command names only the user."""
    row = (
        await connection.execute(select(users.c.workspace_id).where(users.c.id == user_id))
    ).first()
    return row[0] if row else None


async def connect_calendar(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    user: str,
    url: str,
    username: str,
    password: str,
) -> dict[str, Any]:
    workspace_id = await member_workspace(connection, user)
    if workspace_id is None:
        raise AdminError(f"no member {user}")
    session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")
    try:
        row = await service.connect(
            session,
            runtime.settings.keys,
            user_id=user,
            url=url,
            credentials=service.Credentials(username, password),
        )
    except service.CalendarUrlInvalid as error:
        raise AdminError(f"--url {error}") from error
    # The password is never printed back.
    return {
        "id": row["id"],
        "workspace_id": workspace_id,
        "user_id": user,
        "url": row["url"],
        "username": username,
        "connected": True,
    }
