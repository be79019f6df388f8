import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict

from homebase.kit.schema_rules import Moment
from homebase.outbox.catalogue import EVENT_TYPES

NO_NUL = r"^[^\x00]*$"
# Bounds of the `type` parameter: the catalogue has 16 names of at most 24 characters, so
# one value holding all of them comma-separated fits, and so do a few repeats.
MAX_TYPE_VALUES = 20
MAX_TYPE_LENGTH = 600

# One `type` value: catalogue names separated by commas (spaces around them allowed). The
# document states it (a pattern), so a value it allows names only real types; the service
# checks the same expression (events/service.py) and answers 400 naming `type`.
_NAME = "(?:" + "|".join(re.escape(name) for name in EVENT_TYPES) + ")"
TYPE_PATTERN = f"^ *{_NAME} *(?:, *{_NAME} *)*$"


def _type_items(schema: dict[str, Any]) -> None:
    for option in schema.get("anyOf", []):
        if option.get("type") == "array":
            option["items"]["pattern"] = TYPE_PATTERN


_DATA_EXAMPLE: JsonDict = {
    "event_id": "evt_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "occurred_at": "2026-11-20T17:04:05.123Z",
    "id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "previous_stage": "LEAD",
    "stage": "HOT_LEAD",
}
_EVENT_EXAMPLE: JsonDict = {
    "event": "contact.stage_changed",
    "tenantId": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "occurredAt": "2026-11-20T17:04:05.123Z",
    "data": _DATA_EXAMPLE,
}


class EventEnvelopeData(BaseModel):
    """`event_id` and `occurred_at`, then the members of the event's type: each type's
    are documented in this document's `webhooks` section (one operation per event)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [_DATA_EXAMPLE]})

    event_id: str = Field(
        description="The event's id: the same as in its webhook deliveries; pass it as "
        "`after` to resume a walk after this event."
    )
    occurred_at: datetime


class EventEnvelope(BaseModel):
    """A stored event, exactly as its webhook delivery carries it. Phone numbers and email
    addresses in `data` are masked unless the credential holds contacts:read:pii."""

    model_config = ConfigDict(json_schema_extra={"examples": [_EVENT_EXAMPLE]})

    event: str = Field(
        description="The event's type: a catalogue event name.",
        json_schema_extra={"enum": list(EVENT_TYPES)},
    )
    tenantId: str = Field(description="The workspace.")
    occurredAt: datetime
    data: EventEnvelopeData


TypeValue = Annotated[str, StringConstraints(max_length=MAX_TYPE_LENGTH, pattern=NO_NUL)]


class EventFilters(BaseModel):
    type: list[TypeValue] | None = Field(
        None,
        max_length=MAX_TYPE_VALUES,
        description="Only events of these types: repeat the parameter "
        "(`type=a&type=b`), separate names with commas (`type=a,b`), or both. Each must "
        "be a catalogue event name (400 naming `type` otherwise); naming a type this "
        "credential may not read answers 403 insufficient_scope with the missing scope.",
        examples=[["contact.created", "contact.updated"]],
        json_schema_extra=_type_items,
    )
    occurred_after: Moment | None = Field(
        None,
        description="Only events that occurred strictly after this moment (ISO 8601 with "
        "an offset). A time filter: to resume a walk use `after`.",
        examples=["2026-11-20T17:00:00Z"],
    )
    after: Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=NO_NUL)] | None = (
        Field(
            None,
            description="An event id (data.event_id): only events after that event in the "
            "order (occurred_at, id). How a client that finished a walk resumes with no gap "
            "and no duplicate. An id that is not one of this workspace's stored events "
            "within the retention period answers 400 naming `after`.",
            examples=["evt_01jd3v6k8h2k3m4n5p6q7r8s9t"],
        )
    )
