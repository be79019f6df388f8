from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base

CONFIRMS_WHERE = "confirms_suppression_id IS NOT NULL"


class Message(Base):
    """One text, WhatsApp message or email, outbound or inbound, including refused sends.

    Lifecycle (docs/messaging.md): QUEUED -> SENDING -> SENT -> DELIVERED, or FAILED at
    any step; inbound messages are RECEIVED. `counterpart` is the other party's address
    normalized (E.164 or lower-case email): it links replies and opt-outs to sends.
    """

    __tablename__ = "messages"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_messages_workspace_updated", "workspace_id", "updated_at", "id"),
        Index("ix_messages_workspace_id_id", "workspace_id", "id"),
        Index("ix_messages_contact", "workspace_id", "contact_id", "id"),
        Index("ix_messages_counterpart", "workspace_id", "counterpart", "direction", "created_at"),
        Index("ix_messages_due", "status", "lease_expires_at"),
        Index("ix_messages_provider_id", "provider_message_id"),
        # At most one confirmation per opt-out (messaging/confirmation.py); partial, so
        # no other message pays for the index.
        Index(
            "ux_messages_confirms_suppression",
            "confirms_suppression_id",
            unique=True,
            postgresql_where=text(CONFIRMS_WHERE),
            sqlite_where=text(CONFIRMS_WHERE),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    channel: Mapped[str] = mapped_column(String(16))  # SMS | WHATSAPP | EMAIL
    direction: Mapped[str] = mapped_column(String(16))  # outbound | inbound
    status: Mapped[str] = mapped_column(String(16))
    from_address: Mapped[str | None] = mapped_column(String(254))
    to_address: Mapped[str | None] = mapped_column(String(254))
    counterpart: Mapped[str | None] = mapped_column(String(254))
    subject: Mapped[str | None] = mapped_column(String(998))
    body: Mapped[str | None] = mapped_column(Text)
    ai_generated: Mapped[bool] = mapped_column(Boolean, default=False)
    proactive: Mapped[bool | None] = mapped_column(Boolean)
    blocked_reason: Mapped[str | None] = mapped_column(String(40))  # the refusing gate
    failure_reason: Mapped[str | None] = mapped_column(Text)
    provider: Mapped[str | None] = mapped_column(String(40))
    provider_message_id: Mapped[str | None] = mapped_column(String(120))
    provider_status: Mapped[str | None] = mapped_column(String(40))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # QUEUED again after a send that never reached the provider: not claimed before this.
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    actor: Mapped[str | None] = mapped_column(String(60))  # credential id that sent it
    # The AI job this reply answers (homebase/ai/): its gates count it a reply only within
    # ten minutes of the contact's latest text.
    ai_job_id: Mapped[str | None] = mapped_column(String(40))
    # The opt-out (suppressions.id) this message confirms: the one text that passes every
    # gate but the opt-out gate, within five minutes of the opt-out.
    confirms_suppression_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    received_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
