from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class TimelineEvent(Base):
    """An entry on a contact's timeline: a note, a stage change, and later calls and messages."""

    __tablename__ = "timeline_events"
    __table_args__ = (
        Index("ix_timeline_events_contact", "workspace_id", "contact_id", "id"),
        Index("ix_timeline_events_contact_type", "workspace_id", "contact_id", "type", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    type: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str | None] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    actor: Mapped[str | None] = mapped_column(String(60))  # credential id that caused it
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
