from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class OAuthCode(Base):
    """An authorization code: single use, short-lived, bound to its client, redirect URI,
    PKCE challenge, scopes and workspace. Kept after use so a second redemption can be
    recognised (and what the first issued revoked)."""

    __tablename__ = "oauth_codes"
    # Retention prunes codes by expires_at (migration 0013).
    __table_args__ = (Index("ix_oauth_codes_expires_at", "expires_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    client_id: Mapped[str] = mapped_column(ForeignKey("oauth_clients.id"), index=True)
    grant_id: Mapped[str] = mapped_column(ForeignKey("oauth_grants.id"), index=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    user_id: Mapped[str | None] = mapped_column(String(40))
    redirect_uri: Mapped[str] = mapped_column(String(2000))
    code_challenge: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[str]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
