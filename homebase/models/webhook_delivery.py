from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class WebhookDelivery(Base):
    """One event for one subscription: pending until a 2xx (succeeded), six failed
    attempts (failed) or the subscription's deletion (cancelled).

    A worker claims a due row by setting lease_expires_at and lease_attempt_id (the
    attempt it is making); only the holder of that attempt id may record the outcome.
    A worker that dies leaves the lease to expire; the sweeper then releases the row.
    """

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        # Fan-out is idempotent: an event reaches a subscription at most once.
        UniqueConstraint("subscription_id", "event_id"),
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_lease", "lease_expires_at"),
        Index("ix_webhook_deliveries_subscription", "workspace_id", "subscription_id", "id"),
        # Retention (homebase/retention): finished deliveries by age, and whether an event
        # still has any delivery (also PostgreSQL's foreign-key check on deleting events).
        Index("ix_webhook_deliveries_completed_at", "completed_at"),
        Index("ix_webhook_deliveries_event_id", "event_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    subscription_id: Mapped[str] = mapped_column(ForeignKey("webhook_subscriptions.id"))
    event_id: Mapped[str] = mapped_column(ForeignKey("outbox_events.id"))
    event_type: Mapped[str] = mapped_column(String(60))
    status: Mapped[str] = mapped_column(String(16))  # pending|succeeded|failed|cancelled
    attempts: Mapped[int] = mapped_column(Integer)  # in the current schedule (max 6)
    total_attempts: Mapped[int] = mapped_column(Integer)  # including earlier redeliveries
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_attempt_id: Mapped[str | None] = mapped_column(String(40))
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
