"""Subscription and delivery-log queries for the API; every one starts from the
TenantSession. (The worker's cross-workspace queries live in dispatcher.py.)"""

from datetime import datetime
from typing import cast

from homebase.db.tenancy import TenantSession
from homebase.kit.pagination import keyset
from homebase.kit.statements import AnySelect
from homebase.models import WebhookAttempt, WebhookDelivery, WebhookSubscription
from homebase.paging.listing import Listing
from homebase.webhooks import streaks
from homebase.webhooks.records import (
    AttemptRecord,
    DeliveryChanges,
    DeliveryRecord,
    SubscriptionChanges,
    SubscriptionRecord,
)

subscriptions = WebhookSubscription.__table__
deliveries = WebhookDelivery.__table__
attempts = WebhookAttempt.__table__


async def get_active(session: TenantSession, subscription_id: str) -> SubscriptionRecord | None:
    row = await session.fetch_one(
        session.select(subscriptions).where(
            subscriptions.c.id == subscription_id, subscriptions.c.deleted_at.is_(None)
        )
    )
    return cast("SubscriptionRecord | None", row)


def listing(session: TenantSession) -> Listing[SubscriptionRecord]:
    """GET /v1/webhooks: the live subscriptions, newest first."""
    statement = session.select(subscriptions).where(subscriptions.c.deleted_at.is_(None))
    return Listing.newest(statement, subscriptions)


async def insert(session: TenantSession, values: SubscriptionRecord) -> None:
    await session.insert(subscriptions, values)


async def mark_deleted(session: TenantSession, subscription_id: str, now: datetime) -> None:
    await session.execute(
        session.update(subscriptions)
        .where(subscriptions.c.id == subscription_id)
        .values(deleted_at=now)
    )


async def update(session: TenantSession, subscription_id: str, values: SubscriptionChanges) -> None:
    await session.execute(
        session.update(subscriptions)
        .where(subscriptions.c.id == subscription_id, subscriptions.c.deleted_at.is_(None))
        .values(**values)
    )


async def cancel_pending(
    session: TenantSession, subscription_id: str, now: datetime, *, reason: str | None = None
) -> int:
    """The subscription's pending deliveries, cancelled (streaks.cancelled): on deletion
    they keep their last error; on disabling `reason` says why they were not sent."""
    return await session.execute(
        session.update(deliveries)
        .where(deliveries.c.subscription_id == subscription_id, deliveries.c.status == "pending")
        .values(**streaks.cancelled(now, reason))
    )


def deliveries_statement(
    session: TenantSession, subscription_id: str, *, after_id: str | None, limit: int
) -> AnySelect:
    statement = session.select(deliveries).where(deliveries.c.subscription_id == subscription_id)
    return keyset(statement, deliveries.c.id, after_id, limit)


async def deliveries_page(
    session: TenantSession, subscription_id: str, *, after_id: str | None, limit: int
) -> list[DeliveryRecord]:
    """A page of the subscription's deliveries, one more than `limit` when there are more."""
    statement = deliveries_statement(session, subscription_id, after_id=after_id, limit=limit)
    return cast("list[DeliveryRecord]", await session.fetch_all(statement))


async def get_delivery(
    session: TenantSession, subscription_id: str, delivery_id: str
) -> DeliveryRecord | None:
    row = await session.fetch_one(
        session.select(deliveries).where(
            deliveries.c.id == delivery_id, deliveries.c.subscription_id == subscription_id
        )
    )
    return cast("DeliveryRecord | None", row)


async def attempts_of(
    session: TenantSession, delivery_ids: list[str]
) -> dict[str, list[AttemptRecord]]:
    grouped: dict[str, list[AttemptRecord]] = {delivery_id: [] for delivery_id in delivery_ids}
    if not delivery_ids:
        return grouped
    rows = await session.fetch_all(
        session.select(attempts)
        .where(attempts.c.delivery_id.in_(delivery_ids))
        .order_by(attempts.c.id.desc())
    )
    for row in cast("list[AttemptRecord]", rows):
        grouped[row["delivery_id"]].append(row)
    return grouped


async def reschedule(session: TenantSession, delivery_id: str, values: DeliveryChanges) -> int:
    """Only a delivery no worker holds may be rescheduled."""
    return await session.execute(
        session.update(deliveries)
        .where(deliveries.c.id == delivery_id, deliveries.c.lease_attempt_id.is_(None))
        .values(**values)
    )
