"""The /v1 route class: the one place a request is authenticated, rate-limited and
given its transaction.

Order for every /v1 request: credential (401, or 429 once the client address has used up
its unauthenticated budget, http/unauthenticated.py), rate limit (429), the body's content type
and JSON syntax (400), then FastAPI's own handling (validation 400, scope 403 via
`require`, the endpoint).
The transaction commits after the endpoint returns and before the response is sent;
any error response rolls it back, so a failed request writes nothing. The one exception
is an ApiError with `commits_writes` (ComplianceBlocked): its writes are the record of
the refusal, so they commit before the error is answered.

Work that waits on the outside world (a DNS lookup) must not hold the request's
transaction: on SQLite the process has one connection, so every workspace's requests
would wait behind it. An endpoint declares such work with `@before_transaction(step)`:
the credential, rate limit and body are checked in a short read-only transaction, then
`step(request, principal)` runs holding no connection (leaving what it found on
`request.state`), then the request's transaction opens as usual and checks the
credential again (revoked meanwhile: 401; the rate limit is counted once).

A POST with an `Idempotency-Key` takes the same two-transaction path: its key is claimed
in the first (after the credential, rate limit and body checks, so a request refused
there stores nothing) and its answer is stored in the second, with its work, when that
commits; a request whose transaction rolls back releases the key (idempotency/store.py).
"""

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import orjson
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.principal import Principal
from homebase.auth.resolvers import resolve
from homebase.http.errors import render
from homebase.http.request_log import bind_principal
from homebase.http.unauthenticated import count_failure
from homebase.idempotency import store as idempotency
from homebase.kit import nul
from homebase.kit.errors import (
    ApiError,
    InvalidJson,
    RateLimited,
    Unauthenticated,
    UnsupportedContentType,
    ValidationFailed,
)
from homebase.kit.nul import json_fields_holding_nul, names_holding_nul
from homebase.metrics import rate_limit_decision
from homebase.runtime import Runtime, get_runtime

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPES = ("application/json",)

Step = Callable[[Request, Principal], Awaitable[None]]
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])
STEP_ATTRIBUTE = "homebase_before_transaction"


def before_transaction(step: Step) -> Callable[[Endpoint], Endpoint]:
    """Runs `step` for this endpoint after authentication and before its transaction
    (see above). Put it under the route decorator."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, STEP_ATTRIBUTE, step)
        return endpoint

    return mark


class _Rollback(Exception):
    def __init__(self, response: Response):
        self.response = response


def _require_json(request: Request) -> None:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type and (content_type in JSON_TYPES or content_type.endswith("+json")):
        return
    raise UnsupportedContentType()


class V1Request(Request):
    """The request a /v1 route's handler sees: its JSON body decoded once, by orjson, for
    FastAPI too (FastAPI reads the body through `Request.json()`)."""

    parsed_json: Any = None
    has_parsed_json = False
    body_has_nul = False  # the body's JSON escapes U+0000 somewhere (refuse_nul)

    async def json(self) -> Any:
        if not self.has_parsed_json:
            self.parsed_json, self.has_parsed_json = await super().json(), True
        return self.parsed_json


def _parse_json(request: V1Request, body: bytes) -> None:
    """orjson refuses what json.loads lets through and no response could carry back:
    lone UTF-16 surrogates (`"\\udb26"`), NaN and Infinity, nesting past 1,024 levels."""
    try:
        request.parsed_json, request.has_parsed_json = orjson.loads(body), True
        request.body_has_nul = b"\\u0000" in body
    except orjson.JSONDecodeError as error:
        raise InvalidJson(f"The request body is not valid JSON: {error}.") from None


async def _count_unauthenticated(request: Request) -> None:
    """A 401 counts against the client address; past its budget the answer is 429."""
    decision = await count_failure(request)
    if not decision.allowed:
        raise RateLimited(
            f"Too many requests without a valid credential from this address (limit "
            f"{decision.limit} per minute); retry in {decision.retry_after} s.",
            headers={"Retry-After": str(decision.retry_after)},
        ) from None


async def _authenticate(
    request: Request, runtime: Runtime, connection: AsyncConnection
) -> Principal:
    try:
        return await resolve(
            connection, request.headers.get("authorization"), runtime.clock(), runtime.settings
        )
    except Unauthenticated:
        await _count_unauthenticated(request)
        raise


async def _admit(
    request: V1Request, runtime: Runtime, connection: AsyncConnection, takes_body: bool
) -> Principal:
    """Credential (401), rate limit (429), the body's content type and syntax (400)."""
    principal = await _authenticate(request, runtime, connection)
    decision = await runtime.limiter.hit(principal.rate_limit_bucket, principal.rate_limit_per_min)
    request.state.rate_limit = decision
    rate_limit_decision(
        "oauth_app" if principal.credential_kind == "oauth_token" else "api_key", decision.allowed
    )
    if not decision.allowed:
        raise RateLimited(
            f"Rate limit of {decision.limit} requests per minute exceeded; "
            f"retry in {decision.retry_after} s.",
            headers={"Retry-After": str(decision.retry_after)},
        )
    if takes_body and (body := await request.body()):
        _require_json(request)
        _parse_json(request, body)
    refuse_nul(request)
    return principal


