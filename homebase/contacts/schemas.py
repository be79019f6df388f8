from enum import StrEnum
from typing import Annotated, Any, NotRequired

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.custom_fields.schemas import (
    RENDERED_DESCRIPTION,
    VALUES_EXAMPLE,
    CustomFieldValues,
)
from homebase.kit.emails import EMAIL_PATTERN, is_email
from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.schema_rules import absent
from homebase.kit.wire import JsonObject, WireTime
from homebase.kit.write_warnings import (
    PHONE_WARNING_EXAMPLE,
    WARNINGS_DESCRIPTION,
    WriteWarning,
)


class ContactStage(StrEnum):
    LEAD = "LEAD"
    HOT_LEAD = "HOT_LEAD"
    NURTURE = "NURTURE"
    ACTIVE_CLIENT = "ACTIVE_CLIENT"
    PAST_CLIENT = "PAST_CLIENT"
    SPHERE = "SPHERE"
    TRASH = "TRASH"


class ContactAiPauseReason(StrEnum):
    """Why the AI stopped answering a contact (contacts/service.py PAUSE_*, docs/ai.md)."""

    NOTE = "note"
    HUMAN_MESSAGE = "human_message"
    HANDOFF = "handoff"
    DAILY_LIMIT = "daily_limit"
    MANUAL = "manual"
    OPT_OUT = "opt_out"


Name = Annotated[str, StringConstraints(max_length=80)]


def _email(value: str) -> str:
    if not is_email(value):
        raise ValueError("is not a valid email address")
    return value


Email = Annotated[
    str,
    StringConstraints(max_length=254),
    AfterValidator(_email),
    Field(json_schema_extra={"format": "email", "pattern": EMAIL_PATTERN}),
]
Phone = Annotated[str, StringConstraints(max_length=32)]
Source = Annotated[str, StringConstraints(max_length=80)]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Tags = Annotated[list[Tag], Field(max_length=30)]
Notes = Annotated[str, StringConstraints(max_length=20000)]
OwnerId = Annotated[str, StringConstraints(max_length=40)]

_CONTACT_EXAMPLE: JsonDict = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "source": "Zillow",
    "tags": ["buyer", "pre-approved"],
    "notes": "Wants 3 beds near Noe Valley.",
    "owner_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
}


def _unique(tags: list[str] | None) -> list[str] | None:
    return list(dict.fromkeys(tags)) if tags is not None else None


class ContactCreate(BaseModel):
    """Every member is optional; stage defaults to LEAD and tags to []."""

    # required is stated (empty) so the document says outright that nothing is required.
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"required": [], "examples": [_CONTACT_EXAMPLE]}
    )

    first_name: Name | None = None
    last_name: Name | None = None
    email: Email | None = None
    phone: Phone | None = None
    stage: ContactStage = ContactStage.LEAD
    source: Source | None = None
    tags: Tags = Field(default_factory=list, description="Duplicates are dropped.")
    notes: Notes | None = None
    owner_id: OwnerId | None = None
    custom_fields: CustomFieldValues | None = None

    _dedupe = field_validator("tags")(_unique)


