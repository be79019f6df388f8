"""The delivery engine: fan-out, leased claims, recording attempts, the sweeper.

These functions work across workspaces (the worker serves them all), so they take a
bare connection; each row they touch carries its workspace_id and every statement
keeps it. Each runs inside one transaction the caller opens (jobs.py) and commits.

Claims are leases on the leased queue (worker/queue.py, `LEASE`). Claiming a due
delivery sets lease_expires_at (now + HOMEBASE_WEBHOOK_LEASE_SECONDS, longer than the
timeout) and lease_attempt_id, and writes the attempt as in_progress, in one
transaction; concurrent workers never pick the same row. The POST happens outside any
transaction. Its outcome is recorded only if lease_attempt_id still names that attempt
(the fence). A worker killed mid-attempt leaves the lease to expire; the sweeper then
marks the attempt abandoned (it counts as one of the six) and makes the delivery due.
"""

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, RowMapping, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.config import Settings
from homebase.kit.ids import new_id
from homebase.kit.sealed import SealBroken, unseal
from homebase.kit.value_lists import in_values
from homebase.metrics import webhook_outcomes
from homebase.models import OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookSubscription
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.webhooks import grants, retry_after, streaks
from homebase.webhooks.delivery import AttemptResult
from homebase.webhooks.service import SEAL_PURPOSE
from homebase.worker import queue

outbox = OutboxEvent.__table__
subscriptions = WebhookSubscription.__table__
deliveries = WebhookDelivery.__table__
attempts = WebhookAttempt.__table__

MAX_ATTEMPTS = 6
WORKER_NAME = f"{socket.gethostname()}:{os.getpid()}"
ABANDONED = "the worker making this attempt stopped before it finished (lease expired)"
# The token of a delivery's lease is the id of the attempt it makes.
LEASE = queue.Lease(
    deliveries,
    token=deliveries.c.lease_attempt_id,
    expires=deliveries.c.lease_expires_at,
    attempts=deliveries.c.attempts,
    token_prefix="wha",
)

# What fan-out reads of an event: never its data, which only a delivery's send renders.
_FANNED_OUT = (outbox.c.id, outbox.c.workspace_id, outbox.c.type, outbox.c.occurred_at)
# A batch's events marked dispatched: one statement per dialect, the ids bound as one list
# (kit/value_lists.py), compiled once rather than a placeholder per id each batch (a large
# import's events are fanned out a batch at a time while it runs; docs/performance.md,
# "Bulk imports").
_DISPATCHED = {
    dialect: update(outbox)
    .where(in_values(outbox.c.id, "ids", dialect))
    .values(dispatched_at=bindparam("now"))
    for dialect in ("sqlite", "postgresql")
}


def _matches(subscription: RowMapping, limit: frozenset[str] | None, event: RowMapping) -> bool:
    """`limit`: what an app-created subscription's grant reads now (grants.grant_limit)."""
    wanted = subscription["event_types"]
    scope = EVENT_SCOPES[event["type"]].value
    return (
        (not wanted or event["type"] in wanted)
        and scope in subscription["scopes"]
        and (limit is None or scope in limit)
        and subscription["created_at"] <= event["occurred_at"]
    )


