from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class OAuthToken(Base):
    """An access or refresh token (kind), stored as a SHA-256 hash. Every token belongs to
    a grant (its family: revoking the family revokes every token of the grant); tokens
    descended from an authorization code carry its id, so a second redemption of the code
    can revoke them."""

    __tablename__ = "oauth_tokens"
    # Retention prunes tokens by expires_at (migration 0013).
    __table_args__ = (Index("ix_oauth_tokens_expires_at", "expires_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # "access" | "refresh"
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    client_id: Mapped[str] = mapped_column(ForeignKey("oauth_clients.id"))
    grant_id: Mapped[str] = mapped_column(ForeignKey("oauth_grants.id"), index=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    code_id: Mapped[str | None] = mapped_column(String(40), index=True)
    scopes: Mapped[list[str]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    retired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # a rotated refresh token
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
