"""Rows to wire payloads. Masking is decided here, once, from the credential's scopes."""

from collections.abc import Callable
from typing import Any, cast

import orjson

from homebase.contacts.records import ContactPageRow, ContactRecord, TimelineRecord
from homebase.contacts.schemas import Contact, ContactAiPauseReason, ContactStage, Event
from homebase.custom_fields.definitions import Definitions, PageDefinitions
from homebase.db.types import stored_json_to_wire, stored_time_to_wire
from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_phone
from homebase.kit.wire import JsonObject


def contact(row: ContactRecord, *, pii: bool, custom: Definitions) -> Contact:
    """`custom`: the workspace's live custom fields of contacts (custom_fields.service
    load_definitions), which say what of the stored values shows, and by which key."""
    paused_at = row["ai_paused_at"]
    return {
        "id": row["id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "email": row["email"] if pii else mask_email(row["email"]),
        "phone": row["phone"] if pii else mask_phone(row["phone"]),
        "phone_e164": row["phone_e164"] if pii else mask_phone(row["phone_e164"]),
        # stored as the enums' values, which are what the wire sends
        "stage": cast(ContactStage, row["stage"]),
        "source": row["source"],
        "tags": row["tags"],
        "notes": row["notes"],
        "owner_id": row["owner_id"],
        "custom_fields": custom.render(row.get("custom_fields"), pii=pii),
        "pii_masked": not pii,
        "ai_auto_response_paused": paused_at is not None,
        "ai_auto_response_paused_at": isoformat(paused_at),
        "ai_auto_response_paused_reason": cast(ContactAiPauseReason, row["ai_paused_reason"]),
        "anonymized_at": isoformat(row["anonymized_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


# What a list page reads (contacts/repository.py selects exactly these): ContactPageRow's
# members, written once there.
PAGE_COLUMNS = tuple(ContactPageRow.__annotations__)


def list_item(
    *, pii: bool, stored: bool, custom: Definitions | PageDefinitions
) -> Callable[[ContactPageRow], Contact]:
    """What `contact` renders, for a list page's row (repository.page_columns), made in
    the row itself: the row holds a Contact's members already (by its names, in its
    order), so only what differs is set: masking, the custom values, the members the
    credential decides, and on SQLite (`stored`) the stored values in the wire's form
    (timestamps sliced, JSON embedded as it is stored). Parsing every stored value into a
    Python object only to format it back, or building a second dict a row, is work a page
    need not do (docs/performance.md, "Row reading and writing");
    tests/contacts/test_contact_render.py holds the two ways to the same output."""
    masked = not pii
    # Custom values are rendered through the live fields (never embedded as stored: they
    # are keyed by field id), parsed on SQLite only when the workspace has a field.
    parse = orjson.loads if stored else _same

    def values(stored_values: Any) -> JsonObject:  # ContactPageRow's custom_fields
        # A page's definitions are read once its rows are (PageDefinitions).
        live = custom.current if isinstance(custom, PageDefinitions) else custom
        if not live.fields or stored_values is None:
            return {}
        return live.render(parse(stored_values), pii=pii)

    def render(row: ContactPageRow) -> Contact:
        if masked:
            row["email"] = mask_email(row["email"])
            row["phone"] = mask_phone(row["phone"])
            row["phone_e164"] = mask_phone(row["phone_e164"])
        if stored:
            row["tags"] = stored_json_to_wire(row["tags"])
            row["anonymized_at"] = stored_time_to_wire(row["anonymized_at"])
            # (never null: a text in is a text out)
            row["created_at"] = cast(str, stored_time_to_wire(row["created_at"]))
            row["updated_at"] = cast(str, stored_time_to_wire(row["updated_at"]))
            paused = row["ai_auto_response_paused_at"] = stored_time_to_wire(
                row["ai_auto_response_paused_at"]
            )
        else:
            paused = row["ai_auto_response_paused_at"]
        row["custom_fields"] = values(row["custom_fields"])
        row["pii_masked"] = masked
        row["ai_auto_response_paused"] = paused is not None
        # the row is now the Contact: every member of it, each in its wire form
        return cast(Contact, row)

    return render


def _same(value: Any) -> Any:  # a value as the database handed it (ContactPageRow)
    return value


def event(row: TimelineRecord) -> Event:
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "type": row["type"],
        "title": row["title"],
        "body": row["body"],
        "data": row["data"],
        "actor": row["actor"],
        "occurred_at": isoformat(row["occurred_at"]),
    }