async def fan_out(connection: AsyncConnection, settings: Settings, now: datetime) -> int:
    """Turn undispatched outbox rows into one delivery per matching subscription and
    mark them dispatched, all in the caller's transaction. Returns rows dispatched."""
    events = await queue.take(
        connection,
        select(*_FANNED_OUT)
        .where(outbox.c.dispatched_at.is_(None))
        .order_by(outbox.c.id)
        .limit(settings.webhook_fanout_batch),
    )
    if not events:
        return 0
    workspace_ids = {event["workspace_id"] for event in events}
    active = (
        (
            await connection.execute(
                select(subscriptions, *grants.GRANT_COLUMNS)
                .select_from(grants.with_grant(subscriptions))
                .where(
                    subscriptions.c.workspace_id.in_(workspace_ids),
                    subscriptions.c.deleted_at.is_(None),
                    # Disabled (streaks.py): nothing is queued; GET /v1/events has it all.
                    subscriptions.c.disabled_at.is_(None),
                )
            )
        )
        .mappings()
        .all()
    )
    limits = {subscription["id"]: grants.grant_limit(subscription) for subscription in active}
    rows = [
        {
            "id": new_id("whd"),
            "workspace_id": event["workspace_id"],
            "subscription_id": subscription["id"],
            "event_id": event["id"],
            "event_type": event["type"],
            "status": "pending",
            "attempts": 0,
            "total_attempts": 0,
            "next_attempt_at": now,
            "lease_expires_at": None,
            "lease_attempt_id": None,
            "last_status_code": None,
            "last_error": None,
            "created_at": now,
            "completed_at": None,
        }
        for event in events
        for subscription in active
        if subscription["workspace_id"] == event["workspace_id"]
        and _matches(subscription, limits[subscription["id"]], event)
    ]
    if rows:
        await connection.execute(insert(deliveries), rows)
    await connection.execute(
        _DISPATCHED[connection.dialect.name], {"ids": [e["id"] for e in events], "now": now}
    )
    return len(events)


@dataclass(frozen=True)
class Claim:
    delivery_id: str
    attempt_id: str
    attempt_number: int  # within the current schedule, 1 to 6
    workspace_id: str
    subscription_id: str
    url: str
    secret: str | None  # None: the sealed secret does not open (see _secret)
    event_id: str
    event_type: str
    occurred_at: datetime
    data: dict[str, Any]  # the event's JSON, as its emitter stored it


# A fan-out that read a subscription as active just before a DELETE (or its disabling)
# committed can still insert a pending delivery for it (PostgreSQL, read committed); the
# sweeper cancels those, but it runs after delivery in a round, so claims must skip them
# themselves.
_GONE = subscriptions.c.deleted_at.is_not(None) | subscriptions.c.disabled_at.is_not(None)
_SUBSCRIPTION_GONE = (
    select(subscriptions.c.id)
    .where(subscriptions.c.id == deliveries.c.subscription_id, _GONE)
    .exists()
)
_DUE = select(
    deliveries.c.id, deliveries.c.workspace_id, deliveries.c.attempts, deliveries.c.total_attempts
).where(
    deliveries.c.status == "pending",
    deliveries.c.lease_attempt_id.is_(None),
    ~_SUBSCRIPTION_GONE,
)


async def claim(
    connection: AsyncConnection,
    settings: Settings,
    now: datetime,
    limit: int,
    worker: str = WORKER_NAME,
) -> list[Claim]:
    due = await queue.take(
        connection,
        _DUE.where(deliveries.c.next_attempt_at <= now)
        .order_by(deliveries.c.next_attempt_at, deliveries.c.id)
        .limit(limit),
    )
    due = await _drop_uncovered(connection, due, now)
    if not due:
        return []
    leases = await LEASE.grant(
        connection,
        [row["id"] for row in due],
        now + timedelta(seconds=settings.webhook_lease_seconds),
        total_attempts=deliveries.c.total_attempts + 1,
    )
    await connection.execute(
        insert(attempts),
        [
            {
                "id": leases[row["id"]],
                "workspace_id": row["workspace_id"],
                "delivery_id": row["id"],
                "number": row["total_attempts"] + 1,
                "outcome": "in_progress",
                "status_code": None,
                "latency_ms": None,
                "error": None,
                "worker": worker[:80],
                "started_at": now,
                "finished_at": None,
            }
            for row in due
        ],
    )
    return await _load_claims(connection, settings, due, leases)


