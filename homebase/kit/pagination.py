"""The spec's list rules, implemented once for every list endpoint.

Keyset pagination over the id, which is time-ordered and immutable: newest first,
`WHERE id < :last ORDER BY id DESC LIMIT :limit + 1`, never OFFSET, so a deep page
costs what the first one does and rows created during a walk can't shift it. The
cursor is opaque: the last id plus the list it belongs to (workspace, path and
filters), signed. A malformed, altered or foreign cursor restarts the walk.

A list asked for what changed (`updated_after`, docs/sync.md) walks the other way:
ascending by (updated_at, id), so its cursor holds that position, the last row's
updated_at exactly as the database stores it (not the wire's milliseconds: rows stamped
in the same millisecond would be skipped or repeated) and its id. The statement is
paging/changes.py's, the page http/lists.py's `paginate`.
"""

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import ColumnElement, Integer, bindparam
from typing_extensions import TypedDict

from homebase.kit import wire
from homebase.kit.crypto import b64url_decode, open_signed_blob, signed_blob
from homebase.kit.keys import Keyring
from homebase.kit.schema_rules import Moment
from homebase.kit.statements import AnySelect

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_CURSOR_LENGTH = 512
_PURPOSE = "cursor"
CURSOR_DESCRIPTION = (
    "Opaque position from a previous page's next_cursor; omit for the first "
    "page. A malformed or stale cursor restarts from the beginning."
)
CURSOR_EXAMPLE = "T0pBUVVFX0NVUlNPUl9FWEFNUExF"

Item = TypeVar("Item")


def _page_examples(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """Every page documents an example, built from its item's own."""
    args = model.__pydantic_generic_metadata__["args"]
    item = args[0] if args else None
    items = []
    if isinstance(item, type) and (issubclass(item, BaseModel) or wire.is_wire_type(item)):
        items = wire.json_schema(item).get("examples", [])[:1]
    schema["examples"] = [{"data": items, "next_cursor": CURSOR_EXAMPLE, "has_more": True}]


class Page(BaseModel, Generic[Item]):
    model_config = ConfigDict(json_schema_extra=_page_examples)

    data: list[Item]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    has_more: bool


@dataclass(frozen=True)
class PageRequest:
    cursor: str | None
    limit: int


async def page_request(  # async: FastAPI would run a plain def in its thread pool
    cursor: Annotated[
        str | None, Query(description=CURSOR_DESCRIPTION, examples=[CURSOR_EXAMPLE])
    ] = None,
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIMIT, description="Page size, 1 to 200.", examples=[50])
    ] = DEFAULT_LIMIT,
) -> PageRequest:
    return PageRequest(cursor=cursor, limit=limit)


def _fingerprint(list_key: str) -> bytes:
    return hashlib.sha256(list_key.encode()).digest()[:8]


def encode_cursor(keys: Keyring, list_key: str, last_id: str) -> str:
    return signed_blob(keys, _PURPOSE, _fingerprint(list_key) + last_id.encode())


def decode_cursor(keys: Keyring, list_key: str, cursor: str | None) -> str | None:
    """The id to continue after, or None to start from the beginning."""
    # Too long is malformed too: it restarts rather than failing, and costs no decoding.
    if not cursor or len(cursor) > MAX_CURSOR_LENGTH:
        return None
    payload = open_signed_blob(keys, _PURPOSE, cursor)
    if payload is None:
        return None
    fingerprint, last_id = payload[:8], payload[8:].decode(errors="replace")
    return last_id if fingerprint == _fingerprint(list_key) and last_id else None


def list_key(workspace_id: str, path: str, filters: dict[str, Any]) -> str:
    """Identifies one walk, so a cursor can't be replayed against another list."""
    parts = [workspace_id, path] + [f"{k}={v}" for k, v in sorted(filters.items()) if v is not None]
    return "\x1f".join(parts)


def keyset(
    statement: AnySelect, id_column: ColumnElement[Any], after_id: str | None, limit: int
) -> AnySelect:
    if after_id is not None:
        statement = statement.where(id_column < after_id)
    return statement.order_by(id_column.desc()).limit(limit + 1)


AFTER_ID, LIMIT = "keyset_after_id", "keyset_limit"


def keyset_template(
    statement: AnySelect, id_column: ColumnElement[Any], *, after: bool
) -> AnySelect:
    """keyset() with bindparams instead of values, to build once per list shape and run
    with keyset_params(): building and cache-keying a statement per request cost more
    than running it."""
    if after:
        statement = statement.where(id_column < bindparam(AFTER_ID, type_=id_column.type))
    return statement.order_by(id_column.desc()).limit(bindparam(LIMIT, type_=Integer()))


