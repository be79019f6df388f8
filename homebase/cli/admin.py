"""`homebase admin ...`: the operator commands of ../shared/CONTRACT.md, one Click command
each. A command's body is `async (connection, runtime, **options) -> dict`: it runs in one
transaction (rolled back on any error), and its dict is printed as one JSON object. A refusal
raises AdminError, which the command table prints as the one-line reason (cli/group.py,
cli/output.py)."""

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import click
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.api_keys import create_api_key, revoke_api_key
from homebase.auth.scopes import UnknownScope
from homebase.calendars import admin as calendar_admin
from homebase.cli import passwords, rotate_secrets
from homebase.cli.group import Group
from homebase.cli.output import configure_logs, print_json
from homebase.config import get_settings
from homebase.db.tenancy import TenantSession
from homebase.external_events.service import emit_external
from homebase.kit.errors import AdminError, ValidationFailed
from homebase.oauth import admin as oauth_admin
from homebase.runtime import Runtime
from homebase.voice import service as voice
from homebase.workspaces import members, time_zone
from homebase.workspaces import service as workspaces

AdminBody = Callable[..., Awaitable[dict[str, Any]]]
# What a command does with its options before its transaction opens (a prompt, stdin).
Prepare = Callable[[dict[str, Any]], dict[str, Any]]
SCOPES_HELP = 'space-separated (commas also separate), e.g. "contacts:read leads:read"'


@click.group(cls=Group)
def admin() -> None:
    """Operator commands (each prints one JSON object)."""


def in_transaction(
    body: AdminBody, prepare: Prepare | None = None, check: AdminBody | None = None
) -> Callable[..., None]:
    """The Click callback of an admin command whose work is `body`. `check` first, in a
    read-only transaction of its own (refusing before a prompt), then `prepare`."""

    @functools.wraps(body)
    def command(**options: Any) -> None:
        configure_logs()
        if check is not None:
            asyncio.run(_run(check, options, write=False))
        if prepare is not None:
            options = prepare(options)
        print_json(asyncio.run(_run(body, options)))

    return command


def prepared(
    prepare: Prepare, check: AdminBody | None = None
) -> Callable[[AdminBody], Callable[..., None]]:
    """in_transaction, with `check` and `prepare` run on the options first."""
    return lambda body: in_transaction(body, prepare, check)


async def _run(body: AdminBody, options: dict[str, Any], write: bool = True) -> dict[str, Any]:
    runtime = Runtime.from_settings(get_settings())
    try:
        async with runtime.db.transaction(write=write) as connection:
            return await body(connection, runtime, **options)
    finally:
        await runtime.close()


async def _tenant(
    connection: AsyncConnection, workspace_id: str, runtime: Runtime
) -> TenantSession:
    await workspaces.get_workspace(connection, workspace_id)
    return TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")


def _create_user_password(options: dict[str, Any]) -> dict[str, Any]:
    stdin = options.pop("password_stdin")
    return {**options, "password": passwords.for_create_user(options["password"], stdin)}


def _set_password_source(options: dict[str, Any]) -> dict[str, Any]:
    return {**options, "password": passwords.for_set_password()}


async def _member_exists(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, email: str
) -> dict[str, Any]:
    """An unknown workspace or email is refused before the password is asked for."""
    return await members.find_member(await _tenant(connection, workspace, runtime), email)


@admin.command("create-workspace")
@click.option("--name", required=True)
@in_transaction
async def create_workspace(
    connection: AsyncConnection, runtime: Runtime, *, name: str
) -> dict[str, Any]:
    """Create an active workspace."""
    return workspaces.workspace_json(
        await workspaces.create_workspace(connection, name, now=runtime.clock())
    )


@admin.command("set-workspace-status")
@click.option("--workspace", required=True)
@click.option("--status", required=True, type=click.Choice(workspaces.STATUSES))
@in_transaction
async def set_workspace_status(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, status: str
) -> dict[str, Any]:
    """Suspend a workspace's sending, or make it active again.

    A suspended workspace sends nothing on any channel: every send (POST /v1/messages,
    automation send steps, AI replies) is refused with 422 compliance_blocked (reason
    account_suspended) and recorded as a FAILED message, and messages already queued are
    failed the same way before they reach the provider. The replies carriers require
    to inbound keywords (HELP, START) still go out; a STOP still suppresses, but its
    confirmation is a send and is refused. Nothing else stops: API keys,
    OAuth tokens and console sessions keep working for reads and other writes, OAuth apps
    can still be authorized, and webhooks are still delivered, so the customer can still
    see and export its data.
    """
    return workspaces.workspace_json(
        await workspaces.set_workspace_status(connection, workspace, status=status)
    )