class ContactUpdate(BaseModel):
    """Any subset. first_name, last_name, email, phone, source, notes and owner_id accept
    null to clear them; stage, tags and custom_fields do not. tags replaces the whole
    list; custom_fields merges into the contact's (null for a key removes its value)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            "examples": [{"stage": "ACTIVE_CLIENT", "tags": ["buyer", "closing"], "phone": None}],
        },
    )

    first_name: Name | None = None
    last_name: Name | None = None
    email: Email | None = None
    phone: Phone | None = None
    stage: ContactStage = absent(json_schema_extra={"type": "string"})
    source: Source | None = None
    tags: Tags = absent()
    notes: Notes | None = None
    owner_id: OwnerId | None = None
    custom_fields: CustomFieldValues = absent(json_schema_extra={"type": "object"})

    _dedupe = field_validator("tags")(_unique)

    @field_validator("stage", "tags", "custom_fields", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may not be null")
        return value


_MASKED = "Masked unless the credential holds contacts:read:pii."
PHONE_E164_DESCRIPTION = (
    "phone in E.164 (+14155550142), what matching and search use: read with the "
    "workspace's default_phone_region when it has no country code; null when phone is not "
    "a possible number. Masked as phone is unless the credential holds contacts:read:pii."
)


_CONTACT_OUT_EXAMPLE: JsonDict = {
    "id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    **_CONTACT_EXAMPLE,
    "email": "d***@example.com",
    "phone": "+* *** *** 0142",
    "phone_e164": "+*******0142",
    "custom_fields": {"price_max": 1450000, "pre_approved": True},
    "pii_masked": True,
    "ai_auto_response_paused": False,
    "ai_auto_response_paused_at": None,
    "ai_auto_response_paused_reason": None,
    "anonymized_at": None,
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}


# The contact as GET /v1/contacts/{id} sends it (render.contact, render.list_item). No
# docstring: it would become the schema's description.
@with_config(json_schema_extra={"examples": [_CONTACT_OUT_EXAMPLE]})
class Contact(TypedDict):
    id: str
    first_name: str | None
    last_name: str | None
    email: Annotated[str | None, Field(description=_MASKED)]
    phone: Annotated[
        str | None,
        Field(
            description="As sent (any text up to 32 characters). Masked (last four digits) unless "
            "the credential holds contacts:read:pii."
        ),
    ]
    phone_e164: Annotated[str | None, Field(description=PHONE_E164_DESCRIPTION)]
    stage: ContactStage
    source: str | None
    tags: list[str]
    notes: str | None
    owner_id: str | None
    custom_fields: Annotated[
        JsonObject, Field(description=RENDERED_DESCRIPTION, examples=[VALUES_EXAMPLE])
    ]
    pii_masked: Annotated[
        bool, Field(description="True when email and phone, if present, are masked.")
    ]
    ai_auto_response_paused: Annotated[
        bool,
        Field(
            description="AI replies to this contact are paused: a person stepped in (a note, "
            "a message a person sent it through POST /v1/messages, POST .../ai/pause), the AI "
            "handed the conversation over, or it reached its daily cap. POST .../ai/resume "
            "clears it."
        ),
    ]
    ai_auto_response_paused_at: Annotated[
        WireTime | None,
        Field(
            description="When the AI was paused (the first pause's time); null while it answers."
        ),
    ]
    ai_auto_response_paused_reason: Annotated[
        ContactAiPauseReason | None,
        Field(
            description="Why the AI is paused: note (a note was added), human_message (a "
            "person sent the contact a message), handoff (the AI handed the conversation to a "
            "person), daily_limit (the AI reached its cap of replies to this contact in 24 "
            "hours), manual (POST .../ai/pause), opt_out (the contact opted out by text; START "
            "resumes it). null while the AI answers."
        ),
    ]
    anonymized_at: Annotated[
        WireTime | None,
        Field(description="When DELETE erased this contact's personal data; null otherwise."),
    ]
    created_at: WireTime
    updated_at: WireTime


@with_config(
    json_schema_extra={
        "examples": [
            {
                **_CONTACT_OUT_EXAMPLE,
                "phone": "*2345",
                "phone_e164": None,
                "warnings": [PHONE_WARNING_EXAMPLE],
            }
        ]
    }
)
class ContactWritten(Contact):
    """The contact as a create or update left it, and what the write warns about."""

    warnings: NotRequired[Annotated[list[WriteWarning], Field(description=WARNINGS_DESCRIPTION)]]


class NoteCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"body": "Called back; wants a showing Saturday."}]},
    )

    body: Annotated[str, StringConstraints(min_length=1, max_length=20000)]


@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "tev_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "type": "note",
                "title": "Note added",
                "body": "Called back; wants a showing Saturday.",
                "data": {},
                "actor": "key_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "occurred_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class Event(TypedDict):
    """A timeline entry: a note, a stage change, and (as those areas arrive) calls,
    messages and lead activity."""

    id: str
    contact_id: str
    type: Annotated[
        str,
        Field(
            description="note, stage_changed; later also lead_created, "
            "lead_assigned, message, call and more."
        ),
    ]
    title: str
    body: str | None
    data: JsonObject  # what the entry's writer kept
    actor: Annotated[str | None, Field(description="Id of the credential that caused it, if any.")]
    occurred_at: WireTime


@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "anonymized": True,
                "anonymized_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class Erased(TypedDict):
    id: str
    anonymized: bool
    anonymized_at: WireTime


# PostgreSQL text cannot hold a NUL, so comparing with one failed there (a 500): a
# filter holding one is refused as a 400 on both databases.
NO_NUL = r"^[^\x00]*$"


class ContactFilters(BaseModel):
    stage: ContactStage | None = Field(
        None, description="Only contacts in this stage.", examples=["HOT_LEAD"]
    )
    source: Annotated[str, StringConstraints(max_length=80, pattern=NO_NUL)] | None = Field(
        None, description="Only contacts with exactly this source.", examples=["Zillow"]
    )
    tag: Annotated[str, StringConstraints(max_length=40, pattern=NO_NUL)] | None = Field(
        None, description="Only contacts carrying this tag.", examples=["buyer"]
    )
    q: Annotated[str, StringConstraints(max_length=120, pattern=NO_NUL)] | None = Field(
        None,
        description="Search: first, last or full name by substring (any case). Email "
        "and phone by substring for credentials holding contacts:read:pii; "
        "for others only an exact email address or phone number matches.",
        examples=["reyes"],
    )
    owner_id: Annotated[str, StringConstraints(max_length=40, pattern=NO_NUL)] | None = Field(
        None,
        description="Only contacts owned by this member.",
        examples=["usr_01jd3v6k8h2k3m4n5p6q7r8s9t"],
    )
    updated_after: UpdatedAfter | None = updated_after_field()
