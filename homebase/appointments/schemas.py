from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

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

from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.schema_rules import Moment, absent, not_blank, sent_together
from homebase.kit.wire import WireTime

Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Title = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200), not_blank()
]
Location = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]
Notes = Annotated[str, StringConstraints(max_length=20000)]


class AppointmentOutcome(StrEnum):
    showed = "showed"
    no_show = "no_show"
    cancelled = "cancelled"


class AppointmentStatus(StrEnum):
    """Derived from outcome: scheduled (none yet), done (showed or no_show), cancelled."""

    scheduled = "scheduled"
    done = "done"
    cancelled = "cancelled"


OUTCOME_DOC = (
    "What happened: showed, no_show or cancelled (the spec's showed, no-show, "
    "cancelled). Null until recorded."
)
_MEMBER_DOC = "A member (user id) of this workspace."
_EXAMPLE: JsonDict = {
    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "title": "Showing: 1421 Sanchez St",
    "starts_at": "2026-11-21T17:00:00Z",
    "ends_at": "2026-11-21T17:45:00Z",
    "location": "1421 Sanchez St, San Francisco",
    "notes": "Bring the disclosure packet.",
    "created_by": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "assignee_id": None,
}


def _ends_after_start(value: datetime, info: ValidationInfo) -> datetime:
    starts_at = info.data.get("starts_at")
    if starts_at is not None and value <= starts_at:
        raise ValueError("must be after starts_at")
    return value


class AppointmentCreate(BaseModel):
    """contact_id, title, starts_at and ends_at are required; ends_at must be after
    starts_at. created_by is the member whose connected calendar receives the event."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_EXAMPLE]})

    contact_id: Id = Field(description="A contact of this workspace.")
    title: Title
    starts_at: Moment = Field(description="With a UTC offset.")
    ends_at: Moment = Field(description="Strictly after starts_at.")
    location: Location | None = None
    notes: Notes | None = None
    created_by: Id | None = Field(
        None,
        description=_MEMBER_DOC + " The appointment is "
        "pushed to this member's connected calendar, if any.",
    )
    assignee_id: Id | None = Field(
        None, description=_MEMBER_DOC + " Who attends; defaults to created_by."
    )

    _after_start = field_validator("ends_at")(_ends_after_start)


_NOT_NULL = ("title", "starts_at", "ends_at", "outcome")


class AppointmentUpdate(BaseModel):
    """Any subset. Move it by sending starts_at and ends_at together (one alone is
    refused); record what happened with outcome. title, starts_at, ends_at and outcome
    may not be null (a wrong outcome is corrected by sending another); location, notes
    and assignee_id accept null to clear them. contact_id and created_by are fixed."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            **sent_together("starts_at", "ends_at"),
            "examples": [
                {"starts_at": "2026-11-22T18:00:00Z", "ends_at": "2026-11-22T18:45:00Z"},
                {"outcome": "no_show"},
            ],
        },
    )

    title: Title = absent(json_schema_extra={"type": "string"})
    starts_at: Moment = absent(
        json_schema_extra={"type": "string", "format": "date-time"},
        description="Send with ends_at.",
    )
    ends_at: Moment = absent(
        json_schema_extra={"type": "string", "format": "date-time"},
        description="Send with starts_at; strictly after it.",
    )
    location: Location | None = None
    notes: Notes | None = None
    assignee_id: Id | None = Field(None, description=_MEMBER_DOC)
    outcome: AppointmentOutcome = absent(
        json_schema_extra={"type": "string"}, description=OUTCOME_DOC
    )

    @field_validator(*_NOT_NULL, mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may not be null")
        return value

    _after_start = field_validator("ends_at")(_ends_after_start)


# An appointment as GET /v1/appointments/{id} sends it (render.appointment). No docstring:
# it would become the schema's description.
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "apt_01jd3v6k8h2k3m4n5p6q7r8s9t",
                **_EXAMPLE,
                "starts_at": "2026-11-21T17:00:00.000Z",
                "ends_at": "2026-11-21T17:45:00.000Z",
                "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "outcome": None,
                "outcome_recorded_at": None,
                "status": "scheduled",
                "created_at": "2026-11-20T17:04:05.123Z",
                "updated_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class Appointment(TypedDict):
    id: str
    contact_id: Annotated[str, Field(description="Kept when the contact is anonymized.")]
    title: Annotated[str, Field(description="[redacted] once the contact is anonymized.")]
    starts_at: WireTime
    ends_at: WireTime
    location: Annotated[str | None, Field(description="Null once the contact is anonymized.")]
    notes: Annotated[str | None, Field(description="Null once the contact is anonymized.")]
    created_by: str | None
    assignee_id: str | None
    outcome: Annotated[AppointmentOutcome | None, Field(description=OUTCOME_DOC)]
    outcome_recorded_at: WireTime | None
    status: Annotated[
        AppointmentStatus,
        Field(
            description="scheduled until an outcome is recorded; "
            "done after showed or no_show; cancelled."
        ),
    ]
    created_at: WireTime
    updated_at: WireTime


Filter = Annotated[str, StringConstraints(max_length=40)]


class AppointmentFilters(BaseModel):
    contact_id: Filter | None = None
    created_by: Filter | None = None
    assignee_id: Filter | None = None
    outcome: AppointmentOutcome | None = None
    status: AppointmentStatus | None = None
    starts_after: Moment | None = Field(None, description="starts_at at or after; inclusive.")
    starts_before: Moment | None = Field(None, description="starts_at before; exclusive.")
    updated_after: UpdatedAfter | None = updated_after_field()
