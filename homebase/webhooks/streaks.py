"""Subscriptions that keep failing (docs/webhooks.md, "Subscriptions that keep failing").

Each recorded outcome moves its subscription's failure streak, in the record's own
transaction (dispatcher.record), across workspaces like it: a success clears
`failing_since`; a failure sets it if unset. A failure recorded when `failing_since` is
HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS old or older (so every attempt since then failed and
none succeeded) disables the subscription: fan-out queues nothing more for it, and its
pending deliveries are cancelled, so no request reaches the receiver after `disabled_at`.
Abandoned attempts (a worker died) say nothing about the receiver and are not counted.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.config import Settings
from homebase.metrics import webhook_outcomes
from homebase.models import WebhookDelivery, WebhookSubscription
from homebase.webhooks.records import DeliveryChanges, DisabledReason

subscriptions = WebhookSubscription.__table__
deliveries = WebhookDelivery.__table__

FAILING: DisabledReason = "failing"  # disabled_reason: every attempt failed for the whole window
PAUSED: DisabledReason = "paused"  # disabled_reason: a client (PATCH) or a member (console) asked
CANCELLED = "not sent: the subscription was disabled"

_LIVE = (subscriptions.c.disabled_at.is_(None), subscriptions.c.deleted_at.is_(None))


def cancelled(now: datetime, reason: str | None) -> DeliveryChanges:
    """Pending deliveries, cancelled; `reason`, when given, becomes their last_error.
    Clearing lease_attempt_id fences out an attempt in flight: its outcome is logged, but
    it can no longer move the delivery."""
    values: DeliveryChanges = {
        "status": "cancelled",
        "completed_at": now,
        "next_attempt_at": None,
        "lease_expires_at": None,
        "lease_attempt_id": None,
    }
    if reason is not None:
        values["last_error"] = reason
    return values


async def record(
    connection: AsyncConnection,
    outcomes: Iterable[tuple[str, bool]],
    now: datetime,
    settings: Settings,
) -> list[str]:
    """`outcomes`: (subscription id, succeeded) per attempt recorded. A success anywhere
    in the batch clears its subscription's streak (the receiver answers), whatever its
    other attempts in the batch did. Returns the subscriptions disabled now, whose
    pending deliveries `cancel` then cancels: the caller runs this before recording the
    deliveries and `cancel` after, so its transaction, like a DELETE's, locks the
    subscription before its deliveries (PostgreSQL), and a batch's own deliveries are
    cancelled too."""
    outcomes = list(outcomes)
    succeeded = sorted({subscription for subscription, ok in outcomes if ok})
    failed = sorted({subscription for subscription, ok in outcomes if not ok} - set(succeeded))
    if succeeded:
        await connection.execute(
            update(subscriptions)
            .where(
                subscriptions.c.id.in_(succeeded),
                subscriptions.c.failing_since.is_not(None),
                *_LIVE,
            )
            .values(failing_since=None)
        )
    if not failed:
        return []
    await connection.execute(
        update(subscriptions)
        .where(subscriptions.c.id.in_(failed), subscriptions.c.failing_since.is_(None), *_LIVE)
        .values(failing_since=now)
    )
    horizon = now - timedelta(days=settings.webhook_disable_after_days)
    disabled = list(
        (
            await connection.execute(
                update(subscriptions)
                .where(
                    subscriptions.c.id.in_(failed),
                    subscriptions.c.failing_since <= horizon,
                    *_LIVE,
                )
                .values(disabled_at=now, disabled_reason=FAILING)
                .returning(subscriptions.c.id)
            )
        ).scalars()
    )
    return sorted(disabled)


async def cancel(connection: AsyncConnection, disabled: list[str], now: datetime) -> None:
    """The pending deliveries of the subscriptions `record` disabled."""
    if not disabled:
        return
    result = await connection.execute(
        update(deliveries)
        .where(deliveries.c.subscription_id.in_(disabled), deliveries.c.status == "pending")
        .values(**cancelled(now, CANCELLED))
    )
    webhook_outcomes([], ["cancelled"] * result.rowcount)
