from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Persona(Base):
    """An AI voice: how automated messages sound and sign off, and where they may go.

    The workspace's `responder` (at most one, held by a partial unique index) is the
    persona the AI answers inbound texts as (homebase/ai/, docs/ai.md): its
    `instructions` go to the model, its `disclosure` opens a first reply, its `links`
    and `phone` are the only URLs and number a reply may carry."""

    __tablename__ = "personas"
    __table_args__ = (
        Index("ix_personas_workspace_id_id", "workspace_id", "id"),
        Index(
            "ux_personas_workspace_responder",
            "workspace_id",
            unique=True,
            postgresql_where=text("responder"),
            sqlite_where=text("responder"),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(80))
    tone: Mapped[str] = mapped_column(String(200))
    channels: Mapped[list[str]] = mapped_column(JSONValue)
    signature: Mapped[str | None] = mapped_column(String(300))
    instructions: Mapped[str | None] = mapped_column(Text)
    responder: Mapped[bool] = mapped_column(Boolean, default=False)
    disclosure: Mapped[str | None] = mapped_column(String(300))
    handoff_reply: Mapped[str | None] = mapped_column(String(300))
    handoff_assignee: Mapped[str | None] = mapped_column(String(40))
    # Minutes of showing hours a handoff's task has before it is due (null: 15).
    handoff_minutes: Mapped[int | None] = mapped_column(Integer)
    links: Mapped[list[str] | None] = mapped_column(JSONValue)
    phone: Mapped[str | None] = mapped_column(String(32))
    # What the AI may do as this persona (homebase/ai/tools.py; null: nothing, it only
    # answers), when showings may be booked, which custom fields it may fill, which tags.
    actions: Mapped[list[str] | None] = mapped_column(JSONValue)
    showing_hours: Mapped[dict[str, list[str]] | None] = mapped_column(JSONValue)
    showing_minutes: Mapped[int | None] = mapped_column(Integer)
    qualification_fields: Mapped[list[str] | None] = mapped_column(JSONValue)
    tags: Mapped[list[str] | None] = mapped_column(JSONValue)
    # The languages the AI answers in (ISO 639-1; null: en, es), and the persona's texts
    # in each: {"es": {"disclosure": ..., "handoff_reply": ..., "signature": ...,
    # "opt_out_confirmation": ...}} (null: the fields above, in every language).
    languages: Mapped[list[str] | None] = mapped_column(JSONValue)
    translations: Mapped[dict[str, dict[str, str]] | None] = mapped_column(JSONValue)
    # What the AI sends unasked (docs/ai.md, "First touch and follow-ups"): a new lead's
    # first text (null: off; "text"), how long after the lead (null: 30 seconds), the
    # follow-ups to an unanswered AI text (ISO 8601 durations; null: none) and when they
    # were turned on (only the AI's texts from then count).
    first_touch: Mapped[str | None] = mapped_column(String(16))
    first_touch_delay_seconds: Mapped[int | None] = mapped_column(Integer)
    # first_touch text_then_call: minutes after the first text, unanswered, the AI calls.
    call_after_text_minutes: Mapped[int | None] = mapped_column(Integer)
    follow_ups: Mapped[list[str] | None] = mapped_column(JSONValue)
    follow_ups_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # AI phone calls (docs/voice.md): whether the AI places and answers calls as this
    # persona (off by default), and what it does on an answering machine: `hang_up`, or
    # `leave` the short `voicemail_text` (null: the service's own, with the disclosure).
    voice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    voicemail: Mapped[str | None] = mapped_column(String(20))
    voicemail_text: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
