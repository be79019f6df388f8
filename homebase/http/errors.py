"""Exception handlers: ours, FastAPI's validation errors and Starlette's HTTP errors all
leave as the one envelope. Validation is 400 with each failing field, never 422 (the items
are kit/validation.py's)."""

import logging

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.routing import iter_route_contexts
from sqlalchemy import exc as sqlalchemy_exc
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from homebase.db import unavailable
from homebase.http.envelope import api_error_body, error_body
from homebase.kit.errors import ApiError, InvalidJson, MethodNotAllowed, NotFound
from homebase.kit.validation import validation_failed

log = logging.getLogger("homebase.http")


def _request_id(request: Request) -> str:
    request_id: str = request.scope.get("state", {}).get("request_id", "")
    return request_id


def _json(status: int, body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def render(request: Request, error: ApiError) -> Response:
    return _json(error.status, api_error_body(error, _request_id(request)), error.headers)


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
