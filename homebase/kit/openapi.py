"""Shared pieces of the OpenAPI document: the error envelope and per-route error lists."""

import copy
from collections.abc import Iterable, Iterator
from typing import Any, get_args, get_type_hints

from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, ConfigDict, Field

from homebase.kit import wire
from homebase.kit.remedies import ERROR_REMEDIES


class FieldError(BaseModel):
    """One failing field of a validation_failed error."""

    model_config = ConfigDict(
        populate_by_name=True,
        json_schema_extra={
            "examples": [
                {
                    "field": "tags.1",
                    "in": "body",
                    "message": "String should have at most 40 characters",
                    "type": "string_too_long",
                }
            ]
        },
    )

    field: str = Field(
        description="Dotted path of the member (`tags.1`), or the query parameter's name."
    )
    in_: str = Field(
        alias="in", description="`body` or `query` (`header` for a malformed Content-Length)."
    )
    message: str = Field(description="Why it failed.")
    type: str = Field(
        description="A stable machine-readable kind, e.g. missing, "
        "extra_forbidden, string_too_long, value_error."
    )


class ErrorDetails(BaseModel):
    """Members by error code; other codes may add their own (compliance_blocked:
    message_id, status, recorded, reason). `remedy` is on every error."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "missing_scope": "contacts:write",
                    "remedy": ERROR_REMEDIES["insufficient_scope"],
                }
            ]
        },
    )

    remedy: str | None = Field(
        None,
        description="What to do next, on every error: by error code, and for "
        "compliance_blocked by the refusing gate's reason (details.reason).",
        examples=[ERROR_REMEDIES["rate_limited"]],
    )
    errors: list[FieldError] | None = Field(
        None, description="validation_failed: each failing field."
    )
    missing_scope: str | None = Field(
        None, description="insufficient_scope: the scope the endpoint needs."
    )


class ErrorDetail(BaseModel):
    code: str = Field(examples=["validation_failed"])
    message: str = Field(examples=["Invalid request: email: String should match pattern ..."])
    request_id: str = Field(examples=["req_01jd3v6k8h2k3m4n5p6q7r8s9t"])
    details: ErrorDetails | None = Field(
        None, description="Members by error code, and `remedy` (what to do next) on every error."
    )


class ErrorEnvelope(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "error": {
                        "code": "validation_failed",
                        "message": "Invalid request: limit: Input should be less "
                        "than or equal to 200",
                        "request_id": "req_01jd3v6k8h2k3m4n5p6q7r8s9t",
                        "details": {
                            "errors": [
                                {
                                    "field": "limit",
                                    "in": "query",
                                    "type": "less_than_equal",
                                    "message": "Input should be less than or equal to 200",
                                }
                            ],
                            "remedy": ERROR_REMEDIES["validation_failed"],
                        },
                    }
                }
            ]
        }
    )

    error: ErrorDetail


_DESCRIPTIONS = {
    400: "Validation failed (each failing field is listed in details.errors), malformed JSON "
    "(invalid_json) or a body that is not JSON (unsupported_content_type). Text holding "
    "U+0000 anywhere (a path or query parameter, a body value or key, free-form JSON "
    "included) is refused, each such field named with type nul_character.",
    401: "Credential missing, malformed, expired or revoked (unauthenticated). Counted "
    "against the client address's unauthenticated budget, whose X-RateLimit-* headers "
    "it carries.",
    403: "The credential lacks the scope this endpoint needs; details.missing_scope names it "
    "(insufficient_scope).",
    404: "No such object in this workspace; another workspace's id answers the same (not_found).",
    409: "Conflicts with the current state (conflict).",
    422: "A send was refused by a compliance gate (compliance_blocked).",
    429: "Rate limit exceeded (rate_limited): this credential's, or, without a valid "
    "credential, the client address's unauthenticated budget; Retry-After gives the "
    "seconds to wait.",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {
        status: {"model": ErrorEnvelope, "description": _DESCRIPTIONS[status]}
        for status in statuses
    }


READ_ERRORS = (400, 401, 403, 429)
ONE_ERRORS = (400, 401, 403, 404, 429)


VALIDATION_ERROR_SCHEMAS = ("HTTPValidationError", "ValidationError")


def drop_default_validation_errors(document: dict[str, Any]) -> None:
    """Validation errors are 400 here (the envelope), never FastAPI's default 422: remove
    that answer from every operation, under `paths` and under `webhooks` alike (FastAPI adds
    it to each documented webhook too, whose body it would validate), then its schemas, so
    no reference is left pointing at a schema the document no longer defines."""
    refs = {f"#/components/schemas/{name}" for name in VALIDATION_ERROR_SCHEMAS}
    for section in ("paths", "webhooks"):
        for item in document.get(section, {}).values():
            for operation in item.values():
                responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
                default = responses.get("422", {}).get("content", {}).get("application/json", {})
                if default.get("schema", {}).get("$ref") in refs:
                    del responses["422"]
    for name in VALIDATION_ERROR_SCHEMAS:
        document.get("components", {}).get("schemas", {}).pop(name, None)


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value]
    return value


def _route_models(routes: Iterable[Any]) -> Iterator[type[BaseModel]]:
    for route in iter_route_contexts(list(routes)):
        dependant = getattr(route, "dependant", None)
        if dependant is None or not hasattr(route, "responses"):
            continue  # a WebSocket route (the voice relay) has no responses to document
        candidates = [
            route.response_model,
            *(param.field_info.annotation for param in dependant.body_params),
            *(response.get("model") for response in route.responses.values()),
        ]
        for candidate in candidates:
            yield from _models_within(candidate, set())


def _models_within(annotation: Any, seen: set[Any]) -> Iterator[type[Any]]:
    """The model (or wire type, kit/wire.py) itself and every one its fields (and generic
    arguments) name."""
    if annotation in seen:
        return
    seen.add(annotation)
    if wire.is_wire_type(annotation):
        yield annotation
        nested = list(get_type_hints(annotation, include_extras=True).values())
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        nested = [
            *annotation.__pydantic_generic_metadata__["args"],
            *(field.annotation for field in annotation.model_fields.values()),
        ]
    else:
        nested = list(get_args(annotation))
    for inner in nested:
        yield from _models_within(inner, seen)


def restore_null_examples(document: dict[str, Any], routes: Iterable[Any]) -> None:
    """FastAPI drops every null from the document, examples included, so an example loses
    its null members (required ones too). Put each route model's own examples back, where
    the document's are exactly those examples less their nulls."""
    schemas = document.get("components", {}).get("schemas", {})
    by_title: dict[str, list[dict[str, Any]]] = {}
    for schema in schemas.values():
        by_title.setdefault(schema.get("title", ""), []).append(schema)
    for model in set(_route_models(routes)):
        own = wire.json_schema(model)
        examples = own.get("examples")
        if not examples:
            continue
        for target in by_title.get(own.get("title", ""), []):
            if target.get("examples") == _without_nulls(examples):
                target["examples"] = examples


