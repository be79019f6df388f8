from datetime import datetime
from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Workspace(Base):
    """A tenant. Not itself tenant-scoped: it is the scope."""

    __tablename__ = "workspaces"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | suspended
    settings: Mapped[dict[str, Any]] = mapped_column(JSONValue, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
