from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StrictBool,
    StringConstraints,
    field_validator,
    model_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.emails import EMAIL_PATTERN, HEADER_SAFE_PATTERN, header_safe
from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.schema_rules import exactly_one
from homebase.kit.wire import WireTime


class MessageChannel(StrEnum):
    SMS = "SMS"
    WHATSAPP = "WHATSAPP"
    EMAIL = "EMAIL"


class MessageDirection(StrEnum):
    OUTBOUND = "OUTBOUND"
    INBOUND = "INBOUND"


class MessageStatus(StrEnum):
    QUEUED = "QUEUED"
    SENDING = "SENDING"
    SENT = "SENT"
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"
    RECEIVED = "RECEIVED"


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


_CONTACT = "con_01jd3v6k8h2k3m4n5p6q7r8s9t"
_SMS_EXAMPLE: JsonDict = {
    "channel": "SMS",
    "contact_id": _CONTACT,
    "body": "Hi Dana, the Noe Valley open house is Saturday at 11. Reply STOP to opt out.",
}
_WHATSAPP_EXAMPLE: JsonDict = {
    "channel": "WHATSAPP",
    "to": "+1 415 555 0142",
    "from": "+1 415 555 0100",
    "body": "Hi Dana, see you Saturday at 11.",
}
_EMAIL_EXAMPLE: JsonDict = {
    "channel": "EMAIL",
    "to": "dana.reyes@example.com",
    "subject": "Your showing",
    "body": "Hi Dana,\n\nConfirming Saturday at 11.\n",
}

_RECIPIENT = "Give exactly one of contact_id and to (both or neither: 400 naming `to`)."
TEXT_BODY_MAX = 1600
Body = Annotated[str, StringConstraints(min_length=1, max_length=20000)]
TextBody = Annotated[str, StringConstraints(min_length=1, max_length=TEXT_BODY_MAX)]
ContactId = Annotated[str, StringConstraints(max_length=40)]
# Documented with the contact email pattern (contacts/schemas.py): the one bare address
# email `to` is held to.
EmailAddress = Annotated[
    str,
    StringConstraints(min_length=3, max_length=254),
    Field(json_schema_extra={"format": "email", "pattern": EMAIL_PATTERN}),
]


def _tag(channel: str) -> Any:
    """The discriminator member, as an enum of the upper-case value and the lower-case one
    v1 always took (deprecated: JSON Schema cannot mark one value so, the description
    does). Not a const: that would refuse the lower-case value the service accepts."""

    def extra(schema: JsonDict) -> None:
        schema.pop("const", None)
        schema["enum"] = [channel, channel.lower()]
        # Generators name enum members by upper-casing values, so the two would clash:
        # the x-enum-varnames extension (openapi-python-client, openapi-generator,
        # openapi-typescript) names them instead.
        schema["x-enum-varnames"] = [channel, f"{channel}_LOWERCASE"]

    return Field(
        description=f"{channel}. `{channel.lower()}` is accepted too and deprecated (as is "
        "any other casing, which the enum cannot list); answered in upper case.",
        json_schema_extra=extra,
    )


def _variant(example: JsonDict) -> Any:
    """A variant's json_schema_extra: its example, the deprecated `text` it takes for
    `body`, and the two exactly-one rules the service checks: of `contact_id` and `to`
    (null counting as not sent; both or neither is 400 naming `to`), and of `body` and
    `text` (neither is 400 naming `body`; both, `text` is refused as unknown). `body` is
    then not `required`: the `allOf` says which is."""

    def extra(schema: JsonDict) -> None:
        schema["examples"] = [example]
        schema["allOf"] = [exactly_one("contact_id", "to"), exactly_one("body", "text")]
        members = schema["properties"]
        assert isinstance(members, dict)
        body = members["body"]
        assert isinstance(body, dict)
        members["text"] = {
            **body,
            "title": "Text",
            "description": "Deprecated: the same as `body`, which replaces it. Send one of "
            "them, never both.",
            "deprecated": True,
        }
        required = schema["required"]
        assert isinstance(required, list)
        required.remove("body")

    return extra


