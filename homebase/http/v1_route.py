"""The /v1 route class: the one place a request is authenticated, rate-limited and
given its transaction (AGENTS.md, "The /v1 request").

Order: credential (401, or 429 past the client address's unauthenticated budget,
http/unauthenticated.py), rate limit (429), the body's content type and JSON (400), then
the endpoint (validation 400, scope 403 via `require`). The transaction commits after the
endpoint returns, before the response is sent; an error response rolls it back, except an
ApiError with `commits_writes` (ComplianceBlocked), whose writes record the refusal.

Work that waits on the outside world (a DNS lookup) must not hold a connection: an
endpoint declares it with `@before_transaction(step)`; the checks run in a short read,
then `step(request, principal)` holding no connection, then the request's transaction,
which checks the credential again (revoked meanwhile: 401; the limit counted once). A
POST with an `Idempotency-Key` takes the same path: the key is claimed in the first
transaction and its answer stored in the second; a rollback releases it
(idempotency/store.py). An endpoint of a plain shape is called without FastAPI's
dependency solver (`_direct`); any other request goes to FastAPI's handler.
"""

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar, get_origin, get_type_hints

import orjson
from fastapi import params
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel
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


Handler = Callable[[Request], Coroutine[Any, Any, Response]]
Fill = tuple[str, Callable[..., Any], str | None, dict[str, object]]  # name, call, request, kwargs
CONSTANTS = (type(None), bool, int, float, str, bytes)


def _awaitable(call: Any) -> bool:
    """A coroutine function, or an object whose `__call__` is one (not a class, which
    FastAPI would instantiate, nor a generator dependency)."""
    target = call if inspect.isroutine(call) else getattr(call, "__call__", None)  # noqa: B004
    return not inspect.isclass(call) and inspect.iscoroutinefunction(target)


def _plain(dependant: Dependant, path: bool = False) -> dict[str, object] | None:
    """The constant defaults of `dependant`'s query parameters (what FastAPI passes when
    the request has no query string), or None when something else needs the solver;
    `path`: its path parameters may be plain (`str` or `int`, no alias)."""
    odd = [  # a path parameter FastAPI would convert or look up under another name
        field
        for field in dependant.path_params
        if field.field_info.annotation not in (str, int)
        or field.alias != field.name
        or field.field_info.validation_alias
    ]
    solved = (
        not path and dependant.path_params,
        odd,
        dependant.header_params,
        dependant.cookie_params,
        dependant.websocket_param_name,
        dependant.http_connection_param_name,
        dependant.response_param_name,
        dependant.background_tasks_param_name,
        dependant.security_scopes_param_name,
    )
    if any(solved) or not _awaitable(dependant.call):
        return None
    defaults: dict[str, object] = {}
    for field in dependant.query_params:
        info = field.field_info
        if info.is_required() or info.validate_default or type(info.default) not in CONSTANTS:
            return None
        defaults[field.name] = info.default
    return defaults


def _json_model(dependant: Dependant) -> tuple[bool, Any]:
    """(whether the body is plain, its parameter's field): plain is no body (None) or one
    parameter, a pydantic model, taking the whole JSON body."""
    if not dependant.body_params:
        return True, None
    field, info = dependant.body_params[0], dependant.body_params[0].field_info
    whole = type(info) is params.Body and not info.embed and len(dependant.body_params) == 1
    model = info.annotation
    return whole and inspect.isclass(model) and issubclass(model, BaseModel), field


def _returns_response(call: Any) -> bool:
    try:
        returned = get_type_hints(call).get("return")
    except Exception:  # an annotation that does not resolve: FastAPI's handler then
        return False
    returned = get_origin(returned) or returned  # Sent[Contact] -> Sent
    return inspect.isclass(returned) and issubclass(returned, Response)


def _fills(dependant: Dependant) -> list[Fill] | None:
    """Each dependency's call with what it takes: the request, constant defaults."""
    fills: list[Fill] = []
    for sub in dependant.dependencies:
        defaults = _plain(sub)
        if defaults is None or sub.name is None or sub.dependencies or sub.body_params:
            return None
        if sub.call in {fill[1] for fill in fills}:  # FastAPI would share one result
            return None
        assert sub.call is not None  # _plain checked it
        fills.append((sub.name, sub.call, sub.request_param_name, defaults))
    return fills


def _direct(route: APIRoute, fastapi_handler: Handler) -> Handler | None:
    """The endpoint called with its parameters filled here (the module's docstring), or
    None: the route keeps FastAPI's handler."""
    dependant, call = route.dependant, route.dependant.call
    (plain, body), own, fills = _json_model(dependant), _plain(dependant, True), _fills(dependant)
    if not plain or own is None or fills is None or route.dependencies:
        return None
    if not _returns_response(call):
        return None
    queried = any(sub.query_params for sub in (dependant, *dependant.dependencies))

    async def handle(request: Request) -> Response:
        if queried and request.scope["query_string"] or request.app.dependency_overrides:
            return await fastapi_handler(request)  # (overrides: a test's, FastAPI applies)
        values = dict(own)
        for field in dependant.path_params:
            found = request.path_params[field.name]
            values[field.name], errors = field.validate(found, {}, loc=("path", field.name))
            if errors:
                return await fastapi_handler(request)
        for name, dependency, request_name, defaults in fills:
            kwargs = {request_name: request, **defaults} if request_name else defaults
            values[name] = await dependency(**kwargs)
        if body is not None:
            kind = request.headers.get("content-type", "").lstrip().lower()
            if not getattr(request, "has_parsed_json", False) or kind[:12] != "application/":
                return await fastapi_handler(request)  # FastAPI reads no JSON there
            values[body.name], errors = body.validate(await request.json(), {}, loc=("body",))
            if errors:
                return await fastapi_handler(request)  # its 400, worded as FastAPI words it
        if dependant.request_param_name is not None:
            values[dependant.request_param_name] = request
        response: Response = await call(**values)  # type: ignore[misc]  # checked above
        return response

    return handle


class V1Route(APIRoute):
    def get_route_handler(self) -> Handler:
        return _Handler(self)


class _Handler:
    """One route's request path (the module's docstring): the endpoint, called directly
    where its shape is plain, else by FastAPI's handler, inside the request's
    transaction."""

    def __init__(self, route: APIRoute):
        solved = APIRoute.get_route_handler(route)
        self.endpoint = _direct(route, solved) or solved
        self.takes_body = route.body_field is not None
        self.step: Step | None = getattr(route.endpoint, STEP_ATTRIBUTE, None)
        self.idempotent = "POST" in (route.methods or ())
        self.omit: tuple[str, ...] = getattr(route.endpoint, idempotency.OMIT_ATTRIBUTE, ())

    async def __call__(self, request: Request) -> Response:
        # Same scope and receive channel (request.state lives in the scope); body unread.
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
