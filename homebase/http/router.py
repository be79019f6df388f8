from typing import Any

from fastapi import APIRouter
from starlette._utils import get_route_path
from starlette.routing import Match
from starlette.types import Scope

from homebase.http.v1_route import V1Route

API_PREFIX = "/v1"  # where create_app includes every v1_router


class V1Router(APIRouter):
    """An APIRouter that turns away, before looking at its routes, a path outside its
    prefix. FastAPI matches a request against every route of every included router in
    turn, ~1.5 µs a route: a route near the end of the table cost ~160 µs of matching
    over HTTP (docs/performance.md). Routes of this router all start with
    API_PREFIX + prefix, so nothing else can match them."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._full_prefix = API_PREFIX + self.prefix if self.prefix else ""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if self._full_prefix and not get_route_path(scope).startswith(self._full_prefix):
            return Match.NONE, {}
        return super().matches(scope)


def v1_router(**kwargs: Any) -> APIRouter:
    """Every /v1 domain router: routes authenticate, rate-limit and run in a transaction."""
    return V1Router(route_class=V1Route, **kwargs)
