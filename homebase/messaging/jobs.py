"""The send job: hands QUEUED messages to their provider after the request committed.

`claim` runs in one transaction on the leased queue (worker/queue.py: concurrent workers
never pick the same message): it picks QUEUED messages, re-runs the gates (state may have
changed since the request: a STOP reply, a suspension, the clock), fails what they now
refuse, and leases the rest: they stay QUEUED with a lease_token and are not due again
until the lease expires (next_attempt_at). Just before its provider call, each message is
marked SENDING under its lease (`begin_send`, its own short transaction); the provider is
called outside any transaction, and its answer is recorded only while the lease token still
matches (the fence), so two workers never both record one message. A worker that dies with
a claimed batch therefore loses nothing it had not started: the messages it never handed
over are still QUEUED and are claimed again when the lease expires; only the one it was
sending (SENDING) may have reached the provider.

Sends are at most once, and each succeeds or fails alone:
- an error before the provider was reached (building the call, or the provider saying
  NOT_SENT: it could not connect) puts the message back in the queue, claimable again
  after a backoff (RETRY_BACKOFF_SECONDS, doubling), until MAX_SEND_ATTEMPTS: then FAILED;
- a send whose outcome is unknown (the provider call broke off midway, or raised; or the
  SENDING lease expired because the worker died mid-send) is FAILED "outcome unknown" and never
  repeated: the provider may already have sent it, and a duplicate is worse than a
  visible failure;
- a provider's refusal is FAILED with its reason.
An exception while sending one claim is logged and leaves only that claim to the sweep.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import or_, select
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.compliance.gates import Blocked
from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.messaging import confirmation, repository, service, unsubscribe
from homebase.messaging.records import MessageRecord, SenderNumberRecord
from homebase.metrics import compliance_refusal, message_send
from homebase.models import Message
from homebase.providers import Outbound, ProviderResult, provider_for
from homebase.providers.base import NOT_SENT, UNKNOWN
from homebase.runtime import Runtime
from homebase.worker import queue

messages = Message.__table__
STATUS_CALLBACK_PATH = "/providers/sms/status"
INTERRUPTED = (
    "The worker sending this message stopped before the provider answered: "
    "outcome unknown; not retried, to avoid a duplicate."
)
MAX_SEND_ATTEMPTS = 5  # claims of one message whose send never reached the provider
RETRY_BACKOFF_SECONDS = 30  # before the second attempt; doubled for each one after
log = logging.getLogger("homebase.messaging.send")
LEASE = queue.Lease(
    messages,
    token=messages.c.lease_token,
    expires=messages.c.lease_expires_at,
    attempts=messages.c.attempts,
)


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    message_id: str
    lease_token: str
    row: MessageRecord


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    async with runtime.db.transaction() as connection:
        # Read once the transaction has begun (on SQLite, after waiting for the write
        # lock): a stamp older than its transaction could commit behind a sync walk's
        # position (db/settle.py).
        now = runtime.clock()
        expires = now + timedelta(seconds=runtime.settings.messaging_lease_seconds)

        async def allowed(due: Sequence[RowMapping]) -> list[RowMapping]:
            return [row for row in due if await _allowed(connection, runtime, row)]

        # Still QUEUED: not due again before the lease ends; begin_send marks SENDING.
        held = {"next_attempt_at": expires, "updated_at": now}
        claimed = await LEASE.claim(
            connection,
            select(messages)
            .where(
                messages.c.status == "QUEUED",
                or_(messages.c.next_attempt_at.is_(None), messages.c.next_attempt_at <= now),
            )
            .order_by(messages.c.id)
            .limit(limit),
            expires,
            choose=allowed,
            **held,
        )
    return [
        Claim(
            row["workspace_id"],
            row["id"],
            token,
            cast(
                "MessageRecord",  # the queue's RowMapping: a messages row
                {
                    **row,
                    **held,
                    "lease_token": token,
                    "lease_expires_at": expires,
                    "attempts": row["attempts"] + 1,
                },
            ),
        )
        for row, token in claimed
    ]


async def _allowed(connection: AsyncConnection, runtime: Runtime, row: RowMapping) -> bool:
    """The gates again, as at send time; a message they now refuse is FAILED here. An
    opt-out's confirmation passes every gate but the opt-out gate, and only within its
    five minutes while its opt-out stands (messaging/confirmation.py)."""
    session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
    confirms = row["confirms_suppression_id"] is not None
    record = cast("MessageRecord", row)  # the queue's RowMapping: a messages row
    if confirms and (late := await confirmation.expired(session, record)) is not None:
        await _fail(session, record, late)
        message_send(row["channel"], "expired")
        return False
    sender = await _sender(session, row)
    decision, _ = await service.decide(
        session,
        row["channel"],
        address=row["to_address"],
        sender=sender,
        ai_reply=row["ai_job_id"] is not None,
        confirmation=confirms,
        message_id=row["id"],
    )
    if not isinstance(decision, Blocked):
        return True
    await _fail(session, record, decision.message, decision.reason)
    compliance_refusal(decision.reason, row["channel"], "send")
    message_send(row["channel"], "blocked")
    logs.event(
        log,
        "message refused by compliance gate",
        level=logging.WARNING,
        message_id=row["id"],
        workspace_id=row["workspace_id"],
        channel=row["channel"],
        gate=decision.reason,
        at="send",
    )
    return False


async def _sender(session: TenantSession, row: RowMapping) -> SenderNumberRecord | None:
    if row["channel"] == "EMAIL":
        return None
    numbers = await repository.sender_numbers_for(session, row["channel"])
    return next((number for number in numbers if number["number"] == row["from_address"]), None)


async def _update(
    session: TenantSession,
    message_id: str,
    changes: dict[str, Any],  # a message's columns and the lease's (worker/queue.py)
    token: str | None = None,
    status: str | None = None,
) -> int:
    """Fenced when `token` is given: changes the message only while that token still holds
    its lease (and it is in `status`). Without, the caller holds the row (claim's gates)."""
    statement = session.update(messages).where(messages.c.id == message_id)
    if token is not None:
        statement = LEASE.held(statement, token)
    if status is not None:
        statement = statement.where(messages.c.status == status)
    return await session.execute(statement.values(**changes))


async def _fail(
    session: TenantSession,
    row: MessageRecord,
    reason: str,
    blocked_reason: str | None = None,
    token: str | None = None,
    status: str | None = None,
) -> None:
    now = session.now()
    changes: dict[str, Any] = {  # a message's columns and the lease's (worker/queue.py)
        "status": "FAILED",
        "failure_reason": reason,
        "blocked_reason": blocked_reason,
        "failed_at": now,
        "updated_at": now,
        **LEASE.released,
    }
    if await _update(session, row["id"], changes, token, status):
        failed = cast("MessageRecord", {**row, **changes})
        await service.record_on_timeline(session, failed, kind="message.failed")


def outbound(claimed: Claim, settings: Settings) -> Outbound:
    row = claimed.row
    public_url = settings.public_url
    callback, unsubscribe_url = None, None
    if row["channel"] == "EMAIL":
        unsubscribe_url = unsubscribe.link(
            settings.keys, public_url, claimed.workspace_id, row["to_address"] or "", row["id"]
        )
    else:
        callback = public_url.rstrip("/") + STATUS_CALLBACK_PATH
    return Outbound(
        message_id=row["id"],
        channel=row["channel"],
        # a queued message always has both (service.send)
        from_address=row["from_address"] or "",
        to_address=row["to_address"] or "",
        body=row["body"] or "",
        subject=row["subject"],
        status_callback=callback,
        unsubscribe_url=unsubscribe_url,
    )


async def record(runtime: Runtime, claimed: Claim, provider: str, result: ProviderResult) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        fence = {"token": claimed.lease_token, "status": "SENDING"}
        if result.failure == NOT_SENT:
            await _retry(session, claimed, result.error or "not sent")
            return
        if result.failure == UNKNOWN:
            await _fail(
                session,
                claimed.row,
                f"Provider {provider}: outcome unknown "
                f"({result.error}); not retried, to avoid a "
                "duplicate.",
                **fence,
            )
            return
        if not result.accepted:
            await _fail(
                session, claimed.row, f"Provider {provider} refused: {result.error}", **fence
            )
            message_send(claimed.row["channel"], "provider_refused")
            _sent(claimed, provider, "refused_by_provider", result.status)
            return
        now = session.now()
        changes: dict[str, Any] = {  # a message's columns and the lease's (worker/queue.py)
            "status": "SENT",
            "provider": provider,
            "sent_at": now,
            "updated_at": now,
            "provider_message_id": result.provider_message_id,
            "provider_status": result.status,
            **LEASE.released,
        }
        if await _update(session, claimed.message_id, changes, **fence):
            await service.mark_sent(session, cast("MessageRecord", {**claimed.row, **changes}))
            _sent(claimed, provider, "sent", result.status)
        else:  # the lease was lost (swept) meanwhile: the sweeper's FAILED stands
            _sent(claimed, provider, "lease_lost", result.status)
        message_send(claimed.row["channel"], "sent")


async def begin_send(runtime: Runtime, claimed: Claim) -> bool:
    """Marks a claimed message SENDING just before its provider call, in its own
    transaction; False when the lease was lost meanwhile (expired and claimed again)."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        # Stamped inside the transaction (db/settle.py), as claim() does.
        changes = {"status": "SENDING", "next_attempt_at": None, "updated_at": session.now()}
        return bool(
            await _update(session, claimed.message_id, changes, claimed.lease_token, "QUEUED")
        )


async def _retry(
    session: TenantSession, claimed: Claim, error: str, status: str = "SENDING"
) -> None:
    """Nothing reached the provider: queue it again after a backoff, or give up."""
    fence = {"token": claimed.lease_token, "status": status}
    attempts = claimed.row["attempts"]
    if attempts >= MAX_SEND_ATTEMPTS:
        await _fail(session, claimed.row, f"Not sent after {attempts} attempts: {error}", **fence)
        return
    now = session.now()
    wait = queue.backoff(attempts, RETRY_BACKOFF_SECONDS)
    log.warning(
        "message %s not sent (attempt %d), retried in %s: %s",
        claimed.message_id,
        attempts,
        wait,
        error,
    )
    await _update(
        session,
        claimed.message_id,
        {"status": "QUEUED", **LEASE.released, "next_attempt_at": now + wait, "updated_at": now},
        **fence,
    )


def _sent(claimed: Claim, provider: str, outcome: str, provider_status: str | None) -> None:
    # Ids and outcome only: never the body, the recipient or the provider's error text.
    logs.event(
        log,
        "message send",
        message_id=claimed.message_id,
        workspace_id=claimed.workspace_id,
        channel=claimed.row["channel"],
        provider=provider,
        outcome=outcome,
        provider_status=provider_status,
        level=logging.INFO if outcome == "sent" else logging.WARNING,
    )


async def send_one(runtime: Runtime, claimed: Claim) -> None:
    try:
        provider = provider_for(claimed.row["channel"], runtime.settings)
        message = outbound(claimed, runtime.settings)
    except Exception as error:  # noqa: BLE001 (before the provider: safe to try again)
        log.exception("message %s: preparing the send failed", claimed.message_id)
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
            await _retry(
                session, claimed, f"{type(error).__name__}: {error}"[:500], status="QUEUED"
            )
        return
    if not await begin_send(runtime, claimed):
        log.warning(
            "message %s: lease lost before sending; left to its new claim", claimed.message_id
        )
        return
    try:
        result = await provider.send(message)
    except Exception as error:  # noqa: BLE001 (it broke off inside the provider call)
        log.exception("message %s: provider %s raised", claimed.message_id, provider.name)
        result = ProviderResult(
            accepted=False, failure=UNKNOWN, error=f"{type(error).__name__}: {error}"[:500]
        )
    await record(runtime, claimed, provider.name, result)


async def sweep(runtime: Runtime) -> int:
    """Fail messages whose sending lease expired (their worker died mid-send)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        stuck = await LEASE.lapsed(connection, now, messages.c.status == "SENDING")
        for row in stuck:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            record = cast("MessageRecord", dict(row))  # the queue's RowMapping: a messages row
            await _fail(session, record, INTERRUPTED, token=row["lease_token"])
            message_send(row["channel"], "interrupted")
            logs.event(
                log,
                "message send",
                level=logging.WARNING,
                message_id=row["id"],
                workspace_id=row["workspace_id"],
                channel=row["channel"],
                outcome="outcome_unknown",
            )
    return len(stuck)


async def send_due(runtime: Runtime) -> int:
    swept = await sweep(runtime)
    claims = await claim(runtime, runtime.settings.messaging_send_batch)
    for claimed in claims:
        try:
            await send_one(runtime, claimed)
        except Exception:  # noqa: BLE001 (one message's failure must not end the batch)
            # Its answer is unrecorded: it stays SENDING and the sweep fails it as
            # outcome unknown when its lease expires.
            log.exception("message %s: recording the send failed", claimed.message_id)
    return swept + len(claims)