@admin.command("set-workspace-time-zone")
@click.option("--workspace", required=True)
@click.option("--time-zone", "zone", required=True, help="an IANA name, e.g. America/Chicago")
@in_transaction
async def set_workspace_time_zone(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, zone: str
) -> dict[str, object]:
    """Set the workspace's time zone (default America/New_York): the AI reads the date,
    the time and the showing hours in it (docs/ai.md)."""
    session = await _tenant(connection, workspace, runtime)
    try:
        await time_zone.set_time_zone(session, zone)
    except ValidationFailed:
        raise AdminError(f"--time-zone: '{zone[:64]}' is not an IANA time zone name") from None
    row = await workspaces.get_workspace(connection, workspace)
    return {**workspaces.workspace_json(row), "time_zone": zone}


@admin.command("create-user")
@click.option("--workspace", required=True)
@click.option("--email", required=True)
@click.option("--name", required=True)
@click.option(
    "--password",
    help=f"needed to sign in to the console; or --password-stdin, or {passwords.ENV}",
)
@click.option(
    "--password-stdin",
    is_flag=True,
    help="read the password from standard input (asked for without echo on a terminal)",
)
@click.option("--office")
@click.option("--team")
@click.option("--phone", help="E.164; where the AI's calls are transferred to (docs/voice.md)")
@prepared(_create_user_password)
async def create_user(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    workspace: str,
    email: str,
    name: str,
    password: str | None,
    office: str | None,
    team: str | None,
    phone: str | None = None,
) -> dict[str, Any]:
    """Add a member to a workspace (a removed member's email brings that member back).
    A password must be 12 characters or more, not the email, not a common password."""
    session = await _tenant(connection, workspace, runtime)
    row = await workspaces.create_user(
        session,
        email=email,
        name=name,
        password=password,
        office_id=office,
        team_id=team,
        phone=phone,
    )
    return {"id": row["id"], "email": row["email"], "name": row["name"]}


@admin.command("set-password")
@click.option("--workspace", required=True)
@click.option("--email", required=True)
@prepared(_set_password_source, check=_member_exists)
async def set_password(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, email: str, password: str
) -> dict[str, Any]:
    """Set a member's console password, read from HOMEBASE_ADMIN_PASSWORD or else one line
    of standard input (asked for on a terminal), never an argument. Ends every console
    session of the member."""
    session = await _tenant(connection, workspace, runtime)
    member = await members.find_member(session, email)
    ended = await members.set_password(session, member, password)
    return {"id": member["id"], "password_changed": True, "sessions_ended": ended}


@admin.command("remove-member")
@click.option("--workspace", required=True)
@click.option("--email", required=True)
@in_transaction
async def remove_member(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, email: str
) -> dict[str, Any]:
    """Remove a member: their console sessions end, their contacts and open tasks are
    unassigned, routing rules stop naming them, and they can no longer sign in. Their
    history (messages, notes, leads, done tasks) keeps their id."""
    session = await _tenant(connection, workspace, runtime)
    return await members.remove_member(session, await members.find_member(session, email))


@admin.command("create-api-key")
@click.option("--workspace", required=True)
@click.option("--scopes", required=True, help=SCOPES_HELP)
@click.option("--name", default="API key", show_default=True)
@click.option(
    "--expires-in-days",
    type=click.IntRange(min=0),
    help="default HOMEBASE_API_KEY_DEFAULT_TTL_DAYS (90); 0 = already expired",
)
@in_transaction
async def create_key(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    workspace: str,
    scopes: str,
    name: str,
    expires_in_days: int | None,
) -> dict[str, Any]:
    """Create an API key; the key is printed once."""
    session = await _tenant(connection, workspace, runtime)
    days = (
        expires_in_days
        if expires_in_days is not None
        else runtime.settings.api_key_default_ttl_days
    )
    try:
        created = await create_api_key(
            session, scopes=scopes.replace(",", " ").split(), name=name, expires_in_days=days
        )
    except UnknownScope as error:
        raise AdminError(str(error)) from error
    return created.as_json()