def keyset_params(after_id: str | None, limit: int) -> dict[str, Any]:
    params: dict[str, Any] = {LIMIT: limit + 1}
    if after_id is not None:
        params[AFTER_ID] = after_id
    return params


class PageBody(TypedDict, Generic[Item]):
    """A page as sent (Page documents it): `data` holds the list's wire type, each item
    narrowed by `fields` once typed (kit/responses.respond)."""

    data: list[Item]
    next_cursor: str | None
    has_more: bool


Row = TypeVar("Row", bound=Mapping[str, Any])  # a list's record (paging/listing.py)


def page_body(
    rows: Sequence[Row],
    limit: int,
    render: Callable[[Row], Item],
    keys: Keyring,
    key: str,
) -> PageBody[Item]:
    has_more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = encode_cursor(keys, key, rows[-1]["id"]) if has_more else None
    return {"data": [render(row) for row in rows], "next_cursor": next_cursor, "has_more": has_more}


# Sync walks (`updated_after`): the position is (updated_at as stored, id).
_POSITION_PURPOSE = "sync_cursor"  # a plain list's cursor never opens as one, nor back
_SEPARATOR = b"\x1f"
_MAC_BYTES = 12  # signed_blob's default, which both kinds of cursor use


def encode_position(keys: Keyring, list_key: str, stamp: str, last_id: str) -> str:
    payload = _fingerprint(list_key) + stamp.encode() + _SEPARATOR + last_id.encode()
    return signed_blob(keys, _POSITION_PURPOSE, payload)


def decode_position(keys: Keyring, list_key: str, cursor: str | None) -> tuple[str, str] | None:
    """The (stamp, id) to continue after, or None to start from `updated_after`."""
    if not cursor or len(cursor) > MAX_CURSOR_LENGTH:
        return None
    # A synced list asks this of every cursor, a plain page's too (the contact list's):
    # a plain cursor's payload (past its fingerprint, before its MAC) holds no separator,
    # since an id never does, and is told so without computing the MAC
    # (docs/performance.md, "HTTP").
    try:
        if _SEPARATOR not in b64url_decode(cursor)[8:-_MAC_BYTES]:
            return None
    except (ValueError, TypeError):
        return None
    payload = open_signed_blob(keys, _POSITION_PURPOSE, cursor)
    if payload is None or payload[:8] != _fingerprint(list_key):
        return None
    stamp, separator, last_id = payload[8:].partition(_SEPARATOR)
    if not separator or not stamp or not last_id:
        return None
    return stamp.decode(errors="replace"), last_id.decode(errors="replace")


def position_page_body(
    rows: Sequence[Row],
    limit: int,
    render: Callable[[Row], Item],
    keys: Keyring,
    key: str,
    stamp: Callable[[Row], str],
) -> PageBody[Item]:
    """page_body for a sync walk: the next cursor holds the last row's (stamp, id)."""
    has_more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = None
    if has_more:
        last = rows[-1]
        next_cursor = encode_position(keys, key, stamp(last), last["id"])
    return {"data": [render(row) for row in rows], "next_cursor": next_cursor, "has_more": has_more}


UPDATED_AFTER_EXAMPLE = "2026-11-20T17:04:05.123Z"
UPDATED_AFTER_DESCRIPTION = (
    "Only records changed after this time (updated_at strictly greater), oldest change "
    "first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A "
    "change is listed once it is a few seconds old (the settle delay, 5 s by default), "
    "and then never behind a position a walk has passed. To resume, pass the last record's "
    "updated_at: records stamped in that same millisecond may come again, so upsert by "
    "id (docs/sync.md). Other filters still apply; fields and masking are as usual. The "
    "next pages need only the cursor: it holds the walk's position and wins over "
    "updated_after."
)
# Said in each synced list's description.
CHANGES_NOTE = (
    " With `updated_after`: the records changed after that time instead, oldest change "
    "first, by (updated_at, id), to keep a copy in step (docs/sync.md)."
)
# The one time parser (kit/schema_rules.Moment), under the name the six lists' filters use.
UpdatedAfter = Moment


def updated_after_field() -> Any:  # pydantic types Field() as its default's type
    """The `updated_after` member's default and documentation, in a list's filters model
    (one definition for the six lists that take it)."""
    return Field(None, description=UPDATED_AFTER_DESCRIPTION, examples=[UPDATED_AFTER_EXAMPLE])
