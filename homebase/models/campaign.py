from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Campaign(Base):
    """Outbound work grouped under one persona and one automation."""

    __tablename__ = "campaigns"
    __table_args__ = (
        Index("ix_campaigns_workspace_id_id", "workspace_id", "id"),
        # The campaign job's claim: active campaigns by their pace, across workspaces.
        Index("ix_campaigns_due", "status", "next_reach_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(120))
    persona_id: Mapped[str | None] = mapped_column(ForeignKey("personas.id"))
    automation_id: Mapped[str | None] = mapped_column(ForeignKey("automations.id"))
    status: Mapped[str] = mapped_column(String(16))  # draft | active | paused | completed
    audience: Mapped[str | None] = mapped_column(String(500))
    # What the AI is to achieve, given to its prompt (docs/automations.md, "Campaigns").
    goal: Mapped[str | None] = mapped_column(Text)
    channel: Mapped[str] = mapped_column(String(16))  # text | call | text_then_call
    rate_per_hour: Mapped[int] = mapped_column(Integer)  # contacts reached an hour, at most
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # None: runs until completed
    # The campaign's pace: no contact is reached before it (the campaign job sets it one
    # interval, 3600 / rate_per_hour seconds, after each reach). None: not yet started.
    next_reach_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