@admin.command("revoke-api-key")
@click.option("--id", "key_id", required=True)
@in_transaction
async def revoke_key(
    connection: AsyncConnection, runtime: Runtime, *, key_id: str
) -> dict[str, Any]:
    """Revoke an API key."""
    if not await revoke_api_key(connection, key_id, runtime.clock()):
        raise AdminError(f"no API key {key_id}")
    return {"id": key_id, "revoked": True}


@admin.command("add-sender-number")
@click.option("--workspace", required=True)
@click.option("--number", required=True, help="E.164, e.g. +14155550100")
@click.option("--channel", required=True, type=click.Choice(workspaces.CHANNELS))
@click.option("--a2p-status", required=True, type=click.Choice(workspaces.A2P_STATUSES))
@click.option("--voice", is_flag=True, help="the number also places and answers AI calls")
@in_transaction
async def add_sender_number(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    workspace: str,
    number: str,
    channel: str,
    a2p_status: str,
    voice: bool = False,
) -> dict[str, Any]:
    """Register a number the workspace sends SMS or WhatsApp messages from (and, with
    --voice, places and answers the AI's calls on)."""
    session = await _tenant(connection, workspace, runtime)
    row = await workspaces.add_sender_number(
        session, number=number, channel=channel, a2p_status=a2p_status, voice=voice
    )
    return {
        "id": row["id"],
        "number": row["number"],
        "channel": row["channel"],
        "a2p_status": row["a2p_status"],
        "voice": row["voice"],
    }


@admin.command("place-ai-call")
@click.option("--workspace", required=True)
@click.option("--contact", required=True, help="the contact's id")
@click.option("--persona", help="a persona with voice on (default: the workspace's)")
@click.option("--reason", default="manual", show_default=True)
@in_transaction
async def place_ai_call(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    workspace: str,
    contact: str,
    persona: str | None = None,
    reason: str = "manual",
) -> dict[str, str | None]:
    """Ask for an AI phone call to a contact (docs/voice.md): it passes the gates (voice
    consent, calling hours, opt-outs, ...) and is placed by the worker, or is refused
    with the gate's reason. With HOMEBASE_VOICE_PROVIDER=local nothing is dialled."""
    session = await _tenant(connection, workspace, runtime)
    row = await voice.call_contact(session, contact, persona_id=persona, reason=reason)
    return {"id": row["id"], "status": row["status"], "error": row["error"]}


@admin.command("load-fixtures")
@click.option("--workspace", required=True)
@click.argument("file")
@in_transaction
async def load_fixtures_file(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, file: str
) -> dict[str, Any]:
    """Load FILE (docs/fixtures.md) into a workspace; prints the ids created, by kind."""
    session = await _tenant(connection, workspace, runtime)
    try:
        document = json.loads(await asyncio.to_thread(Path(file).read_text))
    except (OSError, ValueError) as error:
        raise AdminError(f"cannot read {file}: {error}") from error
    # Every domain's loaders: loaded by the commands that load fixtures, not by every command.
    from homebase.fixtures.load import load_fixtures

    return await load_fixtures(session, document)


@admin.command("simulate-inbound")
@click.option("--workspace", required=True)
@click.option("--from", "sender", required=True, help="E.164; whatsapp:+1... for WhatsApp")
@click.option("--body", required=True)
@in_transaction
async def simulate_inbound(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, sender: str, body: str
) -> dict[str, Any]:
    """Record an inbound text as the SMS provider's callback would (a development aid: the
    demo's whole AI loop without a carrier). The worker answers it as any other."""
    session = await _tenant(connection, workspace, runtime)
    # The provider callback's own function (messaging/inbound.py) and the AI's wait,
    # loaded by this command only: every other command would pay their start-up cost.
    from homebase.ai.service import Wait
    from homebase.messaging import inbound, repository

    channel, address = inbound.split_address(sender)
    if address is None:
        raise AdminError(f"--from {sender!r} is not a phone number")
    numbers = await repository.sender_numbers_for(session, channel)
    if not numbers:
        raise AdminError(
            f"the workspace has no {channel} number to receive on; add one with "
            "`homebase admin add-sender-number`"
        )
    row, reply = await inbound.receive(
        session,
        channel=channel,
        sender=address,
        recipient=numbers[0]["number"],
        body=body[:1600],
        provider_message_id=None,
        wait=Wait.of(runtime.settings),
    )
    return {"message_id": row["id"], "contact_id": row["contact_id"], "keyword_reply": reply}


