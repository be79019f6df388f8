"""Calling an endpoint without FastAPI's dependency solver, where nothing needs it.

FastAPI's request handler (`get_request_handler`) solves dependencies generically for
every request: it re-parses the query string, builds a cache key per dependency, checks
what each callable is, and wraps each step for telemetry. For GET /v1/ping that was a
sizeable share of the request's CPU (docs/performance.md, "HTTP"), to call one
dependency that reads `request.state`.

Most /v1 read routes have exactly that shape: every parameter is the Request itself or
a dependency whose only parameter is the Request (`principal: ContactsRead`, `session:
Tenant`, the contact list's query parser), and the endpoint returns a Response. For
those, `direct_handler` works out once, at startup, which call fills which parameter,
and each request just makes those calls in order. A route of any other shape (path,
query, header, cookie or body parameters; a generator dependency; nested
dependencies; an endpoint returning a model) returns None and keeps FastAPI's handler,
so validation errors, response models and everything else behave exactly as before.
"""

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, get_type_hints

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


def _is_async(call: Any) -> bool:
    if inspect.isclass(call):
        return False
    target = call if inspect.isroutine(call) else getattr(call, "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(target) and not inspect.isasyncgenfunction(target)


def _takes_only_the_request(dependant: Dependant) -> bool:
    return (
        dependant.request_param_name is not None
        and not dependant.dependencies
        and not _has_other_parameters(dependant)
    )


def _has_other_parameters(dependant: Dependant) -> bool:
    return bool(
        dependant.path_params
        or dependant.query_params
        or dependant.header_params
        or dependant.cookie_params
        or dependant.body_params
        or dependant.websocket_param_name
        or dependant.http_connection_param_name
        or dependant.response_param_name
        or dependant.background_tasks_param_name
        or dependant.security_scopes_param_name
    )


def _returns_a_response(call: Callable[..., Any]) -> bool:
    try:
        returned = get_type_hints(call).get("return")
    except Exception:  # an annotation that does not resolve: leave it to FastAPI
        return False
    return inspect.isclass(returned) and issubclass(returned, Response)


def direct_handler(route: APIRoute) -> Handler | None:
    """A handler for `route` that fills its parameters directly, or None (see above)."""
    dependant = route.dependant
    call = dependant.call
    if call is None or not _is_async(call) or not _returns_a_response(call):
        return None
    if _has_other_parameters(dependant) or route.dependencies:
        return None
    steps: list[tuple[str, Callable[[Request], Coroutine[Any, Any, Any]]]] = []
    for sub in dependant.dependencies:
        if (
            sub.name is None
            or sub.call is None
            or not _is_async(sub.call)
            or not _takes_only_the_request(sub)
        ):
            return None
        steps.append((sub.name, sub.call))
    request_name = dependant.request_param_name

    async def handle(request: Request) -> Response:
        values: dict[str, Any] = {}
        for name, dependency in steps:
            values[name] = await dependency(request)
        if request_name is not None:
            values[request_name] = request
        response: Response = await call(**values)
        return response

    return handle