def refuse_nul(request: "V1Request") -> None:
    """400 naming every path parameter, query parameter and body value or key that holds
    U+0000 (kit/nul.py). Cheap when absent: the query string and body are scanned as
    bytes first."""
    failures: list[tuple[str, str]] = [
        (name, "path") for name in names_holding_nul(request.path_params.items())
    ]
    if b"%00" in request.scope.get("query_string", b""):
        failures.extend(
            (name, "query") for name in names_holding_nul(request.query_params.multi_items())
        )
    if request.body_has_nul:
        failures.extend((field, "body") for field in json_fields_holding_nul(request.parsed_json))
    if failures:
        summary = "; ".join(f"{field}: {nul.MESSAGE}" for field, _ in failures[:5])
        errors = [
            {"field": field, "in": location, "message": nul.MESSAGE, "type": "nul_character"}
            for field, location in failures
        ]
        raise ValidationFailed(f"Invalid request: {summary}", details={"errors": errors})


class V1Route(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        return _Handler(self)


class _Handler:
    """One route's request path (the module's docstring): FastAPI's own handler (its
    validation and dependency solver) inside the request's transaction."""

    def __init__(self, route: APIRoute):
        self.endpoint = APIRoute.get_route_handler(route)
        self.takes_body = route.body_field is not None
        self.step: Step | None = getattr(route.endpoint, STEP_ATTRIBUTE, None)
        self.idempotent = "POST" in (route.methods or ())
        self.omit: tuple[str, ...] = getattr(route.endpoint, idempotency.OMIT_ATTRIBUTE, ())

    async def __call__(self, request: Request) -> Response:
        # Same scope and receive channel (request.state lives in the scope); nothing has
        # read the body yet.
        request = V1Request(request.scope, request.receive)
        runtime = get_runtime(request)
        # Without the header this is one header lookup: no statement, no other cost.
        key = request.headers.get(idempotency.HEADER) if self.idempotent else None
        if self.step is None and key is None:
            return await self.run(request, runtime, False, None)
        # Credential, rate limit and body first (so a refused request stores nothing),
        # then the key's claim, committed before the work starts (idempotency/store.py).
        async with runtime.db.transaction(write=key is not None) as connection:
            principal = await _admit(request, runtime, connection, self.takes_body)
            outcome = (
                None
                if key is None
                else await idempotency.claim(
                    connection,
                    request,
                    principal,
                    key,
                    now=runtime.clock(),
                    settings=runtime.settings,
                    omit=self.omit,
                )
            )
        if isinstance(outcome, Response):
            return outcome  # the stored answer, replayed
        held = outcome
        try:
            if self.step is not None:
                await self.step(request, principal)
            response = await self.run(request, runtime, True, held)
        finally:
            if held is not None and not held.committed:
                await idempotency.release(runtime.db, held)  # rolled back: nothing happened
        return response

    async def run(
        self, request: V1Request, runtime: Runtime, admitted: bool, held: idempotency.Claim | None
    ) -> Response:
        """The request's transaction: credential (again, if admitted already), the
        endpoint, commit; with an Idempotency-Key, the answer is stored in it. An error
        response rolls back; a ComplianceBlocked (`commits_writes`) commits its record of
        the refusal, then is answered."""
        recorded: ApiError | None = None
        try:
            async with runtime.db.transaction(write=request.method not in SAFE_METHODS) as db:
                if admitted:
                    principal = await _authenticate(request, runtime, db)
                else:
                    principal = await _admit(request, runtime, db, self.takes_body)
                request.state.principal = principal
                bind_principal(principal)  # later log lines carry the workspace
                request.state.connection = db
                try:
                    response = await self.endpoint(request)
                except ApiError as error:
                    if not error.commits_writes:
                        raise
                    recorded, response = error, render(request, error)  # leave: it commits
                if response.status_code >= 400 and recorded is None:
                    raise _Rollback(response)
                if held is not None:
                    await idempotency.complete(
                        db, held, response, now=runtime.clock(), settings=runtime.settings
                    )
            if held is not None:
                held.committed = True
        except _Rollback as rollback:
            return rollback.response
        if recorded is not None:
            raise recorded
        return response
