"""One error base class; every error the service produces becomes one JSON envelope:
{"error": {"code", "message", "request_id", "details"}}, details holding the error's own
members and `remedy`, what to do next (kit/remedies.py, added by http/envelope.py)."""

from typing import Any


class ApiError(Exception):
    status = 500
    code = "internal_error"
    message = "An unexpected error occurred."
    # An error whose record must outlive the request (a refused send is stored as FAILED):
    # the /v1 route class commits the request's writes before answering with it.
    commits_writes = False

    def __init__(
        self,
        message: str | None = None,
        *,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ):
        self.message = message or self.message
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)


class ValidationFailed(ApiError):
    status = 400
    code = "validation_failed"
    message = "The request failed validation."

    @classmethod
    def for_field(
        cls, field: str, message: str, location: str = "body", type: str = "value_error"
    ) -> "ValidationFailed":
        return cls.for_fields([(field, message)], location=location, type=type)

    @classmethod
    def for_fields(
        cls,
        failures: list[tuple[str, str]],
        location: str = "body",
        type: str = "value_error",
        summary: str | None = None,
    ) -> "ValidationFailed":
        """Every failing (field, message) at once, so a client fixes them in one round;
        `summary` replaces the joined messages as the error's message."""
        # The same {field, in, message, type} items as pydantic's errors (kit/validation.py).
        summary = summary or "; ".join(f"{field}: {message}" for field, message in failures)
        return cls(
            summary,
            details={
                "errors": [
                    {"field": field, "in": location, "message": message, "type": type}
                    for field, message in failures
                ]
            },
        )


class InvalidJson(ApiError):
    status = 400
    code = "invalid_json"
    message = "The request body is not valid JSON."


class UnsupportedContentType(ApiError):
    status = 400
    code = "unsupported_content_type"
    message = "Request bodies must be JSON, sent with Content-Type: application/json."


class PayloadTooLarge(ApiError):
    """The body is over HOMEBASE_MAX_BODY_BYTES (http/body_limit.py)."""

    status = 413
    code = "payload_too_large"

    def __init__(self, limit: int):
        super().__init__(
            f"The request body is larger than the limit of {limit} bytes.",
            details={"max_body_bytes": limit},
        )


class Unauthenticated(ApiError):
    status = 401
    code = "unauthenticated"
    message = "A valid credential is required."


class InsufficientScope(ApiError):
    status = 403
    code = "insufficient_scope"

    def __init__(self, missing_scope: str):
        super().__init__(
            f"This credential lacks the scope {missing_scope}.",
            details={"missing_scope": missing_scope},
        )


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = "No such object."


class MethodNotAllowed(ApiError):
    status = 405
    code = "method_not_allowed"
    message = "This method is not allowed on this path."


class Conflict(ApiError):
    status = 409
    code = "conflict"
    message = "The request conflicts with the current state."


class ComplianceBlocked(ApiError):
    """A send refused by a compliance gate. The attempt was recorded (status FAILED) in
    the same transaction, which commits even though the answer is an error."""

    status = 422
    code = "compliance_blocked"
    message = "Blocked: the send was refused by a compliance gate."
    commits_writes = True


class RateLimited(ApiError):
    status = 429
    code = "rate_limited"
    message = "Rate limit exceeded."


class ServiceUnavailable(ApiError):
    status = 503
    code = "service_unavailable"
    message = "The service is temporarily unavailable."


class AdminError(ValueError):
    """A refused operator command (`homebase admin ...`, a fixtures file); its text is the
    one-line reason the CLI prints on stderr (cli/output.py). Not an HTTP error."""
