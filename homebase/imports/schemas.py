from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, field_validator
from pydantic.config import JsonDict

# Rows one import takes; a larger file goes in several (imports/csv_rows.py splits it).
MAX_ROWS = 5000


class ImportObject(StrEnum):
    CONTACTS = "contacts"
    LEADS = "leads"


class ImportMatchKey(StrEnum):
    EMAIL = "email"
    PHONE = "phone"


class ImportStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


# A row's member names, bounded here (the envelope) as the document states for every
# free-form object a request takes; the row itself is checked by the worker.
RowKey = Annotated[str, StringConstraints(max_length=128)]
DEFAULT_MATCH_ON = (ImportMatchKey.EMAIL, ImportMatchKey.PHONE)

_ROW_EXAMPLE: JsonDict = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "tags": ["buyer"],
}


class ImportCreate(BaseModel):
    """The import's envelope is checked at once (400 naming its members); each row is
    checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
    refused row is a result (GET /v1/imports/{id}/errors), not a 400."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"object": "contacts", "rows": [_ROW_EXAMPLE], "match_on": ["email", "phone"]}
            ]
        },
    )

    object: ImportObject = Field(
        description="contacts (scope contacts:write) or leads (scope leads:write)."
    )
    rows: Annotated[list[dict[RowKey, Any]], Field(min_length=1, max_length=MAX_ROWS)] = Field(
        description=f"1 to {MAX_ROWS} objects, each the body POST /v1/contacts or POST "
        "/v1/leads takes; the whole request stays within HOMEBASE_MAX_BODY_BYTES."
    )
    match_on: Annotated[
        list[ImportMatchKey], Field(max_length=2, json_schema_extra={"uniqueItems": True})
    ] = Field(
        default_factory=lambda: list(DEFAULT_MATCH_ON),
        description="Contacts only: how a row finds the contact it updates, in order of "
        "precedence: `email` (the same address, any case), `phone` (the same E.164 "
        "number). A row matching none creates a contact; `[]` always creates. Default "
        '["email", "phone"]. Leads are always created, each linked to a contact as POST '
        "/v1/leads links it (same phone, else same email).",
    )
    skip_routing: StrictBool = Field(
        False,
        description="Leads only: create every lead without routing it (a row's own "
        "skip_routing is honoured too).",
    )

    @field_validator("match_on")
    @classmethod
    def _once_each(cls, value: list[ImportMatchKey]) -> list[ImportMatchKey]:
        if len(set(value)) != len(value):
            raise ValueError("names each key at most once")
        return value


class ImportCounts(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"rows": 5000, "created": 4100, "updated": 700, "unchanged": 150, "failed": 50}
            ]
        }
    )

    rows: int = Field(description="Rows in the import.")
    created: int
    updated: int = Field(description="Rows that matched a contact and changed it.")
    unchanged: int = Field(description="Rows that matched a contact already holding them.")
    failed: int = Field(description="Rows refused; GET /v1/imports/{id}/errors says why.")


_JOB_EXAMPLE: JsonDict = {
    "id": "imp_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "object": "contacts",
    "status": "running",
    "match_on": ["email", "phone"],
    "skip_routing": False,
    "counts": {"rows": 5000, "created": 1800, "updated": 150, "unchanged": 40, "failed": 10},
    "progress": 0.4,
    "created_at": "2026-11-20T17:04:05.123Z",
    "started_at": "2026-11-20T17:04:05.456Z",
    "finished_at": None,
}


class ImportJob(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [_JOB_EXAMPLE]})

    id: str
    object: ImportObject
    status: ImportStatus = Field(
        description="queued (waiting: a workspace runs one import at a time, oldest "
        "first), running, completed, or failed (the worker could not finish it; the rows "
        "counted were processed, the rest were not)."
    )
    match_on: list[ImportMatchKey]
    skip_routing: bool
    counts: ImportCounts
    progress: float = Field(description="Rows processed / rows, from 0 to 1.")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class ImportFieldError(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"field": "email", "message": "is not a valid email address"}]
        }
    )

    field: str = Field(description="The row's member, as a single create's 400 names it.")
    message: str = Field(description="The single create's message, word for word.")


class ImportRowErrors(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "index": 17,
                    "errors": [{"field": "email", "message": "is not a valid email address"}],
                }
            ]
        }
    )

    index: int = Field(description="The row's position in the request's `rows`, from 0.")
    errors: list[ImportFieldError]
