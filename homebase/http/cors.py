"""Cross-origin requests from browsers (CORS), for the origins in HOMEBASE_CORS_ORIGINS.

Installed only when that setting names an origin (root/app.py): unset, no request pays
for it and every answer is as before. It covers the API (/v1/..., but not the /v1/docs
page), /oauth/token, /oauth/revoke and the OAuth metadata document; never the pages
(the console, /oauth/authorize), which a browser opens rather than fetches.

- A preflight (OPTIONS with Origin and Access-Control-Request-Method) from a listed origin
  is answered here, 204, before the /v1 route class: it is never answered 401 and never
  counted against a rate limit. It allows the methods and the request headers the API
  reads, for ten minutes.
- A preflight from any other origin goes on to the app as if CORS were off (405, since no
  route takes OPTIONS) and gets no Access-Control-* header, so the browser refuses the
  request it announced.
- Every other answer on a covered path carries `Vary: Origin`; for a listed origin also
  `Access-Control-Allow-Origin: <that origin>` and the response headers a page may read
  (request id, rate limit, Retry-After, Idempotent-Replayed, WWW-Authenticate).
- Never `Access-Control-Allow-Credentials`: every credential is a header the page sets
  itself, so no cookie or HTTP authentication of the browser's is ever let through.

It sits outside RequestContextMiddleware, so a 500 made there is readable too (with its
request id); a preflight it answers has no request id and no log line.
"""

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIX = "/v1/"
PAGES = ("/v1/docs",)  # Swagger UI: a page, not an API answer

ALLOW_METHODS = b"GET, POST, PATCH, DELETE"
# What the API reads from a request (Content-Type is listed for its JSON and form values,
# which are not CORS-safelisted).
ALLOW_HEADERS = b"Authorization, Content-Type, Idempotency-Key"
EXPOSE_HEADERS = (
    b"X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, "
    b"Retry-After, Idempotent-Replayed, WWW-Authenticate"
)
MAX_AGE = b"600"


def covered(path: str, exact_paths: frozenset[str]) -> bool:
    if path.startswith(API_PREFIX):
        return not path.startswith(PAGES)
    return path in exact_paths


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def _with_vary_origin(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    for index, (name, value) in enumerate(headers):
        if name.lower() == b"vary":
            if b"origin" not in value.lower():
                headers[index] = (name, value + b", Origin")
            return headers
    headers.append((b"vary", b"Origin"))
    return headers


class CorsMiddleware:
    """`paths`: the paths outside /v1/ a browser fetches (the app names OAuth's token,
    revoke and metadata endpoints, root/app.py)."""

    def __init__(self, app: ASGIApp, origins: Iterable[str], paths: Iterable[str]):
        self.app = app
        self.origins = frozenset(origin.encode("latin-1") for origin in origins)
        self.exact_paths = frozenset(paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not covered(scope["path"], self.exact_paths):
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        allowed = origin if origin is not None and origin in self.origins else None
        if allowed is not None and scope["method"] == "OPTIONS":
            if _header(scope, b"access-control-request-method") is not None:
                await _preflight(allowed, send)
                return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = _with_vary_origin(list(message.get("headers", ())))
                if allowed is not None:
                    headers.append((b"access-control-allow-origin", allowed))
                    headers.append((b"access-control-expose-headers", EXPOSE_HEADERS))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_cors)


async def _preflight(origin: bytes, send: Send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 204,
            "headers": [
                (b"access-control-allow-origin", origin),
                (b"access-control-allow-methods", ALLOW_METHODS),
                (b"access-control-allow-headers", ALLOW_HEADERS),
                (b"access-control-max-age", MAX_AGE),
                (b"vary", b"Origin"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