async def _drop_uncovered(
    connection: AsyncConnection, due: Sequence[RowMapping], now: datetime
) -> Sequence[RowMapping]:
    """Due deliveries of app-created subscriptions whose grant no longer reads the event
    (narrowed, or revoked by a path that left the subscription) are cancelled, not sent:
    fan-out checked the grant when the event was queued, this checks it as it goes out."""
    if not due:
        return []
    rows = (
        (
            await connection.execute(
                select(
                    deliveries.c.id,
                    deliveries.c.event_type,
                    subscriptions.c.created_by_kind,
                    *grants.GRANT_COLUMNS,
                )
                .select_from(
                    grants.with_grant(
                        deliveries.join(
                            subscriptions, subscriptions.c.id == deliveries.c.subscription_id
                        )
                    )
                )
                .where(
                    deliveries.c.id.in_([row["id"] for row in due]),
                    subscriptions.c.created_by_kind == grants.APP_KIND,
                )
            )
        )
        .mappings()
        .all()
    )
    refused = {
        row["id"]
        for row in rows
        # Every row is an app's (the query's), whose limit is never None.
        if EVENT_SCOPES[row["event_type"]].value not in (grants.grant_limit(row) or ())
    }
    if not refused:
        return list(due)
    await connection.execute(
        update(deliveries)
        .where(deliveries.c.id.in_(sorted(refused)), deliveries.c.lease_attempt_id.is_(None))
        .values(
            status="cancelled",
            completed_at=now,
            next_attempt_at=None,
            last_error=grants.NOT_COVERED,
        )
    )
    webhook_outcomes([], ["cancelled"] * len(refused))
    return [row for row in due if row["id"] not in refused]


async def _load_claims(
    connection: AsyncConnection,
    settings: Settings,
    due: Sequence[RowMapping],
    attempt_of: dict[str, str],
) -> list[Claim]:
    number_of = {row["id"]: row["attempts"] + 1 for row in due}
    rows = (
        (
            await connection.execute(
                select(
                    deliveries.c.id,
                    deliveries.c.workspace_id,
                    deliveries.c.event_id,
                    deliveries.c.event_type,
                    subscriptions.c.id.label("subscription_id"),
                    subscriptions.c.url,
                    subscriptions.c.secret_encrypted,
                    outbox.c.occurred_at,
                    outbox.c.data,
                )
                .join(subscriptions, subscriptions.c.id == deliveries.c.subscription_id)
                .join(outbox, outbox.c.id == deliveries.c.event_id)
                .where(deliveries.c.id.in_(list(attempt_of)))
            )
        )
        .mappings()
        .all()
    )
    return [
        Claim(
            delivery_id=row["id"],
            attempt_id=attempt_of[row["id"]],
            attempt_number=number_of[row["id"]],
            workspace_id=row["workspace_id"],
            subscription_id=row["subscription_id"],
            url=row["url"],
            secret=_secret(settings, row),
            event_id=row["event_id"],
            event_type=row["event_type"],
            occurred_at=row["occurred_at"],
            data=row["data"],
        )
        for row in rows
    ]


def _secret(settings: Settings, row: RowMapping) -> str | None:
    """One unreadable secret (HOMEBASE_SECRET_KEY changed) fails its own deliveries,
    never the whole batch."""
    try:
        return unseal(settings.keys, SEAL_PURPOSE, row["secret_encrypted"], row["subscription_id"])
    except SealBroken:
        return None


def _next_state(
    claim: Claim, result: AttemptResult, now: datetime, settings: Settings
) -> dict[str, Any]:  # SQLAlchemy's bound values
    if result.succeeded:
        return {"b_status": "succeeded", "b_completed": now, "b_next": None}
    if claim.attempt_number >= MAX_ATTEMPTS:
        return {"b_status": "failed", "b_completed": now, "b_next": None}
    wait = retry_after.next_wait(
        claim.attempt_number,
        settings.webhook_backoff_unit_seconds,
        retry_after.requested_seconds(result.retry_after, now),
    )
    return {"b_status": "pending", "b_completed": None, "b_next": now + wait}


_RECORD_ATTEMPT = (
    update(attempts)
    .where(attempts.c.id == bindparam("b_attempt"), attempts.c.outcome == "in_progress")
    .values(
        outcome=bindparam("b_outcome"),
        status_code=bindparam("b_code"),
        latency_ms=bindparam("b_latency"),
        error=bindparam("b_error"),
        finished_at=bindparam("b_finished"),
    )
)
# Fenced by the attempt id: a lease the sweeper already took back (or a subscription
# deleted meanwhile) is left alone.
_RECORD_DELIVERY = LEASE.held(
    update(deliveries).where(deliveries.c.id == bindparam("b_delivery")), bindparam("b_attempt")
).values(
    **LEASE.released,
    last_status_code=bindparam("b_code"),
    last_error=bindparam("b_error"),
    status=bindparam("b_status"),
    completed_at=bindparam("b_completed"),
    next_attempt_at=bindparam("b_next"),
)


