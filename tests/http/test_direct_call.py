"""http/direct_call.py: which /v1 routes skip FastAPI's dependency solver, and that
those routes still behave as declared (scope checks, errors) through it."""

from fastapi import APIRouter, Depends, Query
from fastapi.routing import APIRoute
from starlette.requests import Request

from homebase.http.direct_call import direct_handler
from homebase.kit.responses import JSONResponse, json_response
from tests.support import assert_error, make_key


def _routes(app) -> dict[tuple[str, str], APIRoute]:
    found = {}

    def walk(routes):
        for route in routes:
            if isinstance(route, APIRoute):
                for method in route.methods:
                    found[(method, route.path)] = route
            elif hasattr(route, "original_router"):
                walk(route.original_router.routes)

    walk(app.router.routes)
    return found


def test_hot_read_routes_take_the_direct_path(app):
    routes = _routes(app)
    assert direct_handler(routes[("GET", "/ping")]) is not None
    assert direct_handler(routes[("GET", "/contacts")]) is not None
    # path, query and body parameters stay with FastAPI's handler
    assert direct_handler(routes[("GET", "/contacts/{id}")]) is None
    assert direct_handler(routes[("POST", "/contacts")]) is None
    assert direct_handler(routes[("GET", "/leads")]) is None


def test_shapes_left_to_fastapi():
    router = APIRouter()

    async def from_request(request: Request) -> int:
        return 1

    async def nested(value: int = Depends(from_request)) -> int:
        return value

    @router.get("/a")
    async def query_parameter(q: str = Query("x")) -> JSONResponse:
        return json_response({})

    @router.get("/b")
    async def returns_a_dict(value: int = Depends(from_request)) -> dict:
        return {}

    @router.get("/c")
    async def nested_dependency(value: int = Depends(nested)) -> JSONResponse:
        return json_response({})

    @router.get("/d")
    async def direct(request: Request, value: int = Depends(from_request)) -> JSONResponse:
        return json_response({"value": value})

    handlers = {route.path: direct_handler(route) for route in router.routes}
    assert handlers["/a"] is None and handlers["/b"] is None and handlers["/c"] is None
    assert handlers["/d"] is not None


async def test_scope_is_still_checked_on_the_direct_path(tenant, runtime, client):
    key = (await make_key(runtime, tenant.id, ["leads:read"]))[1]
    response = await client.get("/v1/contacts", headers={"Authorization": f"token {key}"})
    error = assert_error(response, 403, "insufficient_scope")
    assert "contacts:read" in error["message"]
    assert (
        await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    ).status_code == 200


async def test_routers_turn_away_paths_outside_their_prefix(tenant):
    """http/router.py V1Router: the prefix check only skips routers that cannot match."""
    assert (await tenant.get("/v1/campaigns")).status_code == 200  # the last v1 router
    assert (await tenant.get("/v1/leads")).status_code == 200
    assert_error(await tenant.get("/v1/leadsx"), 404, "not_found")
    assert_error(await tenant.get("/v1/nothing-here"), 404, "not_found")
