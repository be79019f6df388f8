"""CORS (http/cors.py) at the HTTP level: preflights from a listed origin answered before
the /v1 route class (never 401, never counted against a budget), the headers a page may
read, nothing for other origins or for pages, no credentials ever, and no middleware at
all while HOMEBASE_CORS_ORIGINS is unset. The browser itself: tests/http/test_cors_browser.py."""

from typing import Annotated

import httpx
import pytest

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.cors import CorsMiddleware
from homebase.http.router import v1_router
from homebase.root.app import create_app
from tests.support import assert_error

ORIGIN = "https://app.example.com"
OTHER = "https://evil.example.net"
UNAUTHENTICATED_BUDGET = 5
COVERED = [
    "/v1/contacts",
    "/v1/contacts/con_00000000000000000000000000",
    "/v1/ping",
    "/oauth/token",
    "/oauth/revoke",
    "/.well-known/oauth-authorization-server",
]
PAGES = ["/console", "/console/login", "/oauth/authorize", "/v1/docs"]


@pytest.fixture
def settings_overrides() -> dict:
    return {
        "cors_origins": f"{ORIGIN}, http://127.0.0.1:5173",
        "rate_limit_unauthenticated_per_min": UNAUTHENTICATED_BUDGET,
    }


def preflight_headers(origin: str = ORIGIN, method: str = "POST", **extra: str) -> dict:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        **extra,
    }


def cors_headers(response) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name.startswith("access-control-")
    }


def listed(header: str) -> set[str]:
    return {item.strip().lower() for item in header.split(",")}


@pytest.mark.parametrize("path", COVERED)
async def test_a_preflight_from_a_listed_origin_is_answered(client, path):
    response = await client.options(path, headers=preflight_headers())
    assert response.status_code == 204, response.text
    assert response.headers["access-control-allow-origin"] == ORIGIN
    assert {"get", "post", "patch", "delete"} <= listed(
        response.headers["access-control-allow-methods"]
    )
    assert {"authorization", "content-type", "idempotency-key"} <= listed(
        response.headers["access-control-allow-headers"]
    )
    assert int(response.headers["access-control-max-age"]) > 0
    assert "origin" in listed(response.headers["vary"])
    assert "access-control-allow-credentials" not in response.headers
    assert response.content == b""


async def test_the_second_listed_origin_and_its_port_are_matched_exactly(client):
    ok = await client.options("/v1/ping", headers=preflight_headers("http://127.0.0.1:5173"))
    assert ok.headers["access-control-allow-origin"] == "http://127.0.0.1:5173"
    for near in ("http://127.0.0.1:5174", "http://127.0.0.1", "https://app.example.com:8443"):
        refused = await client.options("/v1/ping", headers=preflight_headers(near))
        assert refused.status_code == 405, near
        assert cors_headers(refused) == {}, near


async def test_a_preflight_is_never_401_nor_counted_against_any_budget(tenant, client):
    """The unauthenticated budget (a preflight has no credential) and the key's own."""
    before = await tenant.get("/v1/ping")
    for _ in range(UNAUTHENTICATED_BUDGET + 2):
        response = await client.options("/v1/contacts", headers=preflight_headers(method="GET"))
        assert response.status_code == 204
        assert "x-ratelimit-remaining" not in response.headers
        # Even carrying a credential the route class would refuse (browsers never send one).
        bad = await client.options(
            "/v1/contacts", headers=preflight_headers(Authorization="token hbk_wrong")
        )
        assert bad.status_code == 204
    after = await tenant.get("/v1/ping")
    assert int(after.headers["x-ratelimit-remaining"]) == (
        int(before.headers["x-ratelimit-remaining"]) - 1
    )
    # The address's unauthenticated budget is whole: its first failure leaves all but one.
    failed = await client.get("/v1/ping", headers={"Authorization": "token hbk_wrong"})
    assert failed.status_code == 401
    assert failed.headers["x-ratelimit-remaining"] == str(UNAUTHENTICATED_BUDGET - 1)


async def test_a_preflight_from_another_origin_gets_no_cors_header(client):
    """It goes on to the app as if CORS were off: no route takes OPTIONS."""
    for path in COVERED:
        response = await client.options(path, headers=preflight_headers(OTHER))
        assert_error(response, 405, "method_not_allowed")
        assert cors_headers(response) == {}, path
        assert "origin" in listed(response.headers["vary"])
    null = await client.options("/v1/ping", headers=preflight_headers("null"))
    assert null.status_code == 405 and cors_headers(null) == {}


