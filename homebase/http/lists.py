"""Running a keyset list statement and shaping the page, the same for every list."""

from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from homebase.db.pages import Built, Step
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import StoredRows, TenantSession
from homebase.kit.pagination import (
    PageRequest,
    decode_cursor,
    encode_cursor,
    list_key,
    page_body,
)
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime


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
    build: Callable[[str | None, int], Built],
    render: Callable[[dict[str, Any]], dict[str, Any]],
) -> JSONResponse:
    """`build(after_id, limit)` returns the keyset statement for this list, or a kept
    statement and the values of its bindparams (kit.pagination.keyset_template)."""
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, filters)
    after_id = decode_cursor(keys, key, page.cursor)
    built = build(after_id, page.limit)
    statement, params = built if isinstance(built, tuple) else (built, None)
    with off_loop(filtered(filters)):
        rows = await session.fetch_all(statement, params)
    return json_response(page_body(rows, page.limit, render, keys, key))


async def stored_list_response(
    request: Request,
    session: TenantSession,
    page: PageRequest,
    filters: dict[str, Any],
    build: Callable[[str | None, int], Built | list[Step]],
    render: Callable[[StoredRows], list[dict[str, Any]]],
) -> JSONResponse:
    """list_response for a renderer of whole pages of stored rows
    (TenantSession.fetch_stored): the same cursor, limit and page rules."""
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, filters)
    built = build(decode_cursor(keys, key, page.cursor), page.limit)
    # A list of steps: each answers the page exactly when it answers at all, so a later
    # one runs only when an earlier could not (contacts/search.py). A statement could not
    # when it found less than a full page; a callable runs its own statements and says
    # so by returning None. A filtered list runs off SQLite's event loop (off_loop).
    with off_loop(filtered(filters)):
        for attempt in built if isinstance(built, list) else [built]:
            if callable(attempt):
                answer = await attempt()
                if answer is None:
                    continue
                stored = answer
                break
            statement, params = attempt if isinstance(attempt, tuple) else (attempt, None)
            stored = await session.fetch_stored(statement, params)
            if len(stored.rows) > page.limit:
                break
    has_more = len(stored.rows) > page.limit
    rows = stored.rows[: page.limit]
    last_id = rows[-1][stored.keys.index("id")] if has_more else None
    return json_response(
        {
            "data": render(stored._replace(rows=rows)),
            "next_cursor": encode_cursor(keys, key, last_id) if last_id is not None else None,
            "has_more": has_more,
        }
    )
