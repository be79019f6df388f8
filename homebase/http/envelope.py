"""The one JSON shape of every error."""

from typing import Any

import orjson

from homebase.kit.errors import ApiError


def error_body(
    code: str, message: str, request_id: str, details: dict[str, Any] | None = None
) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message, "request_id": request_id}
    if details is not None:
        error["details"] = details
    return orjson.dumps({"error": error})


def api_error_body(error: ApiError, request_id: str) -> bytes:
    return error_body(error.code, error.message, request_id, error.details)
