from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Campaign(Base):
    """Outbound work grouped under one persona and one automation."""

    __tablename__ = "campaigns"
    __table_args__ = (Index("ix_campaigns_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(120))
    persona_id: Mapped[str | None] = mapped_column(ForeignKey("personas.id"))
    automation_id: Mapped[str | None] = mapped_column(ForeignKey("automations.id"))
    status: Mapped[str] = mapped_column(String(16))  # draft | active | paused | completed
    audience: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
