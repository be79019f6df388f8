from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class CallRevocation(Base):
    """A number whose owner asked not to be called ("don't call me", "stop calling"), with
    the text that said so as evidence (homebase/calls/revocations.py). Texts still go to
    the number: a call revocation is no suppression. Calls made by the service (the AI
    voice work to come) must refuse a number held here; nothing lifts it yet."""

    __tablename__ = "call_revocations"
    # One per number: a second request adds nothing, the first one's evidence stands.
    __table_args__ = (UniqueConstraint("workspace_id", "address"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    address: Mapped[str] = mapped_column(String(32))  # E.164, as the text came from it
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    phrase: Mapped[str] = mapped_column(String(60))  # what matched: "DONT CALL ME"
    # The inbound text: message_id, body, channel, from, to, provider_message_id, received_at.
    evidence: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
