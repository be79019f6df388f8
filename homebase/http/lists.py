"""Running a keyset list statement and shaping the page, the same for every list."""

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.requests import Request

from homebase.db import changes, settle
from homebase.db.pages import Built, Step, first_answer
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
from homebase.kit.keys import Keyring
from homebase.kit.pagination import (
    PageRequest,
    decode_cursor,
    decode_position,
    list_key,
    page_body,
    position_page_body,
)
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime

# Reads what a page's rows need before they render (list_response's `prepare`).
Prepare = Callable[[list[dict[str, Any]]], Awaitable[None]]


def filtered(filters: dict[str, Any]) -> bool:
    """Whether a list has a filter or a search: then its statement may read much of the
    workspace to fill a page (a tag or a `q` that matches little), and on SQLite it runs
    off the event loop (db/sqlite.py, off_loop). An unfiltered page walks ids by index
    and stays inline."""
    return any(value not in (None, "", [], {}) for value in filters.values())


async def list_response(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    filters: dict[str, Any],
    build: Callable[[str | None, int], Built | list[Step]],
    render: Callable[[dict[str, Any]], dict[str, Any]],
    prepare: Prepare | None = None,
) -> JSONResponse:
    """`build(after_id, limit)` returns the keyset statement for this list, or a kept
    statement and the values of its bindparams (kit.pagination.keyset_template), or
    steps tried in turn (below). `prepare(rows)`, before rendering: reads what the
    page's rows need and the list did not read up front (a page's custom fields)."""
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, filters)
    return await _list_page(session, page, filters, keys, key, build, render, prepare)


async def _list_page(
    session: TenantSession,
    page: PageRequest,
    filters: dict[str, Any],
    keys: Keyring,
    key: str,
    build: Callable[[str | None, int], Built | list[Step]],
    render: Callable[[dict[str, Any]], dict[str, Any]],
    prepare: Prepare | None,
) -> JSONResponse:
    built = build(decode_cursor(keys, key, page.cursor), page.limit)
    with off_loop(filtered(filters)):
        rows = await first_answer(
            session, built if isinstance(built, list) else [built], page.limit
        )
    if prepare is not None:
        await prepare(rows)
    return json_response(page_body(rows, page.limit, render, keys, key))


UPDATED_AFTER = "updated_after"


async def synced_list_response(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    filters: dict[str, Any],
    updated_after: datetime | None,
    walk: Callable[[bool], Built],
    build: Callable[[str | None, int], Built | list[Step]],
    render: Callable[[dict[str, Any]], dict[str, Any]],
    prepare: Prepare | None = None,
) -> JSONResponse:
    """A synced list (docs/sync.md), the one way the six lists that take `updated_after`
    answer: its walk of changes when asked with `updated_after`, or when the cursor is a
    cursor of its walk (the same list and filters; `updated_after` is only where a walk
    starts, and the cursor holds a position past it, so a client following next_cursor
    need not repeat it, and the cursor wins over a different one); else the plain list
    (list_response, `build`).

    The walk: its records updated after `updated_after`, ascending by (updated_at, id),
    only those stamped at or before the settle horizon (db/settle.py), on from the
    cursor's position (db/changes.page). `walk(resuming)` gives the list's walk
    statement (db/changes.statement over its scope, columns and filters), or a kept one
    and its own bindparams' values."""
    runtime = get_runtime(request)
    keys = runtime.settings.keys
    others = {name: value for name, value in filters.items() if name != UPDATED_AFTER}
    # The plain list's key too (list_key leaves out a null updated_after); the two kinds of
    # cursor are signed under different purposes, so neither opens as the other.
    key = list_key(session.workspace_id, request.url.path, others)
    after = decode_position(keys, key, page.cursor)
    if updated_after is None and after is None:
        return await _list_page(session, page, others, keys, key, build, render, prepare)
    horizon = settle.horizon(runtime.clock(), runtime.settings.sync_settle_seconds)
    with off_loop(filtered(others)):
        rows = await changes.page(
            session,
            walk,
            updated_after=updated_after,
            after=after,
            horizon=horizon,
            limit=page.limit,
        )
    if prepare is not None:
        await prepare(rows)
    dialect = session.dialect
    return json_response(
        position_page_body(rows, page.limit, render, keys, key, changes.stamp_of(dialect))
    )
