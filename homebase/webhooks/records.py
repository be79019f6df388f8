"""Webhook subscriptions and their delivery log as the code carries them: the
`webhook_subscriptions`, `webhook_deliveries` and `webhook_attempts` tables' rows
(models/webhook_subscription.py, webhook_delivery.py, webhook_attempt.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Literal

from typing_extensions import TypedDict

DisabledReason = Literal["failing", "paused"]
DeliveryStatus = Literal["pending", "succeeded", "failed", "cancelled"]
Outcome = Literal["in_progress", "succeeded", "failed", "abandoned"]


class SubscriptionRecord(TypedDict):
    id: str
    url: str
    event_types: list[str]  # [] means every event
    secret_encrypted: str
    secret_hint: str
    scopes: list[str]
    created_by: str | None
    created_by_kind: str | None
    grant_id: str | None
    created_at: datetime
    deleted_at: datetime | None
    failing_since: datetime | None
    disabled_at: datetime | None
    disabled_reason: DisabledReason | None


class Creator(TypedDict):
    """The creating-credential columns of a new subscription (grants.creator)."""

    created_by: str | None
    created_by_kind: str | None
    grant_id: str | None


class SubscriptionChanges(TypedDict, total=False):
    """Columns an update changes (service.update_subscription)."""

    url: str
    event_types: list[str]
    failing_since: datetime | None
    disabled_at: datetime | None
    disabled_reason: DisabledReason | None


class DeliveryRecord(TypedDict):
    id: str
    subscription_id: str
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempts: int  # in the current schedule (max 6)
    total_attempts: int  # including earlier redeliveries
    next_attempt_at: datetime | None
    lease_expires_at: datetime | None
    lease_attempt_id: str | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    completed_at: datetime | None


class DeliveryChanges(TypedDict, total=False):
    """Columns a cancellation or a redelivery changes (streaks.cancelled, service.redeliver)."""

    status: DeliveryStatus
    attempts: int
    next_attempt_at: datetime | None
    lease_expires_at: datetime | None
    lease_attempt_id: str | None
    last_error: str | None
    completed_at: datetime | None


class AttemptRecord(TypedDict):
    id: str
    delivery_id: str
    number: int
    outcome: Outcome
    status_code: int | None
    latency_ms: int | None
    error: str | None
    worker: str | None
    started_at: datetime
    finished_at: datetime | None
