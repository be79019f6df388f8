"""Exception handlers: ours, FastAPI's validation errors and Starlette's HTTP errors all
leave as the one envelope. Validation is 400 with each failing field, never 422."""

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.routing import iter_route_contexts
from sqlalchemy import exc as sqlalchemy_exc
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from homebase.db import unavailable
from homebase.http.envelope import api_error_body, error_body
from homebase.kit.errors import (
    ApiError,
    InvalidJson,
    MethodNotAllowed,
    NotFound,
    ValidationFailed,
)

log = logging.getLogger("homebase.http")

REQUIRED = "is required"
_MESSAGES: dict[str, str | None] = {
    "missing": REQUIRED,
    "extra_forbidden": "is not a known field",
    "string_too_long": None,  # pydantic's own text names the limit
}


def _request_id(request: Request) -> str:
    request_id: str = request.scope.get("state", {}).get("request_id", "")
    return request_id


def _json(status: int, body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def render(request: Request, error: ApiError) -> Response:
    return _json(error.status, api_error_body(error, _request_id(request)), error.headers)


def _union_tag(error: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(member, type, message) for a discriminated union's tag error: the member that picks
    the variant is missing or names none, said as for any other member, not as the union."""
    member = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
    if not member:
        return None
    if error["type"] == "union_tag_not_found":
        return member, "missing", REQUIRED
    expected = [tag.strip() for tag in str(error["ctx"].get("expected_tags", "")).split(",")]
    listed = ", ".join(expected[:-1]) + f" or {expected[-1]}" if len(expected) > 1 else expected[0]
    return member, "enum", f"Input should be {listed}"


_UNKNOWN = object()  # the body was not given, or the path left what was sent


def _members(path: list[Any], sent: Any) -> list[Any]:
    """The path less the union branches pydantic puts in it (a variant's tag `EMAIL`, or a
    model's name): a segment before the last that is not a member or index of what the
    client sent names a branch, not a member, so `subject` rather than `EMAIL.subject`."""
    members: list[Any] = []
    for index, part in enumerate(path):
        last = index == len(path) - 1
        if isinstance(sent, dict) and part in sent:
            sent = sent[part]
        elif isinstance(sent, list) and isinstance(part, int) and 0 <= part < len(sent):
            sent = sent[part]
        elif isinstance(part, str) and not last and sent is not _UNKNOWN:
            continue
        else:
            sent = _UNKNOWN
        members.append(part)
    return members


def field_errors(errors: Sequence[Mapping[str, Any]], body: Any = _UNKNOWN) -> list[dict[str, str]]:
    """Pydantic's errors as the envelope's items. `body`, the decoded request body when
    known, lets union branches be dropped from body paths (see _members)."""
    result = []
    for error in errors:
        location, *path = error.get("loc") or ("body",)
        kind = error["type"]
        message = _MESSAGES.get(kind) or str(error.get("msg", "is invalid"))
        if location == "body":
            path = _members(path, body)
            tag = _union_tag(error) if kind.startswith("union_tag_") else None
            if tag is not None:
                member, kind, message = tag
                path = [*path, member]
        field = ".".join(str(part) for part in path) or str(location)
        message = message.removeprefix("Value error, ")
        result.append({"field": field, "in": str(location), "message": message, "type": kind})
    return result


def validation_failed(errors: Sequence[Mapping[str, Any]], body: Any = _UNKNOWN) -> ApiError:
    if any(error["type"] == "json_invalid" for error in errors):
        return InvalidJson()
    fields = field_errors(errors, body)
    summary = "; ".join(f"{item['field']}: {item['message']}" for item in fields[:5])
    return ValidationFailed(f"Invalid request: {summary}", details={"errors": fields})


def _allowed_methods(request: Request) -> str:
    """Every method of every route on this path. Starlette's Allow names only the first
    route that matched the path, and each method is its own route here (GET and POST
    /v1/contacts), so it would answer `Allow: GET` where the document says GET, POST."""
    path = request.scope.get("path", "")
    by_template: dict[str, set[str]] = {}
    for route in [*iter_route_contexts(list(request.app.routes)), *request.app.routes]:
        pattern, route_methods = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if pattern is not None and route_methods and pattern.match(path):
            by_template.setdefault(route.path, set()).update(route_methods)
    if not by_template:
        return ""
    # The most literal paths only, as OpenAPI matches them: /v1/leads/routing-preview is
    # its own path (POST), not /v1/leads/{id} (GET).
    fewest = min(template.count("{") for template in by_template)
    return ", ".join(
        sorted(
            {
                method
                for template, methods in by_template.items()
                if template.count("{") == fewest
                for method in methods
            }
        )
    )


async def _api_error(request: Request, error: ApiError) -> Response:
    return render(request, error)


async def _request_validation(request: Request, error: RequestValidationError) -> Response:
    return render(request, validation_failed(list(error.errors()), error.body))


async def _http_exception(request: Request, error: HTTPException) -> Response:
    if error.status_code == 400:
        # FastAPI's only HTTPException: a body it could not decode for another reason than
        # a JSON syntax error (bytes that are not UTF-8, nesting too deep for the parser).
        api_error: ApiError = InvalidJson()
    elif error.status_code == 404:
        api_error = NotFound(f"No route matches {request.method} {request.url.path}.")
    elif error.status_code == 405:
        api_error = MethodNotAllowed(
            f"{request.method} is not allowed on {request.url.path}.",
            headers={**(error.headers or {}), "Allow": _allowed_methods(request)},
        )
    else:
        body = error_body("http_error", str(error.detail), _request_id(request))
        return _json(error.status_code, body, dict(error.headers or {}))
    return render(request, api_error)


async def _database_error(request: Request, error: Exception) -> Response:
    """The database could not serve (db/unavailable.py): 503 with Retry-After, so a
    client retries and a load balancer can tell; any other database error stays a 500."""
    why = unavailable.reason(error)
    if why is None:
        raise error
    log.warning("database unavailable: %s (%s)", why, type(error).__name__)
    return render(request, unavailable.DatabaseUnavailable(why))


def install(app: FastAPI) -> None:
    app.add_exception_handler(sqlalchemy_exc.DBAPIError, _database_error)
    app.add_exception_handler(sqlalchemy_exc.TimeoutError, _database_error)
    # FastAPI's decorator: Starlette's add_exception_handler is typed for handlers that take
    # any Exception, these take their own class.
    app.exception_handler(ApiError)(_api_error)
    app.exception_handler(RequestValidationError)(_request_validation)
    app.exception_handler(HTTPException)(_http_exception)
