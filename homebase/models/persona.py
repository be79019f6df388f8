from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Persona(Base):
    """An AI voice: how automated messages sound and sign off, and where they may go."""

    __tablename__ = "personas"
    __table_args__ = (Index("ix_personas_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(80))
    tone: Mapped[str] = mapped_column(String(200))
    channels: Mapped[list[str]] = mapped_column(JSONValue)
    signature: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
