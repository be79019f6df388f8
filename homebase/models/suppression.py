from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Suppression(Base):
    """An address the workspace must not message: an opt-out (STOP reply, an email's
    unsubscribe link), a bounce or a manual entry. Lifting it (START) keeps the row, with
    when and why, as evidence."""

    __tablename__ = "suppressions"
    __table_args__ = (Index("ix_suppressions_address", "workspace_id", "address", "lifted_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    kind: Mapped[str] = mapped_column(String(16))  # phone | email
    address: Mapped[str] = mapped_column(String(254))  # E.164 or lower-case email
    # opt_out_reply | unsubscribe_link | manual | bounce | complaint
    reason: Mapped[str] = mapped_column(String(40))
    evidence: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lifted_evidence: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
