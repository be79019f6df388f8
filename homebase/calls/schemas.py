from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.schema_rules import Moment
from homebase.kit.wire import WireTime


class CallDirection(StrEnum):
    inbound = "inbound"
    outbound = "outbound"


class HandledBy(StrEnum):
    ai = "ai"
    human = "human"


Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Number = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
Disposition = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
RecordingKey = Annotated[str, StringConstraints(min_length=1, max_length=300)]

DISPOSITIONS_DOC = (
    "Free-form, max 40 chars. Values the product uses: connected, "
    "voicemail, no_answer, busy, failed, appointment_set, qualified, "
    "not_interested, callback_requested; the AI's calls also wrong_number, opted_out "
    "and handoff (docs/voice.md)."
)


# A call's longest duration, said or computed from its ended_at (an integer column).
MAX_CALL_SECONDS = 86400


class CallDetails(BaseModel):
    """What a finished call reports, from the provider callback or load-fixtures."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    direction: CallDirection
    from_: Number | None = Field(None, alias="from", description="Caller, E.164 preferred.")
    to: Number | None = Field(None, description="Callee, E.164 preferred.")
    started_at: Moment
    ended_at: Moment | None = Field(
        None,
        description="Not before started_at, and at most a day (MAX_CALL_SECONDS) after it, "
        "the bound of duration_seconds, which defaults to the difference.",
    )
    duration_seconds: Annotated[int, Field(ge=0, le=MAX_CALL_SECONDS)] | None = Field(
        None, description="Defaults to ended_at - started_at."
    )
    handled_by: HandledBy
    user_id: Id | None = Field(None, description="The member who took a human call.")
    disposition: Disposition | None = Field(None, description=DISPOSITIONS_DOC)
    transcript: Annotated[str, StringConstraints(max_length=200_000)] | None = None
    summary: Annotated[str, StringConstraints(max_length=20_000)] | None = Field(
        None, description="The AI summary."
    )
    recording_key: RecordingKey | None = Field(
        None,
        description="Where the audio is stored: a path relative to the service's "
        "recordings storage (HOMEBASE_RECORDINGS_DIR).",
    )
    contact_id: Id | None = Field(
        None,
        description="The contact; when absent the call is matched by the other party's number.",
    )

    @field_validator("ended_at")
    @classmethod
    def _not_before_start(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        started_at = info.data.get("started_at")
        if value is not None and started_at is not None:
            if value < started_at:
                raise ValueError("must not be before started_at")
            if (value - started_at).total_seconds() > MAX_CALL_SECONDS:
                raise ValueError(f"must be at most {MAX_CALL_SECONDS} seconds after started_at")
        return value

    @field_validator("recording_key")
    @classmethod
    def _relative(cls, value: str | None) -> str | None:
        if value is not None and (
            value.startswith(("/", "\\"))
            or ".." in value.split("/")
            or "\\" in value
            or "\x00" in value
        ):
            raise ValueError("must be a relative path inside the recordings storage")
        return value


_COMPLETED_EXAMPLE: JsonDict = {
    "provider_call_id": "CA8f2d61b0c9e5",
    "direction": "inbound",
    "from": "+14155550142",
    "to": "+14155550100",
    "started_at": "2026-11-20T17:00:00Z",
    "ended_at": "2026-11-20T17:04:12Z",
    "handled_by": "ai",
    "disposition": "appointment_set",
    "transcript": "AI: Thanks for calling Demo Realty...\nCaller: I'd like to see 1421 "
    "Sanchez on Saturday.",
    "summary": "Caller wants a Saturday showing of 1421 Sanchez St; pre-approved.",
    "recording_key": "provider/CA8f2d61b0c9e5.wav",
}


class CallCompleted(CallDetails):
    """The provider callback body. The workspace is workspace_id when given, else the
    workspace that owns the receiving number (to for inbound, from for outbound)."""

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, json_schema_extra={"examples": [_COMPLETED_EXAMPLE]}
    )

    provider_call_id: Annotated[str, StringConstraints(min_length=1, max_length=120)] = Field(
        description="The provider's id; a repeated callback records the call once."
    )
    workspace_id: Id | None = None


class CallFixture(CallDetails):
    provider_call_id: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    contact: Id | None = Field(None, description="A contact ref or id.")
    recording_tone_seconds: Annotated[int, Field(ge=1, le=30)] | None = None


_MASKED = "Masked unless the credential holds contacts:read:pii."

# A call as GET /v1/calls/{id} sends it (render.call). Its number members are "from" and
# "to": "from" is a Python keyword, so the type is spelled as a call.
Call = TypedDict(
    "Call",
    {
        "id": str,
        "contact_id": str | None,
        "direction": CallDirection,
        "from": Annotated[str | None, Field(description=_MASKED)],
        "to": Annotated[str | None, Field(description=_MASKED)],
        "pii_masked": bool,
        "started_at": WireTime,
        "ended_at": WireTime | None,
        "duration_seconds": int | None,
        "handled_by": Annotated[
            HandledBy, Field(description="ai for calls the AI handled, human otherwise.")
        ],
        "user_id": str | None,
        "disposition": Annotated[str | None, Field(description=DISPOSITIONS_DOC)],
        "transcript": Annotated[
            str | None, Field(description="Null once the contact is anonymized.")
        ],
        "summary": Annotated[
            str | None, Field(description="AI summary; null once the contact is anonymized.")
        ],
        "recording_url": Annotated[
            str | None,
            Field(
                description="Signed link to this service's recording "
                "proxy, valid five minutes, no credential "
                "needed; supports Range requests. Null when "
                "there is no recording."
            ),
        ],
        "recording_url_expires_at": WireTime | None,
        "provider_call_id": str | None,
        "created_at": WireTime,
    },
)
with_config(
    ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "cal_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "direction": "inbound",
                    "from": "+*******0142",
                    "to": "+*******0100",
                    "pii_masked": True,
                    "started_at": "2026-11-20T17:00:00.000Z",
                    "ended_at": "2026-11-20T17:04:12.000Z",
                    "duration_seconds": 252,
                    "handled_by": "ai",
                    "user_id": None,
                    "disposition": "appointment_set",
                    "transcript": _COMPLETED_EXAMPLE["transcript"],
                    "summary": _COMPLETED_EXAMPLE["summary"],
                    "recording_url": "https://api.example.com/recordings/eyJ3c3AiOi...",
                    "recording_url_expires_at": "2026-11-20T17:09:05.000Z",
                    "provider_call_id": "CA8f2d61b0c9e5",
                    "created_at": "2026-11-20T17:04:13.000Z",
                }
            ]
        }
    )
)(Call)


class CallFilters(BaseModel):
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    direction: CallDirection | None = None
    handled_by: HandledBy | None = None
    disposition: Annotated[str, StringConstraints(max_length=40)] | None = None
    started_after: Moment | None = Field(None, description="Inclusive.")
    started_before: Moment | None = Field(None, description="Exclusive.")


class CallRecorded(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "cal_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "workspace_id": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "created": True,
                }
            ]
        }
    )

    id: str
    workspace_id: str
    created: bool = Field(description="False when this provider_call_id was already recorded.")
