from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base

OPEN_WHERE = "status IN ('queued', 'composing')"


class AiJob(Base):
    """One conversation turn the AI owes a contact (homebase/ai/, docs/ai.md).

    At most one open job (queued or composing) per contact: an inbound text while one is
    queued changes nothing (the worker that claims it reads the texts and, while the lead
    is not yet quiet, puts it back with a later `next_attempt_at`: ai/service.Wait); while
    one is composing it bumps its `inbound_count` instead of adding a job, and a compose
    that finds the count moved since it began composes again, so a burst gets one reply.
    It keeps ids, counts and outcomes only: never a message text or the prompt.

    status: queued -> composing -> replied | handed_off | skipped | failed | opted_out
    """

    __tablename__ = "ai_jobs"
    __table_args__ = (
        Index("ix_ai_jobs_workspace_id_id", "workspace_id", "id"),
        Index("ix_ai_jobs_contact", "workspace_id", "contact_id", "status"),
        Index("ix_ai_jobs_due", "status", "next_attempt_at"),
        # One open job per contact: two texts at once cannot start two.
        Index(
            "ux_ai_jobs_open_contact",
            "workspace_id",
            "contact_id",
            unique=True,
            postgresql_where=text(OPEN_WHERE),
            sqlite_where=text(OPEN_WHERE),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    persona_id: Mapped[str] = mapped_column(ForeignKey("personas.id"))
    channel: Mapped[str] = mapped_column(String(16))  # SMS | WHATSAPP
    status: Mapped[str] = mapped_column(String(16))
    inbound_count: Mapped[int] = mapped_column(Integer)  # inbound texts this job answers
    composed_count: Mapped[int] = mapped_column(Integer)  # the count its compose began at
    last_inbound_id: Mapped[str] = mapped_column(String(40))
    last_inbound_at: Mapped[datetime] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer)  # model calls that failed or broke off
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[str | None] = mapped_column(String(60))  # replied, handoff reason, ...
    reply_message_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
