"""Shared pieces of the OpenAPI document: the error envelope and per-route error lists."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ErrorDetail(BaseModel):
    code: str = Field(examples=["validation_failed"])
    message: str = Field(examples=["Invalid request: email: String should match pattern ..."])
    request_id: str = Field(examples=["req_01jd3v6k8h2k3m4n5p6q7r8s9t"])
    details: dict[str, Any] | None = Field(
        None, description="Present for some errors: `errors` (a list of {field, in, message, "
                          "type}) for validation_failed, `missing_scope` for "
                          "insufficient_scope.")


class ErrorEnvelope(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"error": {
        "code": "validation_failed", "message": "Invalid request: limit: Input should be less "
                                                "than or equal to 200",
        "request_id": "req_01jd3v6k8h2k3m4n5p6q7r8s9t",
        "details": {"errors": [{"field": "limit", "in": "query", "type": "less_than_equal",
                                "message": "Input should be less than or equal to 200"}]}}}]})

    error: ErrorDetail


_DESCRIPTIONS = {
    400: "Validation failed (each failing field is listed in details.errors), malformed JSON "
         "(invalid_json) or a body that is not JSON (unsupported_content_type).",
    401: "Credential missing, malformed, expired or revoked (unauthenticated).",
    403: "The credential lacks the scope this endpoint needs; details.missing_scope names it "
         "(insufficient_scope).",
    404: "No such object in this workspace; another workspace's id answers the same "
         "(not_found).",
    409: "Conflicts with the current state (conflict).",
    422: "A send was refused by a compliance gate (compliance_blocked).",
    429: "Rate limit exceeded (rate_limited); Retry-After gives the seconds to wait.",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorEnvelope, "description": _DESCRIPTIONS[status]}
            for status in statuses}


READ_ERRORS = (400, 401, 403, 429)
ONE_ERRORS = (400, 401, 403, 404, 429)