class _SendBase(BaseModel):
    """The members every channel shares. Each channel is its own model (a variant of the
    MessageCreate union) so that the document says what the service requires and refuses
    for that channel: a generated client cannot build an email without a subject."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    # Each variant narrows this to its Literal tag; declared here so it lists first.
    channel: str
    contact_id: ContactId | None = Field(
        None, description="The recipient contact: its phone (texts) or email (email). " + _RECIPIENT
    )
    # Strict: the document says a boolean, so 0 and 1 are refused as it refuses them.
    ai_generated: StrictBool = Field(False, description="True when an AI composed the text.")


class _TextSend(_SendBase):
    to: Annotated[str, StringConstraints(min_length=3, max_length=254)] | None = Field(
        None,
        description="Or a phone number: E.164 (`+14155550142`) or a US national "
        "number; linked to the contact with that number, if any. " + _RECIPIENT,
    )
    body: TextBody = Field(
        validation_alias=AliasChoices("body", "text"),
        description=f"The text, at most {TEXT_BODY_MAX} characters. Required unless the "
        "deprecated `text` is sent instead.",
    )
    from_number: Annotated[str, StringConstraints(max_length=32)] | None = Field(
        None,
        alias="from",
        description="One of the workspace's sender numbers for the "
        "channel. Default: its first carrier-approved one.",
    )


class SmsSend(_TextSend):
    """A text message. `subject` is refused (email only)."""

    model_config = ConfigDict(json_schema_extra=_variant(_SMS_EXAMPLE))

    channel: Literal["SMS"] = _tag("SMS")


class WhatsAppSend(_TextSend):
    """A WhatsApp message. `subject` is refused (email only)."""

    model_config = ConfigDict(json_schema_extra=_variant(_WHATSAPP_EXAMPLE))

    channel: Literal["WHATSAPP"] = _tag("WHATSAPP")


class EmailSend(_SendBase):
    """An email: `subject` is required; `from` is refused (the workspace's sender address
    is used)."""

    model_config = ConfigDict(json_schema_extra=_variant(_EMAIL_EXAMPLE))

    channel: Literal["EMAIL"] = _tag("EMAIL")
    to: EmailAddress | None = Field(
        None,
        description="Or one bare address matching the contact email pattern (no "
        "display name, comment, quotes, angle brackets or list); linked to "
        "the contact with that address, if any, and compared with the "
        "suppression list lower-cased. " + _RECIPIENT,
    )
    subject: Annotated[str, StringConstraints(min_length=1, max_length=998)] = Field(
        description="The subject line. One line: no line breaks (CR, LF) or other control "
        "characters (a tab is allowed).",
        json_schema_extra={"pattern": HEADER_SAFE_PATTERN},
    )
    body: Body = Field(
        validation_alias=AliasChoices("body", "text"),
        description="The text. Required unless the deprecated `text` is sent instead.",
    )

    @field_validator("subject")
    @classmethod
    def _one_line(cls, value: str) -> str:
        # It becomes the Subject header: a line break would start a header of its own.
        if not header_safe(value):
            raise ValueError("must be one line: no line breaks or control characters")
        return value


SendRequest = SmsSend | WhatsAppSend | EmailSend


def _lower_case_tags(schema: JsonDict) -> None:
    """The examples, and the discriminator's mapping for the deprecated lower-case tags
    each variant's enum lists (a generator picks the variant by this mapping)."""
    schema["examples"] = [_SMS_EXAMPLE, _WHATSAPP_EXAMPLE, _EMAIL_EXAMPLE]
    discriminator = schema.get("discriminator")
    mapping = discriminator.get("mapping") if isinstance(discriminator, dict) else None
    if isinstance(mapping, dict):
        mapping.update({tag.lower(): target for tag, target in list(mapping.items())})


