from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class VoiceCall(Base):
    """An AI phone call, from the moment it is asked for to its end (homebase/voice/,
    docs/voice.md). The worker places a queued one through the provider's Calls API under
    a lease; the relay's conversation and the provider's callbacks fill in the rest; the
    finished call becomes a `calls` row (`call_id`) with its transcript and summary.

    status: queued -> placing -> placed -> in_progress -> [summarizing ->] ended
            | refused (a gate) | failed (the provider refused) | unknown (a worker died
            while placing: never placed again, as a message send is never sent twice)

    summarizing: the provider said the call ended after a conversation; the worker asks
    the model for its summary under a lease (voice/summaries.py), then writes the call
    record. `attempts` and the lease columns count and hold that step from then on.
    """

    __tablename__ = "voice_calls"
    __table_args__ = (
        Index("ix_voice_calls_workspace_id_id", "workspace_id", "id"),
        Index("ix_voice_calls_due", "status", "next_attempt_at"),
        Index("ix_voice_calls_contact", "workspace_id", "contact_id", "id"),
        Index("ix_voice_calls_provider", "provider_call_sid"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    persona_id: Mapped[str] = mapped_column(ForeignKey("personas.id"))
    # The AI job its tools log their actions under (ai_actions.ai_job_id).
    ai_job_id: Mapped[str | None] = mapped_column(String(40))
    direction: Mapped[str] = mapped_column(String(8))  # outbound | inbound
    reason: Mapped[str] = mapped_column(String(60))  # why it was placed: first_touch, ...
    from_number: Mapped[str | None] = mapped_column(String(32))
    to_number: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    provider_call_sid: Mapped[str | None] = mapped_column(String(64))
    attempts: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    answered_by: Mapped[str | None] = mapped_column(String(24))  # human | machine_* | ...
    # Both sides, in order: [{"speaker": "ai" | "lead", "text": ...}]; scrubbed on erasure.
    transcript: Mapped[list[dict[str, str]] | None] = mapped_column(JSONValue)
    handoff: Mapped[dict[str, str | None] | None] = mapped_column(JSONValue)  # end's handoffData
    disposition: Mapped[str | None] = mapped_column(String(40))
    summary: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(String(500))
    call_id: Mapped[str | None] = mapped_column(String(40))  # the calls row, once ended
    # The provider's terminal status and CallDuration, kept for the record written later.
    end_status: Mapped[str | None] = mapped_column(String(16))
    duration_seconds: Mapped[int | None] = mapped_column(Integer)
    recording_sid: Mapped[str | None] = mapped_column(String(64))
    # Set by an erasure: the worker deletes the recording at the provider (and its copy
    # here), then forgets recording_sid (voice/jobs.erase_recordings).
    erased_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
