"""The send job: hands QUEUED messages to their provider after the request committed.

`claim` runs in one transaction: it picks QUEUED messages (FOR UPDATE SKIP LOCKED on
PostgreSQL; SQLite's BEGIN IMMEDIATE serialises claimers), re-runs the gates (state may
have changed since the request: a STOP reply, a suspension, the clock), fails what they
now refuse, and leases the rest (status SENDING, lease_token). The provider is called
outside any transaction; its answer is recorded only while the lease token still
matches, so two workers never both record one message. A lease that expires means a
worker died mid-send: the message is failed, not retried, since the provider may
already have sent it (at most once beats a duplicate text).
"""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from homebase.compliance.gates import Blocked
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.messaging import repository, service
from homebase.models import Message
from homebase.providers import Outbound, ProviderResult, provider_for
from homebase.runtime import Runtime
from homebase.worker.runner import job

messages = Message.__table__
STATUS_CALLBACK_PATH = "/providers/sms/status"
INTERRUPTED = "The worker sending this message stopped before the provider answered; " \
              "not retried, to avoid a duplicate."


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    message_id: str
    lease_token: str
    row: dict[str, Any]


def _locking(statement, connection):
    if connection.dialect.name == "postgresql":
        return statement.with_for_update(skip_locked=True)
    return statement


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    now = runtime.clock()
    claims: list[Claim] = []
    async with runtime.db.transaction() as connection:
        due = (await connection.execute(_locking(
            select(messages).where(messages.c.status == "QUEUED")
            .order_by(messages.c.id).limit(limit), connection))).mappings().all()
        for row in due:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            sender = await _sender(session, row)
            decision, _ = await service.decide(session, row["channel"], row["to_address"],
                                               sender)
            if isinstance(decision, Blocked):
                await _fail(session, dict(row), decision.message, decision.reason)
                continue
            token = new_id("lse")
            lease = {"status": "SENDING", "lease_token": token, "attempts": row["attempts"] + 1,
                     "lease_expires_at": now + timedelta(
                         seconds=runtime.settings.messaging_lease_seconds),
                     "updated_at": now}
            if await repository.update(session, row["id"], lease, status="QUEUED"):
                claims.append(Claim(row["workspace_id"], row["id"], token,
                                    {**row, **lease}))
    return claims


async def _sender(session: TenantSession, row) -> dict[str, Any] | None:
    if row["channel"] == "EMAIL":
        return None
    numbers = await repository.sender_numbers_for(session, row["channel"])
    return next((number for number in numbers if number["number"] == row["from_address"]),
                None)


async def _fail(session: TenantSession, row: dict[str, Any], reason: str,
                blocked_reason: str | None = None, **fence: Any) -> None:
    now = session.now()
    changes = {"status": "FAILED", "failure_reason": reason, "blocked_reason": blocked_reason,
               "failed_at": now, "updated_at": now, "lease_token": None,
               "lease_expires_at": None}
    if await repository.update(session, row["id"], changes, **fence):
        await service.record_on_timeline(session, {**row, **changes}, "message.failed")


def outbound(claimed: Claim, public_url: str) -> Outbound:
    row = claimed.row
    callback = None if row["channel"] == "EMAIL" else public_url.rstrip("/") + \
        STATUS_CALLBACK_PATH
    return Outbound(message_id=row["id"], channel=row["channel"],
                    from_address=row["from_address"], to_address=row["to_address"],
                    body=row["body"] or "", subject=row["subject"], status_callback=callback)


async def record(runtime: Runtime, claimed: Claim, provider: str,
                 result: ProviderResult) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        fence = {"lease_token": claimed.lease_token, "status": "SENDING"}
        if not result.accepted:
            await _fail(session, claimed.row, f"Provider {provider} refused: {result.error}",
                        **fence)
            return
        now = session.now()
        changes = {"status": "SENT", "provider": provider, "sent_at": now, "updated_at": now,
                   "provider_message_id": result.provider_message_id,
                   "provider_status": result.status, "lease_token": None,
                   "lease_expires_at": None}
        if await repository.update(session, claimed.message_id, changes, **fence):
            await service.mark_sent(session, {**claimed.row, **changes})


async def send_one(runtime: Runtime, claimed: Claim) -> None:
    provider = provider_for(claimed.row["channel"], runtime.settings)
    result = await provider.send(outbound(claimed, runtime.settings.public_url))
    await record(runtime, claimed, provider.name, result)


async def sweep(runtime: Runtime) -> int:
    """Fail messages whose sending lease expired (their worker died mid-send)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        stuck = (await connection.execute(_locking(
            select(messages).where(messages.c.status == "SENDING",
                                   messages.c.lease_expires_at <= now), connection)
        )).mappings().all()
        for row in stuck:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            await _fail(session, dict(row), INTERRUPTED, lease_token=row["lease_token"])
    return len(stuck)


@job("messages.send")
async def send_due(runtime: Runtime) -> int:
    swept = await sweep(runtime)
    claims = await claim(runtime, runtime.settings.messaging_send_batch)
    for claimed in claims:
        await send_one(runtime, claimed)
    return swept + len(claims)