class MessageCreate(RootModel[Annotated[SendRequest, Field(discriminator="channel")]]):
    """One variant per channel, chosen by `channel`: SMS and WHATSAPP take `from` and at
    most 1600 characters of body, and refuse `subject`; EMAIL requires `subject` and
    refuses `from`. Every variant: exactly one of contact_id and to."""

    model_config = ConfigDict(json_schema_extra=_lower_case_tags)

    @model_validator(mode="before")
    @classmethod
    def _upper_channel(cls, value: Any) -> Any:
        # The union picks its variant by the raw tag, before any member validator runs;
        # lower-case channels were always accepted, so normalise here first.
        if isinstance(value, dict) and isinstance(value.get("channel"), str):
            return {**value, "channel": value["channel"].upper()}
        return value


_MESSAGE_EXAMPLE: JsonDict = {
    "id": "msg_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "channel": "SMS",
    "direction": "OUTBOUND",
    "status": "FAILED",
    "from": "+* ***-***-0100",
    "to": "+* ***-***-0142",
    "subject": None,
    "body": "Hi Dana, the open house is Saturday at 11.",
    "ai_generated": False,
    "proactive": True,
    "blocked_reason": "quiet_hours",
    "failure_reason": "Blocked (quiet_hours): It is 21:04 in America/Los_Angeles, a zone of "
    "the recipient's number; proactive texts go out only from 08:00 to "
    "20:00 recipient local time.",
    "provider": None,
    "pii_masked": True,
    "created_at": "2026-11-20T05:04:05.123Z",
    "updated_at": "2026-11-20T05:04:05.123Z",
    "sent_at": None,
    "delivered_at": None,
    "failed_at": "2026-11-20T05:04:05.123Z",
    "received_at": None,
}

_ADDRESS = (
    "Masked (phones: last four digits; email: first character and domain) unless "
    "the credential holds contacts:read:pii."
)

# The message as GET /v1/messages/{id} sends it (render.message). The functional form:
# "from" is a keyword.
Message = TypedDict(
    "Message",
    {
        "id": str,
        "contact_id": Annotated[
            str | None, Field(description="The contact it was sent to or came from.")
        ],
        "channel": MessageChannel,
        "direction": MessageDirection,
        "status": Annotated[
            MessageStatus,
            Field(
                description="QUEUED -> SENDING -> SENT -> DELIVERED, or FAILED at "
                "any step (refused by a gate, or by the provider); "
                "inbound messages are RECEIVED."
            ),
        ],
        "from": Annotated[str | None, Field(description="Sender address. " + _ADDRESS)],
        "to": Annotated[str | None, Field(description="Recipient address. " + _ADDRESS)],
        "subject": Annotated[str | None, Field(description="Email only.")],
        "body": Annotated[str | None, Field(description="null once the contact was anonymized.")],
        "ai_generated": bool,
        "proactive": Annotated[
            bool | None,
            Field(
                description="Outbound texts: true when the recipient had "
                "not written within the reply window."
            ),
        ],
        "blocked_reason": Annotated[
            str | None,
            Field(
                description="The refusing gate: account_suspended, "
                "opted_out, a2p_not_approved, quiet_hours, "
                "consent_missing or attempt_limit."
            ),
        ],
        "failure_reason": Annotated[
            str | None,
            Field(
                description="Why it FAILED: the gate's `Blocked "
                "(<reason>): <text>`, or the provider's "
                "error."
            ),
        ],
        "provider": Annotated[
            str | None,
            Field(
                description="local, smtp or twilio; twiml for a keyword "
                "reply sent in the answer to an inbound text."
            ),
        ],
        "pii_masked": Annotated[bool, Field(description="True when from and to are masked.")],
        "created_at": WireTime,
        "updated_at": WireTime,
        "sent_at": WireTime | None,
        "delivered_at": WireTime | None,
        "failed_at": WireTime | None,
        "received_at": WireTime | None,
    },
)
Message.__doc__ = "A text, WhatsApp message or email: sent, queued, refused or received."
with_config(json_schema_extra={"examples": [_MESSAGE_EXAMPLE]})(Message)


class MessageFilters(BaseModel):
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    channel: MessageChannel | None = None
    direction: MessageDirection | None = None
    status: MessageStatus | None = None

    _upper_enums = field_validator("channel", "direction", "status", mode="before")(_upper)
    updated_after: UpdatedAfter | None = updated_after_field()
