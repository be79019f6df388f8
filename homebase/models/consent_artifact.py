from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class ConsentArtifact(Base):
    """Evidence that a person agreed to be contacted (by AI too), tied to the E.164 number.

    The messaging consent gate asks for a non-expired, non-revoked artifact for a number.
    """

    __tablename__ = "consent_artifacts"
    __table_args__ = (
        Index("ix_consent_artifacts_phone", "workspace_id", "phone_e164", "expires_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    phone: Mapped[str] = mapped_column(String(32))  # as the form sent it
    phone_e164: Mapped[str | None] = mapped_column(String(32))
    lead_id: Mapped[str | None] = mapped_column(String(40))
    captured_at: Mapped[datetime] = mapped_column(UTCDateTime)
    source_url: Mapped[str | None] = mapped_column(String(2048))
    ip: Mapped[str | None] = mapped_column(String(64))
    form_snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Consent to calls in an artificial (AI) voice, its own evidence (docs/voice.md): no
    # AI call without an unexpired artifact where this is true. None: not given.
    ai_voice: Mapped[bool | None] = mapped_column(Boolean)
