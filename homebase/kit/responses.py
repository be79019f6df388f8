"""The fast JSON path: orjson straight to bytes, no jsonable_encoder, no response model pass."""

from typing import Any

import orjson
from starlette.responses import Response


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def json_response(content: Any, status_code: int = 200,
                  headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(content, status_code=status_code, headers=headers)