def _header(description: str, kind: str, example: Any) -> dict[str, Any]:
    return {"description": description, "schema": {"type": kind, "examples": [example]}}


HEADERS_REF = "#/components/headers/"


def header_ref(name: str) -> dict[str, Any]:
    """A reference to the header declared under `components/headers` by `name` (see
    SHARED_HEADERS): the same few headers are on nearly every answer, and written out in
    each they made up most of the document."""
    return {"$ref": HEADERS_REF + name}


# Every header object more than one answer documents, by its name under components/headers
# (a header whose text differs by answer gets a name of its own, after the header's).
# add_shared_headers puts them in the document; answers name them with header_ref.
SHARED_HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-Id": _header(
        "This request's id (also error.request_id).", "string", "req_01jd3v6k8h2k3m4n5p6q7r8s9t"
    ),
    "X-RateLimit-Limit": _header(
        "Requests allowed per minute for this credential; on a 401, "
        "and on a 429 to a request without a valid credential, the "
        "client address's unauthenticated budget (failures allowed "
        "per minute).",
        "integer",
        120,
    ),
    "X-RateLimit-Remaining": _header(
        "Requests (on a 401: failures) left in the current one-minute window.", "integer", 119
    ),
    "X-RateLimit-Reset": _header(
        "Unix time (seconds) at which the current window ends and the count starts again.",
        "integer",
        1795587480,
    ),
    # Outside /v1 (/oauth/token): the answers counted against the client address.
    "X-RateLimit-Limit-Unauthenticated": _header(
        "Failures allowed per minute from this client address "
        "(HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN); on counted "
        "answers only.",
        "integer",
        60,
    ),
    "X-RateLimit-Remaining-Unauthenticated": _header(
        "Failures left in the current one-minute window.", "integer", 59
    ),
    "Retry-After": _header("Seconds until the window ends (at least 1).", "integer", 42),
    "WWW-Authenticate": _header(
        "The schemes to authenticate with; a refused Bearer token is answered "
        '`Bearer realm="homebase", error="invalid_token"` (RFC 6750).',
        "string",
        'Token realm="homebase", Bearer realm="homebase"',
    ),
}

