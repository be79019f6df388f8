"""The /v1 route class calls an endpoint of a plain shape without FastAPI's dependency
solver (http/v1_route.py, `_direct`); every other route, and every request the shortcut
cannot fill as FastAPI would, keeps FastAPI's handler (the API tests hold the answers
alike: a failing body or path value is answered by FastAPI's handler itself)."""

from homebase.http.v1_route import V1Route, _direct
from homebase.root.app import V1_ROUTERS

# The hot paths (docs/performance.md): they must stay plain.
HOT = {"ping", "list_contacts", "create_contact", "get_contact", "create_lead"}


async def _never(request):  # pragma: no cover - only its identity matters here
    raise AssertionError


def _routes() -> dict[str, V1Route]:
    return {
        route.name: route
        for router in V1_ROUTERS
        for route in router.routes
        if isinstance(route, V1Route)
    }


def test_the_hot_endpoints_are_called_directly():
    routes = _routes()
    assert {name for name in HOT if _direct(routes[name], _never) is None} == set()


def test_a_query_model_keeps_fastapis_handler():
    # list_leads takes its filters as a Query() model: FastAPI solves it.
    assert _direct(_routes()["list_leads"], _never) is None
