"""The demo workspace: `homebase admin seed-demo`, and `make run` on first start."""

import json
from datetime import timedelta
from importlib import resources
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.ai.service import Wait
from homebase.auth.api_keys import create_api_key, resolve_api_key
from homebase.auth.scopes import ALL_SCOPES
from homebase.config import VAR_DIR, get_settings
from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.errors import AdminError, Unauthenticated
from homebase.messaging import inbound
from homebase.messaging.repository import contact_by_address
from homebase.runtime import Runtime
from homebase.tasks.schemas import TaskCreate
from homebase.tasks.service import create_task
from homebase.workspaces import service as workspaces

DEMO_NAME = "Demo Realty"
LOCAL_DEMO_FILE = VAR_DIR / "demo.json"


def demo_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        resources.files("homebase.fixtures").joinpath("demo.json").read_text()
    )
    return document


async def seed_demo(connection: AsyncConnection, runtime: Runtime) -> dict[str, Any]:
    now = runtime.clock()
    workspace = await workspaces.create_workspace(connection, DEMO_NAME, now=now)
    session = TenantSession(connection, workspace["id"], clock=runtime.clock, actor="admin")
    created = await load_fixtures(session, demo_document())
    created.update(await _demo_activity(session, Wait.of(runtime.settings)))
    key = await _demo_key(connection, runtime, workspace["id"])
    return {"workspace": workspaces.workspace_json(workspace), "api_key": key, "created": created}


async def _demo_key(
    connection: AsyncConnection, runtime: Runtime, workspace_id: str
) -> dict[str, Any]:
    key = await create_api_key(
        TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin"),
        scopes=list(ALL_SCOPES),
        name="Demo key (every scope)",
        expires_in_days=runtime.settings.api_key_default_ttl_days,
    )
    return key.as_json()


async def _demo_activity(session: TenantSession, wait: Wait) -> dict[str, list[str]]:
    """What the demo shows that v1 creates through its API rather than fixtures: a text
    Dana sent (on her timeline, in GET /messages) and a follow-up task about it."""
    dana_phone = "+14155550142"  # demo.json's "+1 415 555 0142", in E.164
    dana = await contact_by_address(session, phone_e164=dana_phone)
    contact_id = dana["id"] if dana else None
    message, _ = await inbound.receive(
        session,
        channel="SMS",
        sender=dana_phone,
        recipient="+14155550100",
        body="Hi! Is Saturday at 10 still on for 1421 Sanchez? Can my partner join?",
        provider_message_id="demo-inbound-1",
        wait=wait,
    )
    task, _ = await create_task(
        session,
        TaskCreate(
            title="Send Dana the disclosure packet for 1421 Sanchez",
            contact_id=contact_id,
            due_at=session.now() + timedelta(days=1),
        ),
        source="demo",
    )
    return {"messages": [message["id"]], "tasks": [task["id"]]}


async def ensure_local_demo() -> dict[str, str]:
    """Seeds once per local database and keeps the key in var/demo.json (never committed)
    so later starts can print it again. A saved key that has since expired or been revoked
    is replaced by a new one for the same workspace, so the printed key always works."""
    runtime = Runtime.from_settings(get_settings())
    try:
        saved = await _saved_demo(runtime)
        if saved is not None and await _key_works(runtime, saved["key"]):
            return saved
        async with runtime.db.transaction() as connection:
            if saved is None:
                seeded = await seed_demo(connection, runtime)
                workspace_id, key = seeded["workspace"]["id"], seeded["api_key"]["key"]
            else:
                workspace_id, key = (
                    saved["workspace_id"],
                    (await _demo_key(connection, runtime, saved["workspace_id"]))["key"],
                )
    finally:
        await runtime.close()
    saved = {"workspace_id": workspace_id, "key": key}
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    LOCAL_DEMO_FILE.write_text(json.dumps(saved))
    LOCAL_DEMO_FILE.chmod(0o600)
    return saved


async def _saved_demo(runtime: Runtime) -> dict[str, str] | None:
    """var/demo.json, when its workspace is still in this database."""
    if not LOCAL_DEMO_FILE.exists():
        return None
    saved: dict[str, str] = json.loads(LOCAL_DEMO_FILE.read_text())
    async with runtime.db.transaction(write=False) as connection:
        try:
            await workspaces.get_workspace(connection, saved["workspace_id"])
        except AdminError:
            return None
    return saved


async def _key_works(runtime: Runtime, key: str) -> bool:
    async with runtime.db.transaction(write=False) as connection:
        try:
            await resolve_api_key(connection, key, runtime.clock(), runtime.settings)
        except Unauthenticated:
            return False
    return True
