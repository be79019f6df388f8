"""Rows to wire payloads. Masking is decided here, once, from the credential's scopes."""

from collections.abc import Callable, Sequence
from typing import Any

from homebase.db.tenancy import StoredRows
from homebase.db.types import stored_json_to_wire, stored_time_to_wire
from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_phone


def contact(row: dict[str, Any], *, pii: bool) -> dict[str, Any]:
    paused_at = row["ai_paused_at"]
    return {
        "id": row["id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "email": row["email"] if pii else mask_email(row["email"]),
        "phone": row["phone"] if pii else mask_phone(row["phone"]),
        "stage": row["stage"],
        "source": row["source"],
        "tags": row["tags"],
        "notes": row["notes"],
        "owner_id": row["owner_id"],
        "pii_masked": not pii,
        "ai_auto_response_paused": paused_at is not None,
        "ai_auto_response_paused_at": isoformat(paused_at),
        "anonymized_at": isoformat(row["anonymized_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


# What a list page reads (contacts/repository.py selects exactly these).
PAGE_COLUMNS = (
    "id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "stage",
    "source",
    "tags",
    "notes",
    "owner_id",
    "ai_paused_at",
    "anonymized_at",
    "created_at",
    "updated_at",
)


# Its timestamps: PostgreSQL writes them as the wire's text (db/types.wire_time).
TIME_COLUMNS = frozenset({"ai_paused_at", "anonymized_at", "created_at", "updated_at"})


def _same(value: Any) -> Any:
    return value


def contacts(page: StoredRows, *, pii: bool) -> list[dict[str, Any]]:
    """A page of contacts, as `contact` renders each, from the rows' tuples: on
    PostgreSQL with the timestamps as the wire's text (repository.page_columns) and JSON
    values, so only masking calls anything; on SQLite as stored (timestamps and JSON as
    text, straight to the wire); through SQLAlchemy as processed (datetimes). Rows as
    dicts through `contact`, or one comprehension calling a converter per value, cost
    several times more a row, and on PostgreSQL even calls to an identity showed
    (docs/performance.md, "Row reading and writing"). tests/contacts/test_contact_render.py
    holds the ways to the same output."""
    if not page.rows:
        return []  # (an empty result may come without its keys)
    position = {key: index for index, key in enumerate(page.keys)}
    at = tuple(position[column] for column in PAGE_COLUMNS)
    if page.stored:
        return _converted(page.rows, at, pii, stored_time_to_wire, stored_json_to_wire)
    if not isinstance(page.rows[0][position["created_at"]], str):  # (never null)
        return _converted(page.rows, at, pii, isoformat, _same)
    (id_, first, last, email, phone, stage, source, tags, notes, owner) = at[:10]
    (paused, anonymized, created, updated) = at[10:]
    masked = not pii
    return [
        {
            "id": row[id_],
            "first_name": row[first],
            "last_name": row[last],
            "email": row[email] if pii else mask_email(row[email]),
            "phone": row[phone] if pii else mask_phone(row[phone]),
            "stage": row[stage],
            "source": row[source],
            "tags": row[tags],
            "notes": row[notes],
            "owner_id": row[owner],
            "pii_masked": masked,
            "ai_auto_response_paused": row[paused] is not None,
            "ai_auto_response_paused_at": row[paused],
            "anonymized_at": row[anonymized],
            "created_at": row[created],
            "updated_at": row[updated],
        }
        for row in page.rows
    ]


def _converted(
    rows: Sequence[Sequence[Any]],
    at: tuple[int, ...],
    pii: bool,
    time: Callable[[Any], str | None],
    json: Callable[[Any], Any],
) -> list[dict[str, Any]]:
    """contacts() for rows whose timestamps and JSON need converting: the same dict."""
    (id_, first, last, email, phone, stage, source, tags, notes, owner) = at[:10]
    (paused, anonymized, created, updated) = at[10:]
    show_email = _same if pii else mask_email
    show_phone = _same if pii else mask_phone
    masked = not pii
    return [
        {
            "id": row[id_],
            "first_name": row[first],
            "last_name": row[last],
            "email": show_email(row[email]),
            "phone": show_phone(row[phone]),
            "stage": row[stage],
            "source": row[source],
            "tags": json(row[tags]),
            "notes": row[notes],
            "owner_id": row[owner],
            "pii_masked": masked,
            "ai_auto_response_paused": row[paused] is not None,
            "ai_auto_response_paused_at": time(row[paused]),
            "anonymized_at": time(row[anonymized]),
            "created_at": time(row[created]),
            "updated_at": time(row[updated]),
        }
        for row in rows
    ]


def event(row: dict[str, Any]) -> dict[str, Any]:
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
