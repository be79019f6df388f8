"""gzip for large answers to clients that ask for it, and the one rule of what is never
compressed (docs/decisions.md, "Compression (gzip) and BREACH").

Starlette's GZipMiddleware does the compressing: a body of at least MINIMUM_SIZE bytes,
with `Vary: Accept-Encoding` and a Content-Length of the compressed body (none on a
streamed one, each chunk flushed as it goes); never a body already encoded, a 206 or a
type that is compressed already (images, audio, archives). This layer decides first, on
the request alone, whether to hand the request to it at all, so a request without
`Accept-Encoding: gzip` (the benchmark's, most API clients') costs one look through its
headers and nothing else.

BREACH: an attacker who can make a victim's browser send requests, and can see the size
of the encrypted answers, recovers a secret that the compressed body repeats, a byte at a
time, when the body also reflects text of the attacker's choosing. So an answer holding a
secret or a page's CSRF token is never compressed, whatever the client asks: the three
NEVER_COMPRESSED_* lists below are that rule, and the only place it is written.
"""

from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from homebase.http.router import route_path

# Every page: the console's and the OAuth consent page carry CSRF tokens (and the console
# shows a new API key or webhook secret once); a page added later is covered by its type.
NEVER_COMPRESSED_TYPES = ("text/html",)
# Every answer under these paths, whatever its type: the console (its JSON and downloads
# too) and OAuth (/oauth/token answers access and refresh tokens).
NEVER_COMPRESSED_PREFIXES = ("/console", "/oauth")
# Single operations of the API whose answer holds a secret: a new webhook subscription's
# signing secret, shown once.
NEVER_COMPRESSED_OPERATIONS = frozenset({("POST", "/v1/webhooks")})

MINIMUM_SIZE = 1024
# zlib's own default: level 9 costs far more CPU for bodies hardly smaller.
COMPRESS_LEVEL = 6

_ACCEPT_ENCODING = b"accept-encoding"


def never_compressed(method: str, path: str) -> bool:
    """Whether the answer to `method path` (below the root path) may carry a secret; a
    page is recognised later, when its answer starts, by its Content-Type."""
    if (method, path.rstrip("/") or "/") in NEVER_COMPRESSED_OPERATIONS:
        return True
    return any(
        path == prefix or path.startswith(prefix + "/") for prefix in NEVER_COMPRESSED_PREFIXES
    )


def accepts_gzip(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == _ACCEPT_ENCODING and b"gzip" in value:
            return True
    return False


class CompressionMiddleware:
    def __init__(self, app: ASGIApp, minimum_size: int = MINIMUM_SIZE):
        self.app = app
        self.gzip = GZipMiddleware(
            app,
            minimum_size=minimum_size,
            compresslevel=COMPRESS_LEVEL,
            exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, *NEVER_COMPRESSED_TYPES),
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and accepts_gzip(scope)
            and not never_compressed(scope["method"], route_path(scope))
        ):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