async def record(
    connection: AsyncConnection,
    outcomes: list[tuple[Claim, AttemptResult]],
    now: datetime,
    settings: Settings,
) -> list[str]:
    """Every outcome of a batch in two statements (executemany), with the subscriptions'
    failure streaks (streaks.py). Returns the subscriptions this disabled."""
    if not outcomes:
        return []
    disabled = await streaks.record(
        connection,
        [(claim.subscription_id, result.succeeded) for claim, result in outcomes],
        now,
        settings,
    )
    rows = [
        {
            "b_attempt": claim.attempt_id,
            "b_delivery": claim.delivery_id,
            "b_outcome": "succeeded" if result.succeeded else "failed",
            "b_code": result.status_code,
            "b_latency": result.latency_ms,
            "b_error": result.error,
            "b_finished": now,
            **_next_state(claim, result, now, settings),
        }
        for claim, result in outcomes
    ]
    await connection.execute(_RECORD_ATTEMPT, rows)
    await connection.execute(_RECORD_DELIVERY, rows)
    webhook_outcomes(
        [row["b_outcome"] for row in rows],
        [row["b_status"] for row in rows if row["b_status"] != "pending"],
    )
    await streaks.cancel(connection, disabled, now)
    return disabled


def _orphaned_condition() -> ColumnElement[bool]:
    return (
        (deliveries.c.status == "pending")
        & deliveries.c.lease_attempt_id.is_(None)
        & deliveries.c.subscription_id.in_(select(subscriptions.c.id).where(_GONE))
    )


async def work_waiting(connection: AsyncConnection, now: datetime, job: str) -> bool:
    """Whether `job` has anything to do. Read-only, so an idle worker never takes
    SQLite's write lock (which API requests need) just to find nothing."""
    if job == "fan_out":
        statement = select(outbox.c.id).where(outbox.c.dispatched_at.is_(None))
    elif job == "deliver":
        statement = _DUE.with_only_columns(deliveries.c.id).where(
            deliveries.c.next_attempt_at <= now
        )
    else:
        statement = select(deliveries.c.id).where(
            ((deliveries.c.status == "pending") & LEASE.expired(now)) | _orphaned_condition()
        )
    return (await connection.execute(statement.limit(1))).first() is not None


async def sweep(connection: AsyncConnection, now: datetime) -> int:
    """Release deliveries whose lease expired: their worker died or hung. The attempt it
    was making is marked abandoned and counts; the delivery is due at once (the lease
    already outlasted the timeout), or failed if that was its sixth attempt. Also
    cancels deliveries a fan-out created for a subscription deleted or disabled at the
    same time."""
    stuck = await LEASE.lapsed(
        connection,
        now,
        deliveries.c.status == "pending",
        columns=(deliveries.c.id, deliveries.c.attempts, deliveries.c.lease_attempt_id),
    )
    for row in stuck:
        await connection.execute(
            update(attempts)
            .where(attempts.c.id == row["lease_attempt_id"], attempts.c.outcome == "in_progress")
            .values(outcome="abandoned", error=ABANDONED, finished_at=now)
        )
        done = row["attempts"] >= MAX_ATTEMPTS
        await connection.execute(
            LEASE.held(
                update(deliveries).where(deliveries.c.id == row["id"]), row["lease_attempt_id"]
            ).values(
                **LEASE.released,
                last_error=ABANDONED,
                status="failed" if done else "pending",
                completed_at=now if done else None,
                next_attempt_at=None if done else now,
            )
        )
    orphaned = await connection.execute(
        update(deliveries)
        .where(_orphaned_condition())
        .values(status="cancelled", completed_at=now, next_attempt_at=None)
    )
    webhook_outcomes(
        ["abandoned"] * len(stuck),
        ["failed"] * sum(row["attempts"] >= MAX_ATTEMPTS for row in stuck)
        + ["cancelled"] * orphaned.rowcount,
    )
    return len(stuck) + orphaned.rowcount
