"""The /v1 route class: the one place a request is authenticated, rate-limited and
given its transaction.

Order for every /v1 request: credential (401), rate limit (429), the body's content type
and JSON syntax (400), then FastAPI's own handling (validation 400, scope 403 via
`require`, the endpoint).
The transaction commits after the endpoint returns and before the response is sent;
any error response rolls it back, so a failed request writes nothing. The one exception
is an ApiError with `commits_writes` (ComplianceBlocked): its writes are the record of
the refusal, so they commit before the error is answered.
"""

from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.credentials import resolve
from homebase.http.direct_call import direct_handler
from homebase.kit.errors import ApiError, InvalidJson, RateLimited, UnsupportedContentType
from homebase.runtime import get_runtime

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPES = ("application/json",)


class _Rollback(Exception):
    def __init__(self, response: Response):
        self.response = response


def _require_json(request: Request) -> None:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and (content_type in JSON_TYPES or content_type.endswith("+json")):
        return
    raise UnsupportedContentType()


def _parse_json(request: Request, body: bytes) -> None:
    """Decodes the body once, for FastAPI too (Starlette's Request.json() returns the
    cached `_json`). orjson refuses what json.loads lets through and no response could
    carry back: lone UTF-16 surrogates (`"\\udb26"`), NaN and Infinity, nesting past
    1,024 levels."""
    try:
        request._json = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise InvalidJson(f"The request body is not valid JSON: {error}.") from None


class V1Route(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        # FastAPI's handler, or the same call without its dependency solver where the
        # route's shape allows (http/direct_call.py).
        handler = direct_handler(self) or super().get_route_handler()
        takes_body = self.body_field is not None

        async def handle(request: Request) -> Response:
            runtime = get_runtime(request)
            write = request.method not in SAFE_METHODS
            recorded_error: ApiError | None = None
            try:
                async with runtime.db.request_transaction(write=write) as connection:
                    principal = await resolve(connection, request.headers.get("authorization"),
                                              runtime.clock(), runtime.settings)
                    decision = await runtime.limiter.hit(principal.rate_limit_bucket,
                                                         principal.rate_limit_per_min)
                    request.state.rate_limit = decision
                    if not decision.allowed:
                        raise RateLimited(
                            f"Rate limit of {decision.limit} requests per minute exceeded; "
                            f"retry in {decision.retry_after} s.",
                            headers={"Retry-After": str(decision.retry_after)})
                    if takes_body and (body := await request.body()):
                        _require_json(request)
                        _parse_json(request, body)
                    request.state.principal = principal
                    request.state.connection = connection
                    try:
                        response = await handler(request)
                    except ApiError as error:
                        if not error.commits_writes:
                            raise
                        recorded_error = error  # leave the block normally: it commits
                    else:
                        if response.status_code >= 400:
                            raise _Rollback(response)
            except _Rollback as rollback:
                return rollback.response
            if recorded_error is not None:
                raise recorded_error
            return response

        return handle
