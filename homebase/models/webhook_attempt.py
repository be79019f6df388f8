from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class WebhookAttempt(Base):
    """One POST of a delivery, for the delivery log. Written as `in_progress` when the
    delivery is claimed, so an attempt cut short by a dead worker still shows
    (`abandoned`) and still counts towards the six."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (
        Index("ix_webhook_attempts_delivery", "workspace_id", "delivery_id", "id"),
        # Retention deletes a delivery's attempts by delivery_id, and
        # PostgreSQL's foreign-key check on deleting a delivery looks them up
        # the same way (migration 0013).
        Index("ix_webhook_attempts_delivery_id", "delivery_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    delivery_id: Mapped[str] = mapped_column(ForeignKey("webhook_deliveries.id"))
    number: Mapped[int] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(16))  # in_progress|succeeded|failed|abandoned
    status_code: Mapped[int | None] = mapped_column(Integer)
    latency_ms: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    worker: Mapped[str | None] = mapped_column(String(80))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
