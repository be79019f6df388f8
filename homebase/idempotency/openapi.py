"""The OpenAPI document's part of Idempotency-Key: on every POST under /v1, the header
parameter, the Idempotent-Replayed response header on answers that may be replayed, and
the 409 and 422 answers of a key that cannot run now (store.py)."""

import copy
from typing import Any

from homebase.idempotency.store import HEADER_NAME, MAX_KEY_LENGTH, REPLAYED_HEADER
from homebase.kit.openapi import ENVELOPE_SCHEMA, declare_header

_ENVELOPE = {"application/json": {"schema": ENVELOPE_SCHEMA}}

PARAMETER = {
    "name": HEADER_NAME,
    "in": "header",
    "required": False,
    "description": (
        "Makes this POST safe to retry. Send a unique value (a UUID) per intended request; "
        "a retry with the same key, method, path and body returns the first answer (same "
        "status and body, header `Idempotent-Replayed: true`) and does nothing again. The "
        "key belongs to this credential (another credential's same key runs anew) and is "
        "kept HOMEBASE_IDEMPOTENCY_TTL_HOURS (default 24). Stored: answers whose work "
        "committed (2xx, and a recorded compliance_blocked refusal). Not stored, so the key "
        "may be retried: requests refused before they ran (400, 401, 403, 429) and any "
        "other error (404, 409, 5xx), which changed nothing. The same key with another "
        "request: 422 idempotency_key_reused; while its first request runs: 409 "
        "idempotency_key_in_use. A webhook subscription's `secret` is never stored, so a "
        "replay of POST /v1/webhooks leaves it out."
    ),
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY_LENGTH,
        "examples": ["5f0c1d9e-3a7b-4c2e-9f61-0b8d7e4a2c13"],
    },
    "example": "5f0c1d9e-3a7b-4c2e-9f61-0b8d7e4a2c13",
}
REPLAYED = {
    "description": "`true` on an answer replayed for a repeated Idempotency-Key (absent on "
    "an answer produced by running the request). The body's "
    "error.request_id, if any, names the first request.",
    "required": False,
    "schema": {"type": "string", "enum": ["true"], "examples": ["true"]},
}
IN_USE_RETRY = {
    "description": "Seconds to wait before retrying (idempotency_key_in_use: 1).",
    "schema": {"type": "integer", "examples": [1]},
    "required": False,
}
IN_USE = "a request with the same Idempotency-Key is still running (idempotency_key_in_use)"
REUSED = "the Idempotency-Key was used with another method, path or body (idempotency_key_reused)"


def _error(operation: dict[str, Any], status: str, text: str, template: dict[str, Any]) -> None:
    responses = operation["responses"]
    if status in responses:
        responses[status]["description"] += f" Or {text}."
        return
    response = copy.deepcopy(template)  # the shared headers of an error answer
    response["description"] = text[0].upper() + text[1:] + "."
    response["content"] = copy.deepcopy(_ENVELOPE)
    response.get("headers", {}).pop("Retry-After", None)
    response.get("headers", {}).pop("WWW-Authenticate", None)
    responses[status] = response


def add_idempotency(document: dict[str, Any], prefix: str) -> None:
    """After the shared response headers are in (kit/openapi.add_response_headers)."""
    replayed = declare_header(document, REPLAYED_HEADER, REPLAYED)
    in_use_retry = declare_header(document, "Retry-After-Idempotency-Key-In-Use", IN_USE_RETRY)
    for path, item in document.get("paths", {}).items():
        operation = item.get("post")
        if not path.startswith(prefix + "/") or operation is None:
            continue
        operation.setdefault("parameters", []).append(copy.deepcopy(PARAMETER))
        responses = operation["responses"]
        template = responses.get("400") or responses["401"]
        if "400" in responses:
            responses["400"]["description"] += (
                f" An {HEADER_NAME} that is empty or longer than {MAX_KEY_LENGTH} characters "
                f"(validation_failed, field {HEADER_NAME}, in header)."
            )
        _error(operation, "409", IN_USE, template)
        _error(operation, "422", REUSED, template)
        responses["409"].setdefault("headers", {})["Retry-After"] = in_use_retry
        for status, response in responses.items():
            if status.startswith("2") or status == "422":
                response.setdefault("headers", {})[REPLAYED_HEADER] = replayed
