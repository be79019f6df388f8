"""Exception handlers: ours, FastAPI's validation errors and Starlette's HTTP errors all
leave as the one envelope. Validation is 400 with each failing field, never 422."""

import logging
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from homebase.http.envelope import api_error_body, error_body
from homebase.kit.errors import (
    ApiError,
    InvalidJson,
    MethodNotAllowed,
    NotFound,
    ValidationFailed,
)

log = logging.getLogger("homebase.http")

_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not a known field",
    "string_too_long": None,  # pydantic's own text names the limit
}


def _request_id(request: Request) -> str:
    return request.scope.get("state", {}).get("request_id", "")


def _json(status: int, body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def render(request: Request, error: ApiError) -> Response:
    return _json(error.status, api_error_body(error, _request_id(request)), error.headers)


def field_errors(errors: list[dict[str, Any]]) -> list[dict[str, str]]:
    result = []
    for error in errors:
        location, *path = error.get("loc") or ("body",)
        field = ".".join(str(part) for part in path) or str(location)
        message = _MESSAGES.get(error["type"]) or str(error.get("msg", "is invalid"))
        message = message.removeprefix("Value error, ")
        result.append({"field": field, "in": str(location), "message": message,
                       "type": error["type"]})
    return result


def validation_failed(errors: list[dict[str, Any]]) -> ApiError:
    if any(error["type"] == "json_invalid" for error in errors):
        return InvalidJson()
    fields = field_errors(errors)
    summary = "; ".join(f"{item['field']}: {item['message']}" for item in fields[:5])
    return ValidationFailed(f"Invalid request: {summary}", details={"errors": fields})


async def _api_error(request: Request, error: ApiError) -> Response:
    return render(request, error)


async def _request_validation(request: Request, error: RequestValidationError) -> Response:
    return render(request, validation_failed(list(error.errors())))


async def _http_exception(request: Request, error: HTTPException) -> Response:
    if error.status_code == 400:
        # FastAPI's only HTTPException: a body it could not decode for another reason than
        # a JSON syntax error (bytes that are not UTF-8, nesting too deep for the parser).
        api_error: ApiError = InvalidJson()
    elif error.status_code == 404:
        api_error = NotFound(f"No route matches {request.method} {request.url.path}.")
    elif error.status_code == 405:
        api_error = MethodNotAllowed(f"{request.method} is not allowed on {request.url.path}.",
                                     headers=dict(error.headers or {}))
    else:
        body = error_body("http_error", str(error.detail), _request_id(request))
        return _json(error.status_code, body, dict(error.headers or {}))
    return render(request, api_error)


def install(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _request_validation)
    app.add_exception_handler(HTTPException, _http_exception)
