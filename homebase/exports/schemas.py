from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, field_validator
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError

from homebase.appointments.schemas import Appointment, AppointmentFilters
from homebase.contacts.schemas import Contact, ContactFilters
from homebase.deals.schemas import Deal, DealFilters
from homebase.kit import fields as fields_kit
from homebase.kit import wire
from homebase.kit.errors import ValidationFailed
from homebase.leads.schemas import Lead, LeadFilters
from homebase.messaging.schemas import Message, MessageFilters
from homebase.tasks.schemas import Task, TaskFilters


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
_FORMAT = (
    "ndjson (one JSON object per line, as the list's items) or csv (a header row, then "
    "one row per item)."
)
_FILTERS = (
    "The filters of {list}, as an object: the members that list takes in its query "
    "string (besides cursor, limit and fields), with the same rules, applied as that list "
    "applies them; `updated_after` makes the file that list's walk of changes, oldest "
    "change first (docs/sync.md). An unknown member is a 400 naming filters.<member>."
)
_FIELDS = (
    "Comma-separated allow-list of the item's members, the same rule as the fields "
    "parameter of {list}; id (and pii_masked) is always included. Omit for every member."
)
ExportFieldsValue = Annotated[str, StringConstraints(max_length=1000)] | None


# Each list's own filters model refusing unknown members: in a query string they are
# ignored (a list's rule), in an export's JSON body they are a 400 naming them.
class ContactExportFilters(ContactFilters):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"stage": "LEAD"}]})


class LeadExportFilters(LeadFilters):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"unlinked_only": "true"}]}
    )


class DealExportFilters(DealFilters):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"status": "open"}]})


class MessageExportFilters(MessageFilters):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"channel": "SMS"}]})


class TaskExportFilters(TaskFilters):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"status": "open"}]})


class AppointmentExportFilters(AppointmentFilters):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"starts_after": "2026-11-20T00:00:00Z"}]}
    )


def _object(name: str) -> Any:
    """The discriminator member: an enum of its one value (what generators read to pick
    the variant; tests/kit/test_openapi.py asks a union's tags to be listed so)."""

    def extra(schema: JsonDict) -> None:
        schema.pop("const", None)
        schema["enum"] = [name]

    return Field(description=f"{name}: the list to export.", json_schema_extra=extra)


def _format() -> Any:  # pydantic types Field() as its default's type
    return Field(ExportFormat.ndjson, description=_FORMAT)


def _filters(model: type[BaseModel], listed: str) -> Any:
    return Field(default_factory=model, description=_FILTERS.format(list=listed))


def _fields(item: type[Any], listed: str) -> Any:
    """`fields` of an export of `item`: the list's own pattern of its members' names."""
    return Field(
        None,
        description=_FIELDS.format(list=listed),
        examples=[fields_kit.example(item)],
        json_schema_extra={"pattern": fields_kit.pattern(item)},
    )


class _ExportRequest(BaseModel):
    """What every export body shares; `ITEM` is the list's item, whose members `fields`
    names. The unknown names of `fields` are refused here, with the filters' failures, so
    every failure of the body is in the one 400."""

    model_config = ConfigDict(extra="forbid")
    ITEM: ClassVar[type[Any]]  # a wire type (kit/wire.py) or a pydantic model

    @field_validator("fields", check_fields=False)
    @classmethod
    def _known_members(cls, value: str | None) -> str | None:
        try:
            fields_kit.selection(frozenset(wire.members(cls.ITEM)), value, location="body")
        except ValidationFailed as failure:
            raise PydanticCustomError("unknown_field", failure.message) from None
        return value


class ContactsExportCreate(_ExportRequest):
    """An export of GET /v1/contacts (needs contacts:read)."""

    model_config = ConfigDict(json_schema_extra={"examples": [_CREATE_EXAMPLE]})
    ITEM = Contact

    object: Literal["contacts"] = _object("contacts")
    format: ExportFormat = _format()
    filters: ContactExportFilters = _filters(ContactExportFilters, "GET /v1/contacts")
    fields: ExportFieldsValue = _fields(Contact, "GET /v1/contacts")


class LeadsExportCreate(_ExportRequest):
    """An export of GET /v1/leads (needs leads:read)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"object": "leads", "filters": {"unlinked_only": "true"}}]}
    )
    ITEM = Lead

    object: Literal["leads"] = _object("leads")
    format: ExportFormat = _format()
    filters: LeadExportFilters = _filters(LeadExportFilters, "GET /v1/leads")
    fields: ExportFieldsValue = _fields(Lead, "GET /v1/leads")


class DealsExportCreate(_ExportRequest):
    """An export of GET /v1/deals (needs deals:read)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"object": "deals", "format": "csv", "filters": {"status": "won"}}]
        }
    )
    ITEM = Deal

    object: Literal["deals"] = _object("deals")
    format: ExportFormat = _format()
    filters: DealExportFilters = _filters(DealExportFilters, "GET /v1/deals")
    fields: ExportFieldsValue = _fields(Deal, "GET /v1/deals")


class MessagesExportCreate(_ExportRequest):
    """An export of GET /v1/messages (needs messages:read)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"object": "messages", "filters": {"updated_after": "2026-11-20T17:04:05.123Z"}}
            ]
        }
    )
    ITEM = Message

    object: Literal["messages"] = _object("messages")
    format: ExportFormat = _format()
    filters: MessageExportFilters = _filters(MessageExportFilters, "GET /v1/messages")
    fields: ExportFieldsValue = _fields(Message, "GET /v1/messages")


class TasksExportCreate(_ExportRequest):
    """An export of GET /v1/tasks (needs appointments:read)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"object": "tasks", "filters": {"status": "open"}}]}
    )
    ITEM = Task

    object: Literal["tasks"] = _object("tasks")
    format: ExportFormat = _format()
    filters: TaskExportFilters = _filters(TaskExportFilters, "GET /v1/tasks")
    fields: ExportFieldsValue = _fields(Task, "GET /v1/tasks")


class AppointmentsExportCreate(_ExportRequest):
    """An export of GET /v1/appointments (needs appointments:read)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"object": "appointments", "format": "csv"}]}
    )
    ITEM = Appointment

    object: Literal["appointments"] = _object("appointments")
    format: ExportFormat = _format()
    filters: AppointmentExportFilters = _filters(AppointmentExportFilters, "GET /v1/appointments")
    fields: ExportFieldsValue = _fields(Appointment, "GET /v1/appointments")


ExportRequest = (
    ContactsExportCreate
    | LeadsExportCreate
    | DealsExportCreate
    | MessagesExportCreate
    | TasksExportCreate
    | AppointmentsExportCreate
)


class ExportCreate(RootModel[Annotated[ExportRequest, Field(discriminator="object")]]):
    """One variant per list, chosen by `object`: its `filters` are that list's filters and
    its `fields` name that list's item's members. The export needs the list's read
    scope: contacts:read, leads:read, deals:read, messages:read, appointments:read (tasks
    and appointments)."""

    model_config = ConfigDict(json_schema_extra={"examples": [_CREATE_EXAMPLE]})


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
        description="Whether the file was made for a credential without "
        "contacts:read:pii: every row masked as the list masks it for such a credential "
        "(emails, phones, and the phone numbers and emails inside free text). An export "
        "made unmasked is shown only to credentials holding contacts:read:pii."
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
