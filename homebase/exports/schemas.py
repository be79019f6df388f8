from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict


class ExportObject(StrEnum):
    contacts = "contacts"
    leads = "leads"
    deals = "deals"
    messages = "messages"
    tasks = "tasks"
    appointments = "appointments"


class ExportFormat(StrEnum):
    ndjson = "ndjson"
    csv = "csv"


class ExportStatus(StrEnum):
    queued = "queued"
    running = "running"
    completed = "completed"
    failed = "failed"
    expired = "expired"


_CREATE_EXAMPLE: JsonDict = {
    "object": "contacts",
    "format": "csv",
    "filters": {"stage": "HOT_LEAD"},
    "fields": "first_name,last_name,email,phone,stage,tags",
}

_FILTERS = (
    "The list's own query filters, as an object: the members GET /v1/<object> takes "
    "(besides cursor, limit and fields), with the same rules; e.g. contacts: stage, "
    "source, tag, q, owner_id; deals: pipeline_id, stage_id, contact_id, owner_id, "
    "status; messages: contact_id, channel, direction, status. An unknown member is a "
    "400 naming filters.<member>."
)


class ExportCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_CREATE_EXAMPLE]})

    object: ExportObject = Field(
        description="The list to export. Needs its read scope: contacts:read, leads:read, "
        "deals:read, messages:read, appointments:read (tasks and appointments)."
    )
    format: ExportFormat = Field(
        ExportFormat.ndjson,
        description="ndjson (one JSON object per line, as the list's items) or csv "
        "(a header row, then one row per item).",
    )
    filters: dict[str, Any] = Field(
        default_factory=dict, max_length=20, description=_FILTERS, examples=[{"stage": "HOT_LEAD"}]
    )
    fields: Annotated[str, StringConstraints(max_length=1000)] | None = Field(
        None,
        description="Comma-separated allow-list of the item's members, the same rule as "
        "the list's fields parameter; id (and pii_masked) is always included. Omit for "
        "every member.",
        examples=["first_name,last_name,email"],
    )


_EXPORT_EXAMPLE: JsonDict = {
    "id": "exp_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "object": "contacts",
    "format": "csv",
    "status": "completed",
    "filters": {"stage": "HOT_LEAD"},
    "fields": "first_name,last_name,email,phone,stage,tags",
    "pii_masked": True,
    "rows": 1250,
    "created_at": "2026-11-20T17:04:05.123Z",
    "started_at": "2026-11-20T17:04:05.611Z",
    "finished_at": "2026-11-20T17:04:06.002Z",
    "expires_at": "2026-11-27T17:04:06.002Z",
    "download_url": "https://api.example.com/exports/d3NwXzAxamQzdjZrOGgyazNtNG41cDZxN3I4czl0",
    "download_url_expires_at": "2026-11-20T17:09:06.000Z",
    "failure_reason": None,
}


class Export(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [_EXPORT_EXAMPLE]})

    id: str
    object: ExportObject
    format: ExportFormat
    status: ExportStatus = Field(
        description="queued, then running (a worker writes the file), then completed; "
        "failed when it could not be made; expired once its file was removed (7 days "
        "after it finished, or at once when a contact's data was erased)."
    )
    filters: dict[str, Any] = Field(description="The filters as validated.")
    fields: str | None
    pii_masked: bool = Field(
        description="Whether the file masks email and phone: the credential that asked "
        "for it lacked contacts:read:pii."
    )
    rows: int = Field(description="Rows written; final once completed.")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    expires_at: datetime | None = Field(description="When the file is removed.")
    download_url: str | None = Field(
        description="While completed: a signed link to the file, valid five minutes and "
        "needing no credential; each read of the export gives a fresh one."
    )
    download_url_expires_at: datetime | None
    failure_reason: str | None
