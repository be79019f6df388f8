"""`homebase admin ...`: each command prints one JSON object and exits 0, or prints a
one-line reason on stderr and exits non-zero."""

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from homebase.auth.api_keys import create_api_key, revoke_api_key
from homebase.auth.scopes import UnknownScope
from homebase.calendars import admin as calendar_admin
from homebase.cli import rotate_secrets
from homebase.cli.subcommands import Subcommands
from homebase.config import get_settings
from homebase.db.tenancy import TenantSession
from homebase.external_events.service import emit_external
from homebase.fixtures import load_fixtures
from homebase.oauth import admin as oauth_admin
from homebase.runtime import Runtime
from homebase.workspaces import service as workspaces
from homebase.workspaces.demo import seed_demo
from homebase.workspaces.service import AdminError


def add_parsers(subparsers: Subcommands) -> None:
    admin = subparsers.add_parser("admin", help="operator commands")
    commands = admin.add_subparsers(dest="admin_command", required=True)

    p = commands.add_parser("create-workspace")
    p.add_argument("--name", required=True)

    p = commands.add_parser("set-workspace-status")
    p.add_argument("--workspace", required=True)
    p.add_argument("--status", required=True, choices=workspaces.STATUSES)

    p = commands.add_parser("create-user")
    p.add_argument("--workspace", required=True)
    p.add_argument("--email", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--password")
    p.add_argument("--office")
    p.add_argument("--team")

    p = commands.add_parser("create-api-key")
    p.add_argument("--workspace", required=True)
    p.add_argument("--scopes", required=True, help='space-separated, e.g. "contacts:read"')
    p.add_argument("--name", default="API key")
    p.add_argument("--expires-in-days", type=int, default=None,
                   help="default HOMEBASE_API_KEY_DEFAULT_TTL_DAYS (90); 0 = already expired")

    p = commands.add_parser("revoke-api-key")
    p.add_argument("--id", required=True)

    p = commands.add_parser("add-sender-number")
    p.add_argument("--workspace", required=True)
    p.add_argument("--number", required=True)
    p.add_argument("--channel", required=True, choices=workspaces.CHANNELS)
    p.add_argument("--a2p-status", required=True, choices=workspaces.A2P_STATUSES)

    p = commands.add_parser("load-fixtures")
    p.add_argument("--workspace", required=True)
    p.add_argument("file")

    calendar_admin.add_parser(commands)

    commands.add_parser("seed-demo")

    commands.add_parser("rotate-secrets",
                        help="re-seal stored secrets under HOMEBASE_SECRET_KEY "
                             "(after a key change; docs/decisions.md)")

    p = commands.add_parser("emit-event", help="emit document.signed or saved_search.sent")
    p.add_argument("--workspace", required=True)
    p.add_argument("--type", required=True)
    p.add_argument("--data", required=True, help="a JSON object (docs/automations.md)")
    oauth_admin.add_parsers(commands)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    runtime = Runtime.from_settings(get_settings())
    try:
        async with runtime.db.transaction() as connection:
            return await _dispatch(args, connection, runtime)
    finally:
        await runtime.close()


async def _tenant(connection, workspace_id: str, runtime: Runtime) -> TenantSession:
    await workspaces.get_workspace(connection, workspace_id)
    return TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")


async def _dispatch(args, connection, runtime: Runtime) -> dict[str, Any]:
    now = runtime.clock()
    command = args.admin_command
    if command == "create-workspace":
        return workspaces.workspace_json(await workspaces.create_workspace(connection, args.name,
                                                                           now))
    if command == "set-workspace-status":
        return workspaces.workspace_json(
            await workspaces.set_workspace_status(connection, args.workspace, args.status))
    if command == "create-user":
        session = await _tenant(connection, args.workspace, runtime)
        row = await workspaces.create_user(session, email=args.email, name=args.name,
                                           password=args.password, office_id=args.office,
                                           team_id=args.team)
        return {"id": row["id"], "email": row["email"], "name": row["name"]}
    if command == "create-api-key":
        await workspaces.get_workspace(connection, args.workspace)
        if args.expires_in_days is not None and args.expires_in_days < 0:
            raise AdminError("--expires-in-days must be 0 or more")
        days = (args.expires_in_days if args.expires_in_days is not None
                else runtime.settings.api_key_default_ttl_days)
        try:
            created = await create_api_key(connection, workspace_id=args.workspace,
                                           scopes=args.scopes.replace(",", " ").split(),
                                           name=args.name, now=now, expires_in_days=days)
        except UnknownScope as error:
            raise AdminError(str(error)) from error
        return created.as_json()
    if command == "revoke-api-key":
        if not await revoke_api_key(connection, args.id, now):
            raise AdminError(f"no API key {args.id}")
        return {"id": args.id, "revoked": True}
    if command == "add-sender-number":
        session = await _tenant(connection, args.workspace, runtime)
        row = await workspaces.add_sender_number(session, number=args.number,
                                                 channel=args.channel, a2p_status=args.a2p_status)
        return {"id": row["id"], "number": row["number"], "channel": row["channel"],
                "a2p_status": row["a2p_status"]}
    if command == "load-fixtures":
        session = await _tenant(connection, args.workspace, runtime)
        try:
            document = json.loads(await asyncio.to_thread(Path(args.file).read_text))
        except (OSError, ValueError) as error:
            raise AdminError(f"cannot read {args.file}: {error}") from error
        return await load_fixtures(session, document)
    if command == "connect-calendar":
        return await calendar_admin.connect_calendar(args, connection, runtime)
    if command == "seed-demo":
        return await seed_demo(connection, runtime)
    if command == "rotate-secrets":
        return await rotate_secrets.rotate(connection, runtime.settings.keys)
    if command == "emit-event":
        session = await _tenant(connection, args.workspace, runtime)
        try:
            data = json.loads(args.data)
        except ValueError as error:
            raise AdminError(f"--data is not JSON: {error}") from error
        return await emit_external(session, args.type, data)
    if command in oauth_admin.COMMANDS:
        return await oauth_admin.dispatch(args, connection, now)
    raise AdminError(f"unknown command {command}")
