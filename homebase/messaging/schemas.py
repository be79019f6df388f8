from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    create_model,
    field_validator,
)


class Channel(StrEnum):
    SMS = "SMS"
    WHATSAPP = "WHATSAPP"
    EMAIL = "EMAIL"


class Direction(StrEnum):
    OUTBOUND = "OUTBOUND"
    INBOUND = "INBOUND"


class Status(StrEnum):
    QUEUED = "QUEUED"
    SENDING = "SENDING"
    SENT = "SENT"
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"
    RECEIVED = "RECEIVED"


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


_SEND_EXAMPLES = [
    {"channel": "SMS", "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
     "body": "Hi Dana, the Noe Valley open house is Saturday at 11. Reply STOP to opt out."},
    {"channel": "EMAIL", "to": "dana.reyes@example.com", "subject": "Your showing",
     "body": "Hi Dana,\n\nConfirming Saturday at 11.\n"},
]


class MessageCreate(BaseModel):
    """Name the recipient by exactly one of contact_id and to."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True,
                              json_schema_extra={"examples": _SEND_EXAMPLES})

    channel: Channel = Field(description="SMS, WHATSAPP or EMAIL (lower case accepted).")
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = Field(
        None, description="Send to this contact's phone (texts) or email (email).")
    to: Annotated[str, StringConstraints(min_length=3, max_length=254)] | None = Field(
        None, description="Or an address: a phone number for texts, an email address for "
                          "email. Linked to the contact with that number or address, if any.")
    body: Annotated[str, StringConstraints(min_length=1, max_length=20000)] = Field(
        validation_alias=AliasChoices("body", "text"),
        description="The text (also accepted as `text`). SMS and WhatsApp allow 1600 "
                    "characters.")
    subject: Annotated[str, StringConstraints(min_length=1, max_length=998)] | None = Field(
        None, description="Email only, and required there.")
    from_number: Annotated[str, StringConstraints(max_length=32)] | None = Field(
        None, alias="from", description="Texts only: one of the workspace's sender numbers "
                                        "for the channel. Default: its first carrier-approved "
                                        "one.")
    ai_generated: bool = Field(False, description="True when an AI composed the text.")

    _channel = field_validator("channel", mode="before")(_upper)


_MESSAGE_EXAMPLE = {
    "id": "msg_01jd3v6k8h2k3m4n5p6q7r8s9t", "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "channel": "SMS", "direction": "OUTBOUND", "status": "FAILED",
    "from": "+* ***-***-0100", "to": "+* ***-***-0142", "subject": None,
    "body": "Hi Dana, the open house is Saturday at 11.", "ai_generated": False,
    "proactive": True, "blocked_reason": "quiet_hours",
    "failure_reason": "Blocked (quiet_hours): It is 21:04 in America/Los_Angeles, a zone of "
                      "the recipient's number; proactive texts go out only from 08:00 to "
                      "20:00 recipient local time.",
    "provider": None, "pii_masked": True, "created_at": "2026-11-20T05:04:05.123Z",
    "updated_at": "2026-11-20T05:04:05.123Z", "sent_at": None, "delivered_at": None,
    "failed_at": "2026-11-20T05:04:05.123Z", "received_at": None,
}

_ADDRESS = "Masked (phones: last four digits; email: first character and domain) unless " \
           "the credential holds contacts:read:pii."

Message = create_model(
    "Message", __base__=BaseModel,
    __doc__="A text, WhatsApp message or email: sent, queued, refused or received.",
    id=(str, ...),
    contact_id=(str | None, Field(description="The contact it was sent to or came from.")),
    channel=(Channel, ...),
    direction=(Direction, ...),
    status=(Status, Field(description="QUEUED -> SENDING -> SENT -> DELIVERED, or FAILED at "
                                      "any step (refused by a gate, or by the provider); "
                                      "inbound messages are RECEIVED.")),
    **{"from": (str | None, Field(description="Sender address. " + _ADDRESS))},
    to=(str | None, Field(description="Recipient address. " + _ADDRESS)),
    subject=(str | None, Field(description="Email only.")),
    body=(str | None, Field(description="null once the contact was anonymized.")),
    ai_generated=(bool, ...),
    proactive=(bool | None, Field(description="Outbound texts: true when the recipient had "
                                              "not written within the reply window.")),
    blocked_reason=(str | None, Field(description="The refusing gate: account_suspended, "
                                                  "opted_out, a2p_not_approved, quiet_hours "
                                                  "or consent_missing.")),
    failure_reason=(str | None, Field(description="Why it FAILED: the gate's `Blocked "
                                                  "(<reason>): <text>`, or the provider's "
                                                  "error.")),
    provider=(str | None, Field(description="local, smtp or twilio; twiml for a keyword "
                                            "reply sent in the answer to an inbound text.")),
    pii_masked=(bool, Field(description="True when from and to are masked.")),
    created_at=(datetime, ...),
    updated_at=(datetime, ...),
    sent_at=(datetime | None, ...),
    delivered_at=(datetime | None, ...),
    failed_at=(datetime | None, ...),
    received_at=(datetime | None, ...),
)
Message.model_config["json_schema_extra"] = {"examples": [_MESSAGE_EXAMPLE]}
Message.model_rebuild(force=True)


class MessageFilters(BaseModel):
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    channel: Channel | None = None
    direction: Direction | None = None
    status: Status | None = None

    _upper_enums = field_validator("channel", "direction", "status", mode="before")(_upper)

