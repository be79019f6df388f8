from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class ConversationRead(Base):
    """How far a member has read a contact's conversation in the console's inbox
    (homebase/inbox/): the newest message shown when the member last opened the thread.
    The conversation is unread for that member while a message newer than
    `read_through_id` exists (message ids are time-ordered). One row per member and
    contact; opening the thread again moves it forward."""

    __tablename__ = "conversation_reads"
    __table_args__ = (
        # The erasure's delete of a contact's rows (every member's).
        Index("ix_conversation_reads_contact", "workspace_id", "contact_id"),
    )

    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    member_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"), primary_key=True)
    read_through_id: Mapped[str] = mapped_column(String(40))  # messages.id
    read_at: Mapped[datetime] = mapped_column(UTCDateTime)
