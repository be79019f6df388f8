"""Setting up a workspace whose AI answers texts, and driving the worker until it is done."""

from typing import Any

from sqlalchemy import select

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.models import AiJob
from homebase.root.worker import run_round
from tests.automations_support import PHONE, contact, member
from tests.messaging_support import SENDER, add_consent, add_sender, reply

DISCLOSURE = "Automated assistant for Sam Lee, writing on his behalf."
SIGNATURE = "- Ava, Lee Realty"
LINK = "https://leerealty.example/book"
PERSONA_PHONE = "+14155550100"
RESPONDER = {
    "ref": "ava",
    "name": "Ava",
    "tone": "warm, brief",
    "channels": ["SMS", "WHATSAPP"],
    "signature": SIGNATURE,
    "instructions": "Qualify buyers and sellers; offer showings; never quote commission.",
    "responder": True,
    "disclosure": DISCLOSURE,
    "links": [LINK],
    "phone": PERSONA_PHONE,
}
TWILIO = {"twilio_auth_token": "test-twilio-token"}


async def load(runtime, tenant, document: dict[str, Any]) -> dict[str, list[str]]:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock, actor="admin")
        return await load_fixtures(session, document)


async def responder_workspace(
    runtime, tenant, *, consent: bool = True, owner: bool = True, **persona: Any
) -> str:
    """An approved number, a responder persona, and a contact (Dana, PHONE) with consent
    on file, owned by a member; returns the contact's id."""
    await add_sender(runtime, tenant)
    if consent:
        await add_consent(runtime, tenant, PHONE)
    await load(runtime, tenant, {"personas": [{**RESPONDER, **persona}]})
    owner_id = await member(runtime, tenant) if owner else None
    return await contact(tenant, owner_id=owner_id)


async def text_in(client, body: str, sender: str = PHONE, to: str = SENDER) -> None:
    response = await reply(client, sender, body, to=to)
    assert response.status_code == 200, response.text


async def drive(runtime, rounds: int = 30) -> None:
    """Worker rounds, waiting for the model calls they start, until nothing is left."""
    for _ in range(rounds):
        did = await run_round(runtime)
        running = runtime.background.running("ai")
        await runtime.background.idle()
        if did == 0 and running == 0:
            return
    raise AssertionError(f"the worker still had work after {rounds} rounds")


async def ai_jobs(runtime, tenant) -> list[dict[str, Any]]:
    table = AiJob.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table).where(table.c.workspace_id == tenant.id).order_by(table.c.id)
        )
        return [dict(row) for row in rows.mappings()]


async def outbound(tenant) -> list[dict[str, Any]]:
    """The workspace's outbound texts, oldest first."""
    response = await tenant.get("/v1/messages", params={"limit": 200})
    assert response.status_code == 200, response.text
    items = [m for m in response.json()["data"] if m["direction"] == "OUTBOUND"]
    return sorted(items, key=lambda m: m["id"])
