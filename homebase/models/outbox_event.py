from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class OutboxEvent(Base):
    """A catalogue event, written in the same transaction as the change that caused it.

    The webhook dispatcher fans each row out to subscriptions and then sets
    dispatched_at; the row's id is the event_id receivers deduplicate on. Deliveries are
    built from `data` at send time; anonymizing the contact scrubs it in place.
    """

    __tablename__ = "outbox_events"
    __table_args__ = (
        Index("ix_outbox_events_pending", "dispatched_at", "id"),
        # The fan-out's `dispatched_at IS NULL ORDER BY id`, which PostgreSQL does not
        # serve from the index above (migration 0024).
        Index(
            "ix_outbox_events_undispatched",
            "id",
            postgresql_where=text("dispatched_at IS NULL"),
            sqlite_where=text("dispatched_at IS NULL"),
        ),
        Index("ix_outbox_events_workspace_contact", "workspace_id", "contact_id"),
        # The events API walks (occurred_at, id) ascending (docs/sync.md).
        Index("ix_outbox_events_workspace_occurred", "workspace_id", "occurred_at", "id"),
        # The same walk for the types a credential may read or a `type` filter names: one
        # index range per type, merged (events/repository.py).
        Index(
            "ix_outbox_events_workspace_type_occurred",
            "workspace_id",
            "type",
            "occurred_at",
            "id",
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    # No index of its own: ix_outbox_events_workspace_contact starts with it.
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    type: Mapped[str] = mapped_column(String(60))
    data: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    dispatched_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The contact the event is about (outbox/redaction.py contact_of), so anonymizing it
    # finds its events by index instead of scanning JSON.
    contact_id: Mapped[str | None] = mapped_column(String(40))
