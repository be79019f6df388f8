from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base

OPEN_WHERE = "status IN ('queued', 'composing')"


class AiOutreach(Base):
    """One text the AI owes a contact without being asked (homebase/ai/outreach.py,
    docs/ai.md "First touch and follow-ups"): a lead's first touch, or a follow-up to the
    AI's unanswered text. A leased queue row (worker/queue.py), due at `due_at`; a text the
    lawful hours refuse is put back at the next allowed minute, never past `wait_until`.
    At most one open row per contact. Ids, times and outcomes only: never a text.

    kind: first_touch | follow_up (`step`: the follow-up's place in the persona's list,
    from 1; 0 otherwise) | automation (an `ai_text` step) | campaign (a campaign's text,
    its enrolment the campaign's) | call (an AI call: a persona's first touch by call, or
    its call after an unanswered first text, `after_message_id` that text; a
    text_then_call campaign's call likewise).
    origin: lead | import | cadence | automation | campaign.
    status: queued -> composing -> sent | dropped | stopped | skipped
    """

    __tablename__ = "ai_outreach"
    __table_args__ = (
        Index("ix_ai_outreach_workspace_id_id", "workspace_id", "id"),
        Index("ix_ai_outreach_contact", "workspace_id", "contact_id", "status"),
        Index("ix_ai_outreach_due", "status", "due_at"),
        Index("ix_ai_outreach_origin_due", "workspace_id", "origin", "due_at"),
        Index(
            "ux_ai_outreach_open_contact",
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
    lead_id: Mapped[str | None] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))
    step: Mapped[int] = mapped_column(Integer)
    after_message_id: Mapped[str | None] = mapped_column(String(40))  # a follow-up's anchor
    origin: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    wait_until: Mapped[datetime] = mapped_column(UTCDateTime)  # lawful hours wait no longer
    attempts: Mapped[int] = mapped_column(Integer)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[str | None] = mapped_column(String(60))
    message_id: Mapped[str | None] = mapped_column(String(40))
    voice_call_id: Mapped[str | None] = mapped_column(String(40))  # what a `call` row placed
    # The automation step (`ai_text`) that queued it: its enrolment and step index.
    enrolment_id: Mapped[str | None] = mapped_column(String(40))
    enrolment_step: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
