"""`homebase admin connect-calendar --user ID --url URL --username U --password P`."""

import argparse
from typing import Any

from homebase.calendars import service
from homebase.cli.subcommands import Subcommands
from homebase.db.tenancy import TenantSession
from homebase.runtime import Runtime
from homebase.workspaces.service import AdminError


def add_parser(commands: Subcommands) -> None:
    p = commands.add_parser("connect-calendar",
                            help="connect a member's CalDAV calendar (appointments are "
                                 "pushed to it); replaces one connected before")
    p.add_argument("--user", required=True, help="the member's user id")
    p.add_argument("--url", required=True, help="the CalDAV collection URL (http or https)")
    p.add_argument("--username", required=True)
    p.add_argument("--password", required=True)


async def connect_calendar(args: argparse.Namespace, connection, runtime: Runtime
                           ) -> dict[str, Any]:
    workspace_id = await service.member_workspace(connection, args.user)
    if workspace_id is None:
        raise AdminError(f"no member {args.user}")
    session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")
    try:
        row = await service.connect(
            session, runtime.settings.keys, user_id=args.user, url=args.url,
            credentials=service.Credentials(args.username, args.password))
    except service.CalendarUrlInvalid as error:
        raise AdminError(f"--url {error}") from error
    # The password is never printed back.
    return {"id": row["id"], "workspace_id": workspace_id, "user_id": args.user,
            "url": row["url"], "username": args.username, "connected": True}
