"""HOMEBASE_MAX_BODY_BYTES for every route, in one place (pure ASGI, inside
RequestContextMiddleware so the answer carries the request id).

- The limit is decided per request here and nowhere else: HOMEBASE_MAX_BODY_BYTES,
  unless the method and exact path are an `Allowance` (a route that takes larger bodies
  by design: the console's CSV upload, HOMEBASE_IMPORT_MAX_BYTES). An allowance holds its
  own limit and may answer a body over it with its own page instead of the JSON 413.

- A declared Content-Length over the limit is 413 `payload_too_large` before a byte of the
  body is read; a malformed one (not a single run of digits) is 400 naming the header.
- A body without a length (chunked) is counted as the app reads it: the read that takes
  it past the limit raises PayloadTooLarge, so at most limit + one chunk is ever held.
- A declared length within the limit, or an HTTP/1 request with neither Content-Length nor
  Transfer-Encoding (no body, RFC 9112 6.3), passes untouched: the server delivers exactly
  the declared bytes, and the hot GETs pay nothing but the header scan.
- Once the body went past the limit the answer is 413 whatever the app made of the
  error: FastAPI turns an exception in its own body parsing into a 400, the console would
  render an HTML page, and any other answer the app tries is replaced. The route's work
  stops at the failed read, so nothing is written (the /v1 route class reads the body
  inside the transaction, which the exception rolls back).

What the client still sends after a 413 is discarded by the server as it arrives (uvicorn
drops body bytes once the response is complete); nothing buffers it.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from homebase.http.envelope import api_error_body
from homebase.kit.errors import ApiError, PayloadTooLarge, ValidationFailed

_MAX_DIGITS = 18  # longer is certainly over any limit, and int() never sees a huge string


def framing(headers: list[tuple[bytes, bytes]]) -> tuple[int | None, bool]:
    """(the Content-Length or None, whether Transfer-Encoding is present); ValueError when
    the Content-Length is malformed (not one run of ASCII digits, or sent twice)."""
    length: bytes | None = None
    chunked = False
    for name, value in headers:
        if name == b"content-length":
            if length is not None:
                raise ValueError(value)
            length = value.strip()
        elif name == b"transfer-encoding":
            chunked = True
    if length is None:
        return None, chunked
    if not length.isdigit():  # bytes.isdigit(): ASCII digits only
        raise ValueError(length)
    return (int(length) if len(length) <= _MAX_DIGITS else 1 << 62), chunked


async def answer(scope: Scope, send: Send, error: ApiError) -> None:
    request_id = scope.get("state", {}).get("request_id", "")
    body = api_error_body(error, request_id)
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@dataclass(frozen=True)
class Allowance:
    """One route (method and exact path) whose body may reach `limit` instead of
    HOMEBASE_MAX_BODY_BYTES; `refuse(limit)` answers a body over it (None: the JSON 413)."""

    method: str
    path: str
    limit: int
    refuse: Callable[[int], Response] | None = None


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_body_bytes: int, allowances: Sequence[Allowance] = ()):
        self.app = app
        self.limit = max_body_bytes
        self.allowances = {(item.method, item.path): item for item in allowances}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        allowance = self.allowances.get((scope["method"], scope["path"]))
        limit = allowance.limit if allowance is not None else self.limit

        async def too_large(send: Send) -> None:
            if allowance is not None and allowance.refuse is not None:
                await allowance.refuse(limit)(scope, receive, send)
            else:
                await answer(scope, send, PayloadTooLarge(limit))

        try:
            declared, chunked = framing(scope["headers"])
        except ValueError:
            await answer(
                scope,
                send,
                ValidationFailed.for_field(
                    "content-length", "must be one non-negative integer", location="header"
                ),
            )
            return
        if declared is not None:
            if declared > limit:
                await too_large(send)
            else:
                await self.app(scope, receive, send)
            return
        if not chunked and scope.get("http_version", "1.1").startswith("1"):
            await self.app(scope, receive, send)  # HTTP/1 without framing: no body
            return

        received = 0
        exceeded = started = answered = False

        async def limited_receive() -> Message:
            nonlocal received, exceeded
            if exceeded:
                raise PayloadTooLarge(limit)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise PayloadTooLarge(limit)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started, answered
            if exceeded and not started:
                # Whatever the app answers to the failed read becomes the 413.
                if not answered:
                    answered = True
                    await too_large(send)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not exceeded or started:
                raise
            # The app gave up on the body: that is the 413, not an error to log as a 500.
        if exceeded and not started and not answered:
            await too_large(send)
