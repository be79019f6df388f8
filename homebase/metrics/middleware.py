"""Request metrics as a pure ASGI middleware (outermost, so it also sees the 500 that
RequestContextMiddleware makes of an unexpected error).

The route label is the matched route's whole template (`/v1/contacts/{id}`). Routing
leaves the matched route in scope["route"]; FastAPI includes routers by reference, so that
is the route as its router declared it: its path_format is whole, except for the prefix
given to include_router (`/v1`), which the app hands in (`prefixed`, route id ->
template). (FastAPI's iter_route_contexts would find them all, but building them is
slow, once per app, which every test would pay: docs/performance.md, "HTTP".) FastAPI
leaves no scope["route"] for a plain Starlette route (the OpenAPI document, the docs'
static mounts), so an answer other than 404 without one is matched against the app's
few plain routes after the fact. A request
no route matched is "unmatched", so an unknown path never becomes a label.
The counter and histogram
children are cached per label set: a request costs two perf_counter calls, a dict
lookup, an inc and an observe."""

import time
from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute
from prometheus_client import Counter, Histogram
from starlette.routing import Match, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from homebase.metrics import HTTP_DURATION, HTTP_REQUESTS

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
_children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}


def prefixed(prefix: str, routers: Iterable[APIRouter]) -> dict[int, str]:
    """Templates of routes whose routers are included with `prefix`."""
    return {
        id(route): prefix + template
        for router in routers
        for route in router.routes
        if (template := getattr(route, "path_format", None))
    }


class _Templates:
    def __init__(self, app: Any, prefixed: dict[int, str]):
        self.by_route = prefixed
        # The app's own Starlette routes and mounts (not APIRoutes, not included routers).
        self.plain: list[tuple[Any, str]] = [
            (route, route.path_format)
            for route in app.routes
            if isinstance(route, Route | Mount) and not isinstance(route, APIRoute)
        ]

    def plain_match(self, scope: Scope) -> str:
        for route, template in self.plain:
            if route.matches(scope)[0] is Match.FULL:
                return template
        return UNMATCHED

    def template(self, scope: Scope, status: int) -> str:
        route = scope.get("route")
        if route is None:
            return UNMATCHED if status == 404 else self.plain_match(scope)
        template = self.by_route.get(id(route))
        return template or getattr(route, "path_format", None) or UNMATCHED


def _record(method: str, route: str, status: int, seconds: float) -> None:
    key = (method, route, status)
    children = _children.get(key)
    if children is None:
        labels = (method, route, str(status))
        children = _children[key] = (HTTP_REQUESTS.labels(*labels), HTTP_DURATION.labels(*labels))
    children[0].inc()
    children[1].observe(seconds)


class MetricsMiddleware:
    def __init__(self, app: ASGIApp, prefixed: dict[int, str] | None = None):
        self.app = app
        self.prefixed = prefixed or {}
        self.templates: _Templates | None = None  # of the app it serves, on first use

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets if the app raises before answering

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            templates = self.templates
            if templates is None:
                templates = self.templates = _Templates(scope["app"], self.prefixed)
            method = scope["method"]
            _record(
                method if method in METHODS else "other",
                templates.template(scope, status),
                status,
                time.perf_counter() - started,
            )
