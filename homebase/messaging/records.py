"""Messages, suppressions and sender numbers as the code carries them: their tables' rows
(models/message.py, suppression.py, sender_number.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Any

from typing_extensions import TypedDict


class MessageRecord(TypedDict):
    id: str
    contact_id: str | None
    channel: str  # a MessageChannel value
    direction: str  # a MessageDirection value
    status: str  # a MessageStatus value
    from_address: str | None
    to_address: str | None
    counterpart: str | None
    subject: str | None
    body: str | None
    ai_generated: bool
    proactive: bool | None
    blocked_reason: str | None
    failure_reason: str | None
    provider: str | None
    provider_message_id: str | None
    provider_status: str | None
    attempts: int
    lease_token: str | None
    lease_expires_at: datetime | None
    next_attempt_at: datetime | None
    actor: str | None
    ai_job_id: str | None
    confirms_suppression_id: str | None
    created_at: datetime
    updated_at: datetime
    sent_at: datetime | None
    delivered_at: datetime | None
    failed_at: datetime | None
    received_at: datetime | None


class SuppressionRecord(TypedDict):
    id: str
    kind: str  # phone | email
    address: str
    reason: str
    evidence: dict[str, Any]  # what made it (the text, the bounce): free-form JSON
    created_at: datetime
    lifted_at: datetime | None
    lifted_evidence: dict[str, Any] | None  # free-form JSON, as evidence


class SenderNumberRecord(TypedDict):
    id: str
    number: str
    channel: str  # sms | whatsapp
    a2p_status: str  # approved | pending | rejected
    voice: bool  # places and answers the AI's calls (docs/voice.md)
    created_at: datetime


# message.sent / message.received data (render.event_data); "from" is a keyword.
MessageEventData = TypedDict(
    "MessageEventData",
    {
        "id": str,
        "contact_id": str | None,
        "channel": str,
        "direction": str,
        "status": str,
        "ai_generated": bool,
        "from": str | None,
        "to": str | None,
    },
)


class MessageChanges(TypedDict, total=False):
    """The columns a delivery report writes (inbound.apply_status)."""

    status: str
    provider_status: str
    failure_reason: str
    delivered_at: datetime
    failed_at: datetime
    updated_at: datetime
