from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class ConsoleSession(Base):
    """A member signed in to the console. The cookie holds a random token; only its
    SHA-256 is stored, so a database leak yields no usable session."""

    __tablename__ = "console_sessions"
    # Retention prunes ended sessions by expires_at (migration 0013).
    __table_args__ = (Index("ix_console_sessions_expires_at", "expires_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)  # the absolute limit
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
