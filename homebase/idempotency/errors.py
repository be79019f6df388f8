"""The two answers of a key that cannot run now (docs/decisions.md "Idempotency keys")."""

from homebase.kit.errors import ApiError


class IdempotencyKeyReused(ApiError):
    status = 422
    code = "idempotency_key_reused"
    message = (
        "This Idempotency-Key was used with another method, path or body; "
        "use a new key for a different request."
    )


class IdempotencyKeyInUse(ApiError):
    status = 409
    code = "idempotency_key_in_use"
    message = (
        "A request with this Idempotency-Key is still running; retry once it has "
        "finished to get its answer."
    )

    def __init__(self, message: str | None = None):
        super().__init__(message, headers={"Retry-After": "1"})
