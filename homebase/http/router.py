from typing import Any

from fastapi import APIRouter

from homebase.http.routing import V1Route


def v1_router(**kwargs: Any) -> APIRouter:
    """Every /v1 domain router: routes authenticate, rate-limit and run in a transaction."""
    return APIRouter(route_class=V1Route, **kwargs)
