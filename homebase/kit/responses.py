"""The fast JSON path: orjson straight to bytes, no jsonable_encoder, no response model pass."""

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import orjson
from starlette import responses


# Subclassing Starlette's JSONResponse is what tells FastAPI to document the route's
# response_model as the success schema (it would otherwise document a bare string).
class JSONResponse(responses.JSONResponse):
    def render(self, content: Any) -> bytes:  # Any: Starlette's own signature
        return orjson.dumps(content)


def json_response(
    content: Any, status_code: int = 200, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(content, status_code=status_code, headers=headers)


W = TypeVar("W", bound=Mapping[str, Any])  # a TypedDict (kit/wire.py)


class Sent(JSONResponse, Generic[W]):
    """A response whose body is a `W`, the route's wire type (kit/wire.py): an endpoint
    annotated `-> Sent[Lead]` can only build it from a `Lead`, so mypy holds what is sent
    against what the route's response_model documents (tests/test_wire_types.py checks
    that the two name the same type). Written by orjson like any JSONResponse."""


def respond(
    payload: W,
    fields: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> Sent[W]:
    """The response of a typed payload, narrowed by `fields` (kit/fields.Projection)
    once typed: the whole payload is what mypy checks."""
    return Sent(
        payload if fields is None else fields(payload), status_code=status_code, headers=headers
    )