async def test_answers_to_a_listed_origin_expose_what_a_page_reads(tenant):
    response = await tenant.client.get("/v1/ping", headers={**tenant.headers, "Origin": ORIGIN})
    assert response.status_code == 200, response.text
    assert response.headers["access-control-allow-origin"] == ORIGIN
    assert "origin" in listed(response.headers["vary"])
    assert "access-control-allow-credentials" not in response.headers
    exposed = listed(response.headers["access-control-expose-headers"])
    sent = {name for name in response.headers if name.startswith(("x-ratelimit-", "x-request"))}
    assert len(sent) == 4 and sent <= exposed, (sent, exposed)
    assert {"retry-after", "idempotent-replayed", "www-authenticate"} <= exposed

    headers = {**tenant.headers, "Origin": ORIGIN, "Idempotency-Key": "cors-1"}
    created = await tenant.client.post(
        "/v1/contacts", json={"first_name": "Cross"}, headers=headers
    )
    assert created.status_code == 201, created.text
    replayed = await tenant.client.post(
        "/v1/contacts", json={"first_name": "Cross"}, headers=headers
    )
    assert replayed.headers["idempotent-replayed"] == "true"
    assert replayed.headers["access-control-allow-origin"] == ORIGIN


async def test_errors_to_a_listed_origin_are_readable_too(client):
    """401, then past the address's budget 429 with Retry-After."""
    headers = {"Origin": ORIGIN, "Authorization": "token hbk_wrong"}
    for _ in range(UNAUTHENTICATED_BUDGET):
        response = await client.get("/v1/ping", headers=headers)
        assert_error(response, 401, "unauthenticated")
        assert response.headers["access-control-allow-origin"] == ORIGIN
    limited = await client.get("/v1/ping", headers=headers)
    assert_error(limited, 429, "rate_limited")
    assert limited.headers["access-control-allow-origin"] == ORIGIN
    assert "retry-after" in listed(limited.headers["access-control-expose-headers"])
    token = await client.post(
        "/oauth/token", data={"grant_type": "nope"}, headers={"Origin": ORIGIN}
    )
    assert token.status_code == 400 and token.json()["error"] == "unsupported_grant_type"
    assert token.headers["access-control-allow-origin"] == ORIGIN


async def test_answers_to_another_origin_or_none_carry_no_allow_origin(tenant):
    for headers in ({"Origin": OTHER}, {}):
        response = await tenant.client.get("/v1/ping", headers={**tenant.headers, **headers})
        assert response.status_code == 200
        assert cors_headers(response) == {}
        assert "origin" in listed(response.headers["vary"])  # a cache keeps them apart


@pytest.mark.parametrize("path", PAGES)
async def test_pages_get_no_cors_headers(client, path):
    preflight = await client.options(path, headers=preflight_headers(method="GET"))
    assert preflight.status_code in (404, 405), preflight.text
    assert cors_headers(preflight) == {}
    page = await client.get(path, headers={"Origin": ORIGIN})
    assert page.status_code < 500
    assert cors_headers(page) == {}
    assert "vary" not in page.headers


@pytest.fixture
def own_app(runtime):
    """An app of this test's own: it adds a route."""
    return create_app(runtime)


async def test_an_unexpected_500_is_readable_with_its_request_id(own_app, runtime, tenant):
    router = v1_router()

    @router.get("/cors-boom")
    async def boom(principal: Annotated[Principal, require(Scope.contacts_read)], session: Tenant):
        raise RuntimeError("boom")

    own_app.include_router(router, prefix="/v1")
    transport = httpx.ASGITransport(app=own_app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.get("/v1/cors-boom", headers={**tenant.headers, "Origin": ORIGIN})
    error = assert_error(response, 500, "internal_error")
    assert response.headers["access-control-allow-origin"] == ORIGIN
    assert response.headers["x-request-id"] == error["request_id"]


@pytest.mark.parametrize("settings_overrides", [{}])
async def test_unset_there_is_no_middleware_and_no_cors_header(app, client, tenant):
    assert not any(entry.cls is CorsMiddleware for entry in app.user_middleware)
    preflight = await client.options("/v1/ping", headers=preflight_headers())
    assert_error(preflight, 405, "method_not_allowed")
    answer = await tenant.client.get("/v1/ping", headers={**tenant.headers, "Origin": ORIGIN})
    assert answer.status_code == 200
    assert cors_headers(answer) == {} and "vary" not in answer.headers


async def test_set_the_middleware_is_installed_with_the_canonical_origins(app):
    (entry,) = [entry for entry in app.user_middleware if entry.cls is CorsMiddleware]
    assert set(entry.kwargs["origins"]) == {ORIGIN, "http://127.0.0.1:5173"}
