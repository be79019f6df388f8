"""An AI call as the code carries it: the `voice_calls` row (models/voice_call.py), typed."""

from datetime import datetime
from typing import Literal

from typing_extensions import TypedDict


class Line(TypedDict):
    speaker: str  # ai | lead
    text: str


class HandoffData(TypedDict):
    """What a call's `end` carries (as JSON text) to the `<Connect action>` callback."""

    reason: str  # opted_out, transfer, handoff, silence, max_minutes, error
    detail: str | None
    to: str | None  # a transfer's number


class TextToken(TypedDict):
    type: Literal["text"]
    token: str
    last: bool


class EndMessage(TypedDict):
    type: Literal["end"]
    handoffData: str  # noqa: N815 (ConversationRelay's name)


Outgoing = TextToken | EndMessage


class VoiceCallRecord(TypedDict):
    id: str
    contact_id: str | None
    persona_id: str
    ai_job_id: str | None
    direction: str  # outbound | inbound
    reason: str
    from_number: str | None
    to_number: str | None
    status: str  # queued placing placed in_progress summarizing ended refused failed unknown
    provider_call_sid: str | None
    attempts: int
    next_attempt_at: datetime | None
    lease_token: str | None
    lease_expires_at: datetime | None
    answered_by: str | None
    transcript: list[Line] | None
    handoff: HandoffData | None
    disposition: str | None
    summary: str | None
    error: str | None
    call_id: str | None
    end_status: str | None
    duration_seconds: int | None
    recording_sid: str | None
    erased_at: datetime | None
    started_at: datetime | None
    ended_at: datetime | None
    created_at: datetime
    updated_at: datetime