REQUEST_ID_HEADER = header_ref("X-Request-Id")
RATE_LIMIT_HEADERS = {
    name: header_ref(name)
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
}
UNAUTHENTICATED_BUDGET_HEADERS = {
    "X-RateLimit-Limit": header_ref("X-RateLimit-Limit-Unauthenticated"),
    "X-RateLimit-Remaining": header_ref("X-RateLimit-Remaining-Unauthenticated"),
    "X-RateLimit-Reset": header_ref("X-RateLimit-Reset"),
}
RETRY_AFTER_HEADER = header_ref("Retry-After")
WWW_AUTHENTICATE_HEADER = header_ref("WWW-Authenticate")


def add_shared_headers(document: dict[str, Any]) -> None:
    """components/headers: every one of SHARED_HEADERS."""
    for name, header in SHARED_HEADERS.items():
        declare_header(document, name, header)


def declare_header(document: dict[str, Any], name: str, header: dict[str, Any]) -> dict[str, Any]:
    """Declares `header` under components/headers as `name` (for one known only when the
    document is built, such as the 503's Retry-After); a reference to it."""
    headers = document.setdefault("components", {}).setdefault("headers", {})
    headers[name] = copy.deepcopy(header)
    return header_ref(name)


ENVELOPE_SCHEMA = {"$ref": "#/components/schemas/ErrorEnvelope"}


def envelope_response(
    description: str, headers: dict[str, Any], example: dict[str, Any]
) -> dict[str, Any]:
    """An error answer added to the document by hand: the envelope, its example, headers.
    A new object on every call (each operation gets its own)."""
    return {
        "description": description,
        "headers": copy.deepcopy(headers),
        "content": {"application/json": {"schema": dict(ENVELOPE_SCHEMA), "example": example}},
    }


def operations(document: dict[str, Any], prefix: str = "") -> Iterator[dict[str, Any]]:
    """Every operation object of the document's paths under `prefix` ("" for all)."""
    for path, item in document.get("paths", {}).items():
        if prefix and not path.startswith(prefix + "/"):
            continue
        for operation in item.values():
            if isinstance(operation, dict):
                yield operation


def add_body_limit_responses(document: dict[str, Any], limit: int) -> None:
    """413 on every operation that takes a body: http/body_limit.py refuses a larger one on
    every route, before the credential is read (so no rate-limit headers)."""
    message = f"The request body is larger than the limit of {limit} bytes."
    example = {
        "error": {
            "code": "payload_too_large",
            "message": message,
            "request_id": "req_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "details": {"max_body_bytes": limit, "remedy": ERROR_REMEDIES["payload_too_large"]},
        }
    }
    shared = declare_response(
        document,
        "PayloadTooLarge",
        envelope_response(
            f"The body is larger than HOMEBASE_MAX_BODY_BYTES ({limit} "
            "bytes here): refused from Content-Length before it is read, "
            "or once a chunked body passes it (payload_too_large; "
            "details.max_body_bytes). Rate-limit headers only when the "
            "body was refused mid-stream, after the credential counted.",
            {"X-Request-Id": REQUEST_ID_HEADER},
            example,
        ),
    )
    for operation in operations(document):
        if "requestBody" in operation:
            operation.setdefault("responses", {})["413"] = dict(shared)


