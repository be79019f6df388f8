"""The one pagination path: a list endpoint hands `paginate` its repository's Listing
(paging/listing.py), its filters and its render function, and gets the page to send.

Running a keyset list statement and shaping the page is the same for every list; a
synced list (docs/sync.md) answers from its walk of changes instead when asked."""

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar, cast

from pydantic import BaseModel
from starlette.requests import Request

from homebase.db import settle
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
from homebase.kit.fields import Projection, whole
from homebase.kit.pagination import (
    PageBody,
    PageRequest,
    decode_cursor,
    decode_position,
    list_key,
    page_body,
    position_page_body,
)
from homebase.kit.responses import Sent
from homebase.paging import changes
from homebase.paging.listing import Listing
from homebase.paging.pages import first_answer
from homebase.runtime import get_runtime

Row = TypeVar("Row", bound=Mapping[str, Any])  # the list's record (paging/listing.py)
W = TypeVar("W", bound=Mapping[str, Any])  # its wire type (kit/wire.py)

UPDATED_AFTER = "updated_after"


def filtered(filters: Mapping[str, Any]) -> bool:
    """Whether a list has a filter or a search: then its statement may read much of the
    workspace to fill a page (a tag or a `q` that matches little), and on SQLite it runs
    off the event loop (db/sqlite.py, off_loop). An unfiltered page walks ids by index
    and stays inline."""
    return any(value not in (None, "", [], {}) for value in filters.values())


async def paginate(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    listing: Listing[Row],
    *,
    filters: BaseModel | Mapping[str, Any] | None,
    render: Callable[[Row], W],
    fields: Projection = whole,
    updated_after: datetime | None = None,
    prepare: Callable[[list[Row]], Awaitable[None]] | None = None,
) -> Sent[PageBody[W]]:
    """A page of `listing`, each row rendered to the list's wire type and narrowed by
    `fields` (the whole page is what mypy checks: PageBody[W]).

    `filters` (the list's filters model, or its values as a cursor keys them) key the
    cursor, so a cursor of one list and its filters never opens on another.
    `prepare(rows)` reads what the page's rows need before they render (a page's custom
    fields).

    A synced list (`listing.walk`): its walk of changes when asked with `updated_after`,
    or when the cursor is a cursor of its walk (the same list and filters;
    `updated_after` is only where a walk starts, and the cursor holds a position past
    it, so a client following next_cursor need not repeat it, and the cursor wins over a
    different one); else the plain list. The walk: its records updated after
    `updated_after`, ascending by (updated_at, id), only those stamped at or before the
    settle horizon (db/settle.py), on from the cursor's position (db/changes.page)."""
    if isinstance(filters, BaseModel):
        dumped = filters.model_dump(mode="json")
    else:
        dumped = dict(filters) if filters is not None else {}
    if fields is whole:
        item: Callable[[Row], Any] = render
    else:

        def item(row: Row) -> Any:
            return fields(render(row))

    response = await _page(request, session, page, listing, dumped, updated_after, item, prepare)
    # The page of W, narrowed by `fields` once typed (kit/responses.respond).
    return cast("Sent[PageBody[W]]", response)


async def _page(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    listing: Listing[Row],
    filters: dict[str, Any],
    updated_after: datetime | None,
    item: Callable[[Row], Any],
    prepare: Callable[[list[Row]], Awaitable[None]] | None,
) -> Sent[PageBody[Any]]:
    runtime = get_runtime(request)
    keys = runtime.settings.keys
    others = {name: value for name, value in filters.items() if name != UPDATED_AFTER}
    # The plain list's key too (list_key leaves out a null updated_after); the two kinds of
    # cursor are signed under different purposes, so neither opens as the other.
    key = list_key(session.workspace_id, request.url.path, others)
    after = decode_position(keys, key, page.cursor) if listing.walk is not None else None
    if listing.walk is None or (updated_after is None and after is None):
        built = listing.page(decode_cursor(keys, key, page.cursor), page.limit)
        with off_loop(filtered(others)):
            found = await first_answer(
                session, built if isinstance(built, list) else [built], page.limit
            )
        rows = cast("list[Row]", found)  # the listing's record, by its repository's word
        if prepare is not None:
            await prepare(rows)
        return Sent(page_body(rows, page.limit, item, keys, key))
    horizon = settle.horizon(runtime.clock(), runtime.settings.sync_settle_seconds)
    with off_loop(filtered(others)):
        found = await changes.page(
            session,
            listing.walk,
            updated_after=updated_after,
            after=after,
            horizon=horizon,
            limit=page.limit,
        )
    rows = cast("list[Row]", found)
    if prepare is not None:
        await prepare(rows)
    stamp = changes.stamp_of(session.dialect)  # the cursor is taken before rows render
    return Sent(
        position_page_body(
            rows, page.limit, lambda row: item(changes.without_stamp(row)), keys, key, stamp
        )
    )
