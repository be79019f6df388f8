"""Running a keyset list statement and shaping the page, the same for every list."""

from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from homebase.db.pages import Built, Step, first_answer
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
from homebase.kit.pagination import PageRequest, decode_cursor, list_key, page_body
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
    build: Callable[[str | None, int], Built | list[Step]],
    render: Callable[[dict[str, Any]], dict[str, Any]],
) -> JSONResponse:
    """`build(after_id, limit)` returns the keyset statement for this list, or a kept
    statement and the values of its bindparams (kit.pagination.keyset_template), or
    steps tried in turn (below)."""
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, filters)
    built = build(decode_cursor(keys, key, page.cursor), page.limit)
    with off_loop(filtered(filters)):
        rows = await first_answer(
            session, built if isinstance(built, list) else [built], page.limit
        )
    return json_response(page_body(rows, page.limit, render, keys, key))
