"""The one JSON shape of every error, with what to do next in `details.remedy`: the
code's line of kit/remedies.py, or for a compliance refusal its gate reason's line of
compliance/remedies.py."""

from typing import Any

import orjson

from homebase.compliance.remedies import REASON_REMEDIES
from homebase.kit.errors import ApiError
from homebase.kit.remedies import ERROR_REMEDIES


def remedy(code: str, details: dict[str, Any] | None) -> str | None:
    """None only for a code neither table has (tests/test_remedies.py keeps that so)."""
    if code == "compliance_blocked" and details is not None:
        by_reason = REASON_REMEDIES.get(str(details.get("reason")))
        if by_reason is not None:
            return by_reason
    return ERROR_REMEDIES.get(code)


def error_body(
    code: str, message: str, request_id: str, details: dict[str, Any] | None = None
) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message, "request_id": request_id}
    fix = remedy(code, details)
    if fix is not None and not (details and "remedy" in details):
        details = {**(details or {}), "remedy": fix}
    if details is not None:
        error["details"] = details
    return orjson.dumps({"error": error})


def api_error_body(error: ApiError, request_id: str) -> bytes:
    return error_body(error.code, error.message, request_id, error.details)