def add_unavailable_responses(document: dict[str, Any], prefix: str, retry_after: int) -> None:
    """503 on every operation under `prefix`: the database did not answer in time (server
    down or refusing, the pool's acquire timeout, the statement timeout, SQLite's busy
    timeout; db/unavailable.py). Added after the shared headers: the credential is read from
    the database, so a 503 may come before the limiter counted and carries no rate-limit
    headers, only X-Request-Id and Retry-After."""
    example = {
        "error": {
            "code": "service_unavailable",
            "message": "The database is not answering; retry shortly.",
            "request_id": "req_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "details": {"remedy": ERROR_REMEDIES["service_unavailable"]},
        }
    }
    retry = declare_header(
        document,
        "Retry-After-Unavailable",
        _header("Seconds to wait before retrying.", "integer", retry_after),
    )
    shared = declare_response(
        document,
        "ServiceUnavailable",
        envelope_response(
            "The database did not answer within its bounds (unreachable, "
            "no pooled connection within the pool timeout, a statement "
            "past the statement timeout); nothing was written. Retry "
            "after Retry-After seconds (service_unavailable).",
            {"X-Request-Id": REQUEST_ID_HEADER, "Retry-After": retry},
            example,
        ),
    )
    for operation in operations(document, prefix):
        operation.setdefault("responses", {})["503"] = dict(shared)


def answer_headers(status: str) -> dict[str, Any]:
    """The headers every /v1 answer of `status` carries (http/middleware.py, ratelimit/):
    X-Request-Id always; the X-RateLimit-* trio on every answer (a 401 reports the client
    address's unauthenticated budget, http/unauthenticated.py); Retry-After on 429;
    WWW-Authenticate on 401."""
    headers = {"X-Request-Id": REQUEST_ID_HEADER}
    if status == "401":
        headers["WWW-Authenticate"] = WWW_AUTHENTICATE_HEADER
    headers.update(RATE_LIMIT_HEADERS)
    if status == "429":
        headers["Retry-After"] = RETRY_AFTER_HEADER
    return headers


def add_response_headers(document: dict[str, Any], prefix: str) -> None:
    """Every /v1 answer documents answer_headers(status)."""
    for operation in operations(document, prefix):
        for status, response in operation.get("responses", {}).items():
            response.setdefault("headers", {}).update(answer_headers(status))


RESPONSES_REF = "#/components/responses/"


def declare_response(
    document: dict[str, Any], name: str, response: dict[str, Any]
) -> dict[str, Any]:
    """Declares `response` under components/responses as `name`; a reference to it."""
    document.setdefault("components", {}).setdefault("responses", {})[name] = response
    return {"$ref": RESPONSES_REF + name}


# The error answers most /v1 operations give word for word (error_responses(status) with
# answer_headers(status)), by their names under components/responses.
SHARED_ERRORS = {
    "400": "ValidationFailed",
    "401": "Unauthenticated",
    "403": "InsufficientScope",
    "404": "NotFound",
    "429": "RateLimited",
}


def share_error_responses(document: dict[str, Any], prefix: str) -> None:
    """Last, once nothing adds to an answer any more: each /v1 answer exactly equal to the
    plain one of SHARED_ERRORS becomes a reference to it; an operation that says more (its
    own 404 text, the Idempotency-Key's 400) keeps its answer written out."""
    for status, name in SHARED_ERRORS.items():
        plain = {
            "description": _DESCRIPTIONS[int(status)],
            "content": {"application/json": {"schema": ENVELOPE_SCHEMA}},
            "headers": answer_headers(status),
        }
        shared: dict[str, Any] | None = None
        for operation in operations(document, prefix):
            responses = operation.get("responses", {})
            if responses.get(status) == plain:
                shared = shared or declare_response(document, name, plain)
                responses[status] = dict(shared)