@admin.command("connect-calendar")
@click.option("--user", required=True, help="the member's user id")
@click.option("--url", required=True, help="the CalDAV collection URL (http or https)")
@click.option("--username", required=True)
@click.option("--password", required=True)
@in_transaction
async def connect_calendar(
    connection: AsyncConnection,
    runtime: Runtime,
    *,
    user: str,
    url: str,
    username: str,
    password: str,
) -> dict[str, Any]:
    """Connect a member's CalDAV calendar (appointments are pushed to it); replaces one
    connected before."""
    return await calendar_admin.connect_calendar(
        connection, runtime, user=user, url=url, username=username, password=password
    )


@admin.command("seed-demo")
@in_transaction
async def seed_demo_workspace(connection: AsyncConnection, runtime: Runtime) -> dict[str, Any]:
    """Create a demo workspace with data in every area and an API key with every scope."""
    # Every domain's loaders: loaded by the commands that load fixtures, not by every command.
    from homebase.workspaces.demo import seed_demo

    return await seed_demo(connection, runtime)


@admin.command("rotate-secrets")
@in_transaction
async def rotate(connection: AsyncConnection, runtime: Runtime) -> dict[str, Any]:
    """Re-seal stored secrets under HOMEBASE_SECRET_KEY after a key change (README,
    "Changing the secret key")."""
    return await rotate_secrets.rotate(connection, runtime.settings.keys)


@admin.command("emit-event")
@click.option("--workspace", required=True)
@click.option("--type", "event_type", required=True, help="document.signed or saved_search.sent")
@click.option("--data", required=True, help="a JSON object (docs/automations.md)")
@in_transaction
async def emit_event(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, event_type: str, data: str
) -> dict[str, Any]:
    """Emit an event the API cannot cause (document.signed, saved_search.sent)."""
    session = await _tenant(connection, workspace, runtime)
    try:
        payload = json.loads(data)
    except ValueError as error:
        raise AdminError(f"--data is not JSON: {error}") from error
    return await emit_external(session, event_type, raw=payload)


@admin.command("create-oauth-client")
@click.option("--name", required=True)
@click.option(
    "--redirect-uri",
    "redirect_uris",
    required=True,
    multiple=True,
    help="repeat for each allowed redirect URI",
)
@in_transaction
async def create_oauth_client(
    connection: AsyncConnection, runtime: Runtime, *, name: str, redirect_uris: tuple[str, ...]
) -> dict[str, Any]:
    """Register an OAuth app; its secret is printed once."""
    return await oauth_admin.create_client(
        connection, runtime.clock(), name=name, redirect_uris=list(redirect_uris)
    )


@admin.command("authorize-app")
@click.option("--workspace", required=True)
@click.option("--client-id", required=True)
@click.option("--scopes", required=True, help=SCOPES_HELP)
@in_transaction
async def authorize_app(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, client_id: str, scopes: str
) -> dict[str, Any]:
    """Grant an OAuth app access to a workspace, as a member approving consent would."""
    return await oauth_admin.authorize_app(
        connection, runtime.clock(), workspace_id=workspace, client_id=client_id, scopes=scopes
    )


@admin.command("revoke-app")
@click.option("--workspace", required=True)
@click.option("--client-id", required=True)
@in_transaction
async def revoke_app(
    connection: AsyncConnection, runtime: Runtime, *, workspace: str, client_id: str
) -> dict[str, Any]:
    """End a workspace's grant to an OAuth app, with every token of it."""
    return await oauth_admin.revoke_app(
        connection, runtime.clock(), workspace_id=workspace, client_id=client_id
    )
