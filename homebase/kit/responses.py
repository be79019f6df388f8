"""The fast JSON path: orjson straight to bytes, no jsonable_encoder, no response model pass."""

from typing import Any

import orjson
from starlette import responses


# Subclassing Starlette's JSONResponse is what tells FastAPI to document the route's
# response_model as the success schema (it would otherwise document a bare string).
class JSONResponse(responses.JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def json_response(
    content: Any, status_code: int = 200, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(content, status_code=status_code, headers=headers)
