"""Worker jobs for webhooks: thin wrappers that open a transaction and call dispatcher.

Each round the worker fans the outbox out, sends what is due, then sweeps expired
leases. Imported by the app (`homebase serve`) and by `homebase worker`.
"""

import asyncio
import logging
from datetime import datetime

from homebase.kit import logs
from homebase.runtime import Runtime
from homebase.webhooks import dispatcher, render
from homebase.webhooks.delivery import AttemptResult, attempt, client_for
from homebase.webhooks.signing import signature_headers
from homebase.worker import turns

log = logging.getLogger("homebase.webhooks")


async def _waiting(runtime: Runtime, job_name: str) -> bool:
    async with runtime.db.transaction(write=False) as connection:
        return await dispatcher.work_waiting(connection, runtime.clock(), job_name)


# Fan-out transactions one run makes at most, the next only after a whole batch: a large
# import's events (two or more a row) go out in a few rounds rather than a round per
# batch, each round's other jobs looking for work again in between (docs/performance.md,
# "Bulk imports").
FANOUT_TRANSACTIONS = 4


async def fan_out(runtime: Runtime) -> int:
    if not await _waiting(runtime, "fan_out"):
        return 0
    done = 0
    for _ in range(FANOUT_TRANSACTIONS):
        # A transaction of a full batch holds SQLite's event loop for milliseconds: the
        # requests an in-process worker shares it with get a turn between them.
        await turns.give()
        async with runtime.db.transaction() as connection:
            did = await dispatcher.fan_out(connection, runtime.settings, runtime.clock())
        done += did
        if did < runtime.settings.webhook_fanout_batch:
            break  # the outbox is drained (or what is left is another worker's)
    return done


def request_for(
    claim: dispatcher.Claim, secret: str, now: datetime
) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one attempt, signed at `now` (the runtime's clock, so a
    test decides which side of the older headers' sunset an attempt falls on)."""
    body = render.envelope(
        claim.event_type, claim.workspace_id, claim.event_id, claim.occurred_at, claim.data
    )
    headers = {
        "Content-Type": "application/json",
        "X-Webhook-Event": claim.event_type,
        "X-Webhook-Delivery": claim.delivery_id,
        "X-Webhook-Attempt": str(claim.attempt_number),
        **signature_headers(secret, body, claim.event_id, now),
    }
    return body, headers


UNSIGNABLE = (
    "the subscription's secret cannot be decrypted (HOMEBASE_SECRET_KEY changed?); "
    "re-create the subscription"
)


async def _send(runtime: Runtime, claim: dispatcher.Claim) -> AttemptResult:
    if claim.secret is None:
        return AttemptResult(succeeded=False, status_code=None, latency_ms=0, error=UNSIGNABLE)
    body, headers = request_for(claim, claim.secret, runtime.clock())
    try:
        return await attempt(
            client_for(runtime.settings, runtime.resolver),
            claim.url,
            body,
            headers,
            runtime.settings,
        )
    except Exception as failure:
        # An unforeseen error fails this attempt only; escaping gather would leave the
        # whole batch leased (and its finished attempts unrecorded) until the sweeper.
        log.exception("webhook delivery %s: attempt raised", claim.delivery_id)
        return AttemptResult(
            succeeded=False,
            status_code=None,
            latency_ms=0,
            error=f"internal error: {type(failure).__name__}",
        )


async def deliver_due(runtime: Runtime) -> int:
    """Claim up to HOMEBASE_WEBHOOK_DELIVERY_BATCH due deliveries, POST them
    concurrently, record every outcome in one transaction."""
    settings = runtime.settings
    if not await _waiting(runtime, "deliver"):
        return 0
    async with runtime.db.transaction() as connection:
        claims = await dispatcher.claim(
            connection, settings, runtime.clock(), settings.webhook_delivery_batch
        )
    if not claims:
        return 0
    results = await asyncio.gather(*(_send(runtime, claim) for claim in claims))
    async with runtime.db.transaction() as connection:
        disabled = await dispatcher.record(
            connection, list(zip(claims, results, strict=True)), runtime.clock(), settings
        )
    workspaces = {claim.subscription_id: claim.workspace_id for claim in claims}
    for subscription_id in disabled:
        logs.event(
            log,
            "webhook subscription disabled",
            level=logging.WARNING,
            subscription_id=subscription_id,
            workspace_id=workspaces[subscription_id],
            reason="every attempt failed for HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS",
        )
    for claim, result in zip(claims, results, strict=True):
        logs.event(
            log,
            "webhook delivery attempt",
            level=logging.INFO if result.succeeded else logging.WARNING,
            delivery_id=claim.delivery_id,
            attempt_id=claim.attempt_id,
            event_id=claim.event_id,
            event_type=claim.event_type,
            workspace_id=claim.workspace_id,
            attempt=claim.attempt_number,
            outcome="succeeded" if result.succeeded else "failed",
            status_code=result.status_code,
            latency_ms=result.latency_ms,
            error=result.error,
        )
    return len(claims)


async def sweep(runtime: Runtime) -> int:
    if not await _waiting(runtime, "sweep"):
        return 0
    async with runtime.db.transaction() as connection:
        return await dispatcher.sweep(connection, runtime.clock())
