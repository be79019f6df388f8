"""`homebase admin create-oauth-client | authorize-app | revoke-app` (CONTRACT.md)."""

import argparse
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.scopes import UnknownScope
from homebase.cli.subcommands import Subcommands
from homebase.oauth import service
from homebase.workspaces.service import AdminError, get_workspace

COMMANDS = ("create-oauth-client", "authorize-app", "revoke-app")


def add_parsers(commands: Subcommands) -> None:
    p = commands.add_parser("create-oauth-client")
    p.add_argument("--name", required=True)
    p.add_argument("--redirect-uri", required=True, action="append", dest="redirect_uris")

    p = commands.add_parser("authorize-app")
    p.add_argument("--workspace", required=True)
    p.add_argument("--client-id", required=True)
    p.add_argument("--scopes", required=True, help='space-separated, e.g. "contacts:read"')

    p = commands.add_parser("revoke-app")
    p.add_argument("--workspace", required=True)
    p.add_argument("--client-id", required=True)


async def _client(connection: AsyncConnection, client_id: str) -> dict[str, Any]:
    client = await service.get_client(connection, client_id)
    if client is None:
        raise AdminError(f"no OAuth client {client_id}")
    return client


async def dispatch(args: argparse.Namespace, connection: AsyncConnection,
                   now: datetime) -> dict[str, Any]:
    command = args.admin_command
    if command == "create-oauth-client":
        try:
            created = await service.create_client(connection, args.name, args.redirect_uris,
                                                  now)
        except service.InvalidClient as error:
            raise AdminError(str(error)) from error
        return created.as_json()
    await get_workspace(connection, args.workspace)
    await _client(connection, args.client_id)
    if command == "authorize-app":
        names = args.scopes.replace(",", " ").split()
        if not names:
            raise AdminError("--scopes must name at least one scope")
        try:
            return await service.authorize_app(
                connection, workspace_id=args.workspace, client_id=args.client_id,
                scopes=names, now=now, authorized_by="admin")
        except UnknownScope as error:
            raise AdminError(str(error)) from error
    if not await service.revoke_grant(connection, args.workspace, args.client_id, now):
        raise AdminError(f"workspace {args.workspace} has not authorized {args.client_id}")
    return {"revoked": True}
