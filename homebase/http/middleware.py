"""Pure ASGI middleware (a few microseconds a request, unlike BaseHTTPMiddleware).

Gives every request an id, adds X-Request-Id and the rate-limit headers to every
response, and turns an unexpected exception into a logged 500 envelope, so no stack
trace or SQL reaches a client."""

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from homebase.http.envelope import error_body
from homebase.kit.ids import new_id

log = logging.getLogger("homebase.http")


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_id("req")
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", request_id.encode()))
                decision = state.get("rate_limit")
                if decision is not None:
                    headers.extend(decision.headers())
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            log.exception(
                "unhandled error in %s %s (request %s)",
                scope.get("method"),
                scope.get("path"),
                request_id,
            )
            if started:
                raise
            body = error_body("internal_error", "An unexpected error occurred.", request_id)
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
