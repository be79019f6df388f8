from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Call(Base):
    """A phone call, human or AI-handled, with its transcript, AI summary and recording."""

    __tablename__ = "calls"
    __table_args__ = (
        Index("ix_calls_workspace_id_id", "workspace_id", "id"),
        Index("ix_calls_workspace_contact", "workspace_id", "contact_id", "id"),
        # A provider callback delivered twice records the call once.
        UniqueConstraint("workspace_id", "provider_call_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    provider_call_id: Mapped[str | None] = mapped_column(String(120))
    direction: Mapped[str] = mapped_column(String(8))  # inbound | outbound
    from_number: Mapped[str | None] = mapped_column(String(32))
    to_number: Mapped[str | None] = mapped_column(String(32))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    duration_seconds: Mapped[int | None] = mapped_column(Integer)
    handled_by: Mapped[str] = mapped_column(String(8))  # ai | human
    user_id: Mapped[str | None] = mapped_column(String(40))
    disposition: Mapped[str | None] = mapped_column(String(40))
    transcript: Mapped[str | None] = mapped_column(Text)
    summary: Mapped[str | None] = mapped_column(Text)
    # Path of the audio relative to HOMEBASE_RECORDINGS_DIR; never exposed on the wire.
    recording_key: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
