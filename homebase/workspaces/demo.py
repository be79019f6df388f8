"""The demo workspace: `homebase admin seed-demo`, and `make run` on first start."""

import json
from importlib import resources
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.api_keys import create_api_key
from homebase.auth.scopes import ALL_SCOPES
from homebase.config import VAR_DIR, get_settings
from homebase.db.tenancy import TenantSession
from homebase.fixtures import load_fixtures
from homebase.kit.phones import to_e164
from homebase.runtime import Runtime
from homebase.workspaces import service as workspaces

DEMO_NAME = "Demo Realty"
LOCAL_DEMO_FILE = VAR_DIR / "demo.json"


def demo_document() -> dict[str, Any]:
    return json.loads(resources.files("homebase.fixtures").joinpath("demo.json").read_text())


async def seed_demo(connection: AsyncConnection, runtime: Runtime) -> dict[str, Any]:
    now = runtime.clock()
    workspace = await workspaces.create_workspace(connection, DEMO_NAME, now)
    session = TenantSession(connection, workspace["id"], clock=runtime.clock, actor="admin")
    created = await load_fixtures(session, demo_document())
    created.update(await _demo_activity(session))
    key = await create_api_key(connection, workspace_id=workspace["id"], scopes=list(ALL_SCOPES),
                               name="Demo key (every scope)", now=now,
                               expires_in_days=runtime.settings.api_key_default_ttl_days)
    return {"workspace": workspaces.workspace_json(workspace), "api_key": key.as_json(),
            "created": created}


async def _demo_activity(session: TenantSession) -> dict[str, list[str]]:
    """What the demo shows that v1 creates through its API rather than fixtures: a text
    Dana sent (on her timeline, in GET /messages) and a follow-up task about it."""
    from datetime import timedelta

    from homebase.messaging import inbound
    from homebase.messaging.repository import contact_by_address
    from homebase.tasks.schemas import TaskCreate
    from homebase.tasks.service import create_task

    dana_phone = to_e164("+1 415 555 0142")
    dana = await contact_by_address(session, phone_e164=dana_phone)
    contact_id = dana["id"] if dana else None
    message, _ = await inbound.receive(
        session, channel="SMS", sender=dana_phone, recipient="+14155550100",
        body="Hi! Is Saturday at 10 still on for 1421 Sanchez? Can my partner join?",
        provider_message_id="demo-inbound-1")
    task, _ = await create_task(session, TaskCreate(
        title="Send Dana the disclosure packet for 1421 Sanchez", contact_id=contact_id,
        due_at=session.now() + timedelta(days=1)), source="demo")
    return {"messages": [message["id"]], "tasks": [task["id"]]}


async def ensure_local_demo() -> dict[str, str]:
    """Seeds once per local database and keeps the key in var/demo.json (never committed)
    so later starts can print it again."""
    runtime = Runtime.from_settings(get_settings())
    try:
        if LOCAL_DEMO_FILE.exists():
            saved = json.loads(LOCAL_DEMO_FILE.read_text())
            async with runtime.db.transaction(write=False) as connection:
                try:
                    await workspaces.get_workspace(connection, saved["workspace_id"])
                    return saved
                except workspaces.AdminError:
                    pass
        async with runtime.db.transaction() as connection:
            seeded = await seed_demo(connection, runtime)
    finally:
        await runtime.close()
    saved = {"workspace_id": seeded["workspace"]["id"], "key": seeded["api_key"]["key"]}
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    LOCAL_DEMO_FILE.write_text(json.dumps(saved))
    LOCAL_DEMO_FILE.chmod(0o600)
    return saved
