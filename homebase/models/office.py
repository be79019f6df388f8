from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Office(Base):
    """A branch of the workspace; members belong to one, routing rules can target it."""

    __tablename__ = "offices"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
