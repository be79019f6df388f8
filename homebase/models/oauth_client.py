from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class OAuthClient(Base):
    """A registered OAuth application. Not owned by a workspace: workspaces authorize it
    (oauth_grants)."""

    __tablename__ = "oauth_clients"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # the client_id
    name: Mapped[str] = mapped_column(String(120))
    # Only the SHA-256 of the client secret is stored; the secret is shown once.
    secret_hash: Mapped[str] = mapped_column(String(64))
    secret_hint: Mapped[str] = mapped_column(String(16))
    redirect_uris: Mapped[list[str]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
