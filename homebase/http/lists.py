"""Running a keyset list statement and shaping the page, the same for every list."""

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.requests import Request

from homebase.db import changes, settle
from homebase.db.pages import Built, Step, first_answer
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
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
    built = build(decode_cursor(keys, key, page.cursor), page.limit)
    with off_loop(filtered(filters)):
        rows = await first_answer(
            session, built if isinstance(built, list) else [built], page.limit
        )
    if prepare is not None:
        await prepare(rows)
    return json_response(page_body(rows, page.limit, render, keys, key))


UPDATED_AFTER = "updated_after"


async def changes_response(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    filters: dict[str, Any],
    updated_after: datetime,
    build: Callable[[bool], Built],
    render: Callable[[dict[str, Any]], dict[str, Any]],
    prepare: Prepare | None = None,
) -> JSONResponse:
    """A list asked for what changed (`updated_after`), the one way every synced list
    answers it (docs/sync.md): its records updated after `updated_after`, ascending by
    (updated_at, id), only those stamped at or before the settle horizon
    (db/settle.py), on from the cursor's position. `build(resuming)` gives the list's
    walk (db/changes.statement over its scope, columns and filters), or a kept one and
    its own bindparams' values; `filters` (updated_after among them) names the walk, as
    for list_response."""
    runtime = get_runtime(request)
    keys = runtime.settings.keys
    key = list_key(session.workspace_id, request.url.path, filters)
    horizon = settle.horizon(runtime.clock(), runtime.settings.sync_settle_seconds)
    dialect = session.dialect
    position = decode_position(keys, key, page.cursor)
    values = None
    if position is not None:  # None: a stamp this database could not have stored
        values = changes.resume_params(dialect, position, horizon, page.limit)
    if values is None:
        values = changes.first_params(updated_after, horizon, page.limit)
    built = build(changes.AT in values)
    statement, own = built if isinstance(built, tuple) else (built, {})
    others = {name: value for name, value in filters.items() if name != UPDATED_AFTER}
    with off_loop(filtered(others)):
        rows = await session.fetch_all(statement, {**own, **values})
    if prepare is not None:
        await prepare(rows)
    return json_response(
        position_page_body(rows, page.limit, render, keys, key, changes.stamp_of(dialect))
    )
