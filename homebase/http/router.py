from typing import Any

from fastapi import APIRouter
from starlette.routing import Match
from starlette.types import Scope

from homebase.http.v1_route import V1Route

API_PREFIX = "/v1"  # where create_app includes every v1_router


def route_path(scope: Scope) -> str:
    """The request's path below the app's root_path, as Starlette's routing matches it
    (its own helper for this is private): a path under a mounted or proxied root_path
    loses that prefix; any other path is matched as it is."""
    path: str = scope["path"]
    root_path: str = scope.get("root_path", "")
    if not root_path or not path.startswith(root_path):
        return path
    if path == root_path:
        return ""
    return path[len(root_path) :] if path[len(root_path)] == "/" else path


class V1Router(APIRouter):
    """An APIRouter that turns away, before looking at its routes, a path outside its
    prefix. FastAPI matches a request against every route of every included router in
    turn, so a route near the end of the table paid for matching all the others
    (docs/performance.md, "HTTP"). Routes of this router all start with API_PREFIX +
    prefix, so nothing else can match them."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._full_prefix = API_PREFIX + self.prefix if self.prefix else ""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if self._full_prefix and not route_path(scope).startswith(self._full_prefix):
            return Match.NONE, {}
        return super().matches(scope)


def v1_router(**kwargs: Any) -> APIRouter:
    """Every /v1 domain router: routes authenticate, rate-limit and run in a transaction."""
    return V1Router(route_class=V1Route, **kwargs)
