"""A call as the code carries it: the `calls` table's row (models/call.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Any

from typing_extensions import TypedDict


class CallRecord(TypedDict):
    id: str
    contact_id: str | None
    provider_call_id: str | None
    direction: str  # a CallDirection value: inbound | outbound
    from_number: str | None
    to_number: str | None
    started_at: datetime
    ended_at: datetime | None
    duration_seconds: int | None
    handled_by: str  # a HandledBy value: ai | human
    user_id: str | None
    disposition: str | None
    transcript: str | None
    summary: str | None
    recording_key: str | None
    created_at: datetime


# call.completed's data, as outbox/catalogue.py documents it (render.completed_event);
# spelled as a call, since "from" is a Python keyword.
CallCompleted = TypedDict(
    "CallCompleted",
    {
        "id": str,
        "contact_id": str | None,
        "direction": str,
        "from": str | None,
        "to": str | None,
        "handled_by": str,
        "user_id": str | None,
        "started_at": str,
        "ended_at": str | None,
        "duration_seconds": int | None,
        "disposition": str | None,
        "summary": str | None,
        "has_recording": bool,
        "provider_call_id": str | None,
    },
)


class RevocationRecord(TypedDict):
    id: str
    address: str  # E.164, as the text came from it
    contact_id: str | None
    phrase: str  # what matched: "DONT CALL ME"
    evidence: dict[str, Any]  # the inbound message's JSON that carried the phrase
    created_at: datetime
