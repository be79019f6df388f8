"""A contact and its timeline as the code carries them: the `contacts` and
`timeline_events` tables' rows (models/contact.py, timeline_event.py), typed; and the
columns a list page reads (ContactPageRow).

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Any

from typing_extensions import TypedDict

from homebase.kit.wire import JsonObject


class ContactRecord(TypedDict):
    id: str
    first_name: str | None
    last_name: str | None
    email: str | None
    email_lower: str | None
    phone: str | None
    phone_e164: str | None
    stage: str  # a ContactStage value
    source: str | None
    tags: list[str]
    notes: str | None
    owner_id: str | None
    ai_paused_at: datetime | None
    ai_paused_reason: str | None  # a ContactAiPauseReason value
    # values keyed by field id (custom_fields/), null for a contact that never had one
    custom_fields: JsonObject | None
    anonymized_at: datetime | None
    created_at: datetime
    updated_at: datetime


class ContactPageRow(TypedDict):
    """What a list page reads of a contact (render.PAGE_COLUMNS: its members): a
    Contact's members, by its names and in its order, as the database hands them
    (repository.page_columns), which render.list_item makes the Contact in place: its
    timestamps already text (PostgreSQL writes the wire's, SQLite gives the stored form,
    sliced), its JSON columns decoded on PostgreSQL and JSON text on SQLite (embedded as
    they are), the members the credential decides read as null and set."""

    id: str
    first_name: str | None
    last_name: str | None
    email: str | None
    phone: str | None
    phone_e164: str | None
    # the stored value of a ContactStage, sent as it is: no cast, a call per row of the
    # hottest list
    stage: Any
    source: str | None
    tags: Any  # list[str] on PostgreSQL, its JSON text on SQLite: a database's own form
    notes: str | None
    owner_id: str | None
    custom_fields: Any  # as tags: decoded on PostgreSQL, JSON text on SQLite, or null
    pii_masked: Any  # read as null, set by the render
    ai_auto_response_paused: Any  # read as null, set by the render
    ai_auto_response_paused_at: str | None  # the ai_paused_at column
    ai_auto_response_paused_reason: Any  # ai_paused_reason: as stage, or null
    anonymized_at: str | None
    created_at: str
    updated_at: str


class TimelineRecord(TypedDict):
    id: str
    contact_id: str
    type: str
    title: str
    body: str | None
    data: JsonObject  # what the entry's writer kept (a lead's id, a stage change)
    actor: str | None
    occurred_at: datetime


class ContactChanges(TypedDict, total=False):
    """Columns a write changes (service.requested, differing, update_effects)."""

    first_name: str | None
    last_name: str | None
    email: str | None
    email_lower: str | None
    phone: str | None
    phone_e164: str | None
    stage: str
    source: str | None
    tags: list[str]
    notes: str | None
    owner_id: str | None
    ai_paused_at: datetime | None
    ai_paused_reason: str | None
    custom_fields: JsonObject | None
    anonymized_at: datetime | None
    updated_at: datetime
