from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class SenderNumber(Base):
    """A number the workspace sends from, with its carrier (A2P 10DLC) registration status."""

    __tablename__ = "sender_numbers"
    __table_args__ = (UniqueConstraint("workspace_id", "number", "channel"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    number: Mapped[str] = mapped_column(String(32))
    channel: Mapped[str] = mapped_column(String(16))  # sms | whatsapp
    a2p_status: Mapped[str] = mapped_column(String(16))  # approved | pending | rejected
    # The number can place and answer calls (the AI's calls leave from one, docs/voice.md).
    voice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
