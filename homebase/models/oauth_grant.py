from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class OAuthGrant(Base):
    """A workspace's authorization of an app: one row per workspace and app, re-read on
    every request an access token makes, so revoking it applies on the next one."""

    __tablename__ = "oauth_grants"
    __table_args__ = (UniqueConstraint("workspace_id", "client_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    client_id: Mapped[str] = mapped_column(ForeignKey("oauth_clients.id"), index=True)
    scopes: Mapped[list[str]] = mapped_column(JSONValue)
    authorized_by: Mapped[str | None] = mapped_column(String(40))  # user id, or "admin"
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
