"""Helpers for the messaging tests: sender numbers, consent, workspace state, the clock,
signed provider callbacks, a real SMTP server (aiosmtpd)."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import update

from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.kit.ids import new_id
from homebase.models import ConsentArtifact, Workspace
from homebase.providers.signing import signature
from homebase.workspaces import service as workspaces
from tests.support import closed_port  # noqa: F401  (the messaging tests import it here)

TOKEN = "test-twilio-token"
SENDER = "+14155550100"
NEW_YORK = "+12125550142"
LOS_ANGELES = "+13105550142"
HONOLULU = "+18085550142"
NORTH_DAKOTA = "+17015550142"
NO_ZONE = "+8823234567"
CUT_OFF = "cut-off@example.com"  # the SMTP server drops the connection after its DATA
NO_SUCH_USER = "nobody@example.com"  # the SMTP server refuses this recipient


class Mailbox:
    """Keeps every envelope it receives. Mail to CUT_OFF is kept too, but the connection
    is dropped before the answer: the mail went out, the sender cannot know. NO_SUCH_USER
    is refused at RCPT."""

    def __init__(self):
        self.messages = []

    async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
        if address == NO_SUCH_USER:
            return "550 5.1.1 No such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.messages.append(envelope)
        if CUT_OFF in envelope.rcpt_tos:
            server.transport.close()
        return "250 Message accepted for delivery"


class LoopbackSmtp(Controller):
    """aiosmtpd's threaded server on 127.0.0.1, port 0: `port` is the one it bound, read
    before its start-up check connects there (the hook aiosmtpd leaves to subclasses)."""

    def __init__(self, handler):
        super().__init__(handler, hostname="127.0.0.1", port=0)

    def _trigger_server(self):
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@pytest.fixture(scope="module", name="smtp_server")
def smtp_server_fixture():
    mailbox = Mailbox()
    controller = LoopbackSmtp(mailbox)
    controller.start()
    controller.mailbox = mailbox
    yield controller
    controller.stop()


def smtp_settings(server) -> dict:
    """Settings that send email to `server` (smtp_server_fixture), its mailbox emptied."""
    server.mailbox.messages.clear()
    return {
        "email_provider": "smtp",
        "smtp_host": "127.0.0.1",
        "smtp_port": server.port,
        "email_from": "agent@demo-realty.example",
    }


def freeze(runtime, utc_hour: int, minute: int = 0) -> FrozenClock:
    """Tomorrow at this UTC time (keys made today stay valid); hours chosen by the tests
    give the same verdict with or without daylight saving time."""
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    clock = FrozenClock(tomorrow.replace(hour=utc_hour, minute=minute, second=0, microsecond=0))
    runtime.clock = clock
    return clock


async def add_sender(runtime, tenant, number=SENDER, channel="sms", a2p_status="approved"):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        return await workspaces.add_sender_number(
            session, number=number, channel=channel, a2p_status=a2p_status
        )


async def add_consent(runtime, tenant, phone_e164: str, *, days: int = 365, revoked: bool = False):
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await session.insert(
            ConsentArtifact.__table__,
            {
                "id": new_id("cns"),
                "phone": phone_e164,
                "phone_e164": phone_e164,
                "lead_id": None,
                "captured_at": now - timedelta(days=1),
                "source_url": None,
                "ip": None,
                "form_snapshot": None,
                "recorded_at": now,
                "expires_at": now + timedelta(days=days),
                "revoked_at": now if revoked else None,
            },
        )


async def set_status(runtime, tenant, status: str) -> None:
    async with runtime.db.transaction() as connection:
        await workspaces.set_workspace_status(connection, tenant.id, status=status)


async def set_messaging(runtime, tenant, **values) -> None:
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(Workspace.__table__)
            .where(Workspace.__table__.c.id == tenant.id)
            .values(settings=values)
        )


async def provider_post(
    client, path: str, params: dict, token: str = TOKEN, base: str = "http://127.0.0.1:8000"
):
    signed = signature(token, base + path, params.items())
    return await client.post(
        path,
        content=urlencode(params),
        headers={"content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signed},
    )


async def reply(
    client,
    sender: str,
    body: str,
    to: str = SENDER,
    sid: str | None = None,
    base: str = "http://127.0.0.1:8000",
):
    """An inbound text from `sender`, signed for the service's address `base` (its
    HOMEBASE_PUBLIC_URL when the test sets one)."""
    return await provider_post(
        client,
        "/providers/sms/inbound",
        {
            "From": sender,
            "To": to,
            "Body": body,
            "MessageSid": sid or new_id("SM"),
            "AccountSid": "AC123",
        },
        base=base,
    )
