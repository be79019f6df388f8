"""Helpers for the messaging tests: sender numbers, consent, workspace state, the clock,
signed provider callbacks."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from sqlalchemy import update

from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.kit.ids import new_id
from homebase.models import ConsentArtifact, Workspace
from homebase.providers.signing import signature
from homebase.workspaces import service as workspaces

TOKEN = "test-twilio-token"
SENDER = "+14155550100"
NEW_YORK = "+12125550142"
LOS_ANGELES = "+13105550142"
HONOLULU = "+18085550142"
NORTH_DAKOTA = "+17015550142"
NO_ZONE = "+8823234567"


def freeze(runtime, utc_hour: int, minute: int = 0) -> FrozenClock:
    """Tomorrow at this UTC time (keys made today stay valid); hours chosen by the tests
    give the same verdict with or without daylight saving time."""
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    clock = FrozenClock(tomorrow.replace(hour=utc_hour, minute=minute, second=0,
                                         microsecond=0))
    runtime.clock = clock
    return clock


async def add_sender(runtime, tenant, number=SENDER, channel="sms", a2p_status="approved"):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        return await workspaces.add_sender_number(session, number=number, channel=channel,
                                                  a2p_status=a2p_status)


async def add_consent(runtime, tenant, phone_e164: str, *, days: int = 365,
                      revoked: bool = False):
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await session.insert(ConsentArtifact.__table__, {
            "id": new_id("cns"), "phone": phone_e164, "phone_e164": phone_e164,
            "lead_id": None, "captured_at": now - timedelta(days=1), "source_url": None,
            "ip": None, "form_snapshot": None, "recorded_at": now,
            "expires_at": now + timedelta(days=days), "revoked_at": now if revoked else None})


async def set_status(runtime, tenant, status: str) -> None:
    async with runtime.db.transaction() as connection:
        await workspaces.set_workspace_status(connection, tenant.id, status)


async def set_messaging(runtime, tenant, **values) -> None:
    async with runtime.db.transaction() as connection:
        await connection.execute(update(Workspace.__table__)
                                 .where(Workspace.__table__.c.id == tenant.id)
                                 .values(settings=values))


async def provider_post(client, path: str, params: dict, token: str = TOKEN,
                        base: str = "http://127.0.0.1:8000"):
    signed = signature(token, base + path, params.items())
    return await client.post(path, content=urlencode(params), headers={
        "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signed})


async def reply(client, sender: str, body: str, to: str = SENDER, sid: str | None = None):
    return await provider_post(client, "/providers/sms/inbound", {
        "From": sender, "To": to, "Body": body, "MessageSid": sid or new_id("SM"),
        "AccountSid": "AC123"})
