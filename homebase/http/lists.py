"""Running a keyset list statement and shaping the page, the same for every list."""

from collections.abc import Callable
from typing import Any

from sqlalchemy.sql import Select
from starlette.requests import Request

from homebase.db.tenancy import TenantSession
from homebase.kit.pagination import PageRequest, decode_cursor, list_key, page_body
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime


async def list_response(request: Request, session: TenantSession, page: PageRequest,
                        filters: dict[str, Any], build: Callable[[str | None, int], Select],
                        render: Callable[[dict[str, Any]], dict[str, Any]]) -> JSONResponse:
    """`build(after_id, limit)` returns the keyset statement for this list, or a kept
    statement and the values of its bindparams (kit.pagination.keyset_template)."""
    secret = get_runtime(request).settings.secret_key
    key = list_key(session.workspace_id, request.url.path, filters)
    after_id = decode_cursor(secret, key, page.cursor)
    built = build(after_id, page.limit)
    statement, params = built if isinstance(built, tuple) else (built, None)
    rows = await session.fetch_all(statement, params)
    return json_response(page_body(rows, page.limit, render, secret, key))
