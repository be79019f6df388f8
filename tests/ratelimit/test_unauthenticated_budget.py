"""The unauthenticated budget (docs/decisions.md "Unauthenticated budget";
http/unauthenticated.py): per client address and minute, API requests answered 401,
failed client authentication at /oauth/token and /oauth/revoke and failed console
sign-ins; past it, 429.

HTTP level on SQLite with the in-memory limiter on a hand-held clock, and on PostgreSQL
with the real Redis (each test counts under its own random addresses, so runs and tests
never share a bucket there).
"""

import random

import httpx
import pytest

from homebase.console.sessions import SESSION_COOKIE
from homebase.kit import passwords
from homebase.ratelimit import MemoryLimiter, RedisLimiter
from tests.calls.test_calls import SECRET as CALLS_SECRET
from tests.calls.test_calls import add_number, callback, completed
from tests.console_support import PASSWORD, make_member, sign_in
from tests.kit.test_openapi import assert_conforms
from tests.oauth_support import authorize_app, client_credentials, make_app
from tests.ratelimit.test_ratelimit import (
    WINDOW_START,
    HandClock,
    clean_env,
    fresh_window,
    limit_headers,
    wait_until_healthy,
)
from tests.served_support import start_serve, stop
from tests.support import REDIS_URL, assert_error, require_server

BAD_KEY = {"Authorization": "token hbk_" + "x" * 40}
PROXY = "198.51.100.7"  # the trusted load balancer in these tests


def address() -> str:
    """A random address (100.64.0.0/10) nobody else counts under."""
    return ".".join(
        str(random.randint(low, high)) for low, high in ((100, 100), (64, 127), (0, 255), (1, 254))
    )


@pytest.fixture
async def limiter(backend, runtime):
    """SQLite: memory on a clock that never leaves one window. PostgreSQL: the real Redis,
    where a sequence starts only with enough of the minute left."""
    if backend == "sqlite":
        runtime.limiter = MemoryLimiter(clock=HandClock(WINDOW_START + 1.0))
        yield runtime.limiter
        return
    require_server("Redis", REDIS_URL, 6379)
    await runtime.limiter.close()
    runtime.limiter = RedisLimiter(REDIS_URL)
    await fresh_window(15)
    yield runtime.limiter


def client_from(app, peer: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False, client=(peer, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def assert_refused(response: httpx.Response, limit: int) -> None:
    assert_error(response, 429, "rate_limited")
    assert response.headers["retry-after"].isdigit()
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert limit_headers(response)[:2] == (limit, 0)


async def test_the_61st_bad_key_is_429_while_a_valid_key_and_other_addresses_pass(
    app, backend, tenant, limiter
):
    if backend == "postgres":  # 64 requests in one Redis window, on a busy machine
        await fresh_window(45)
    async with client_from(app, address()) as client:
        for expected_remaining in range(59, -1, -1):
            response = await client.get("/v1/contacts", headers=BAD_KEY)
            assert_error(response, 401, "unauthenticated")
            assert "www-authenticate" in response.headers
            assert limit_headers(response)[:2] == (60, expected_remaining)
        refused = await client.get("/v1/contacts", headers=BAD_KEY)
        assert_refused(refused, 60)
        assert_conforms(app.openapi(), "GET", "/v1/contacts", refused)
        assert_refused(await client.get("/v1/ping"), 60)  # no credential at all

        valid = await client.get("/v1/ping", headers=tenant.headers)
        assert valid.status_code == 200
        assert limit_headers(valid)[:2] == (120, 119)  # the key's own budget, uncounted
        assert_refused(await client.get("/v1/ping", headers=BAD_KEY), 60)

    async with client_from(app, address()) as other:
        response = await other.get("/v1/contacts", headers=BAD_KEY)
        assert_error(response, 401, "unauthenticated")
        assert limit_headers(response)[:2] == (60, 59)


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_unauthenticated_per_min": 3}])
async def test_wrong_client_secrets_at_the_token_endpoint_are_counted(
    app, runtime, tenant, limiter
):
    oauth_app = await make_app(runtime)
    await authorize_app(runtime, oauth_app, tenant.id, ["contacts:read"])
    form = {
        "grant_type": "client_credentials",
        "client_id": oauth_app.client_id,
        "tenant_id": tenant.id,
    }
    async with client_from(app, address()) as client:
        for remaining in (2, 1):
            response = await client.post(
                "/oauth/token", data={**form, "client_secret": "hbo_cs_wrong"}
            )
            assert response.status_code == 400 and response.json()["error"] == "invalid_client"
            assert limit_headers(response)[:2] == (3, remaining)
        basic = await client.post("/oauth/token", data=form, auth=(oauth_app.client_id, "x"))
        assert basic.status_code == 401 and basic.json()["error"] == "invalid_client"
        assert limit_headers(basic)[:2] == (3, 0)
        assert_conforms(app.openapi(), "POST", "/oauth/token", basic)
        refused = await client.post("/oauth/token", data={**form, "client_secret": "wrong"})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"  # RFC 6749's shape at /oauth
        assert refused.headers["retry-after"].isdigit()
        assert refused.headers["cache-control"] == "no-store"
        assert_conforms(app.openapi(), "POST", "/oauth/token", refused)
        # One budget per address: the API is refused too; the right secret is not.
        assert_refused(await client.get("/v1/ping", headers=BAD_KEY), 3)
        issued = await client.post(
            "/oauth/token", data={**form, "client_secret": oauth_app.client_secret}
        )
        assert issued.status_code == 200, issued.text
        # Errors that are not client authentication are not counted (nor refused).
        grant = await client.post("/oauth/token", data={**form, "grant_type": "password"})
        assert grant.json()["error"] == "unsupported_grant_type"


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_unauthenticated_per_min": 3}])
async def test_wrong_client_secrets_at_the_revoke_endpoint_are_counted(
    app, runtime, tenant, limiter
):
    oauth_app = await make_app(runtime)
    await authorize_app(runtime, oauth_app, tenant.id, ["contacts:read"])
    async with client_from(app, address()) as client:
        issued = await client_credentials(client, oauth_app, tenant.id)
        token = issued.json()["access_token"]
        form = {"token": token, "client_id": oauth_app.client_id}
        # A revoke that names no client authenticates none: neither counted nor refused.
        anonymous = await client.post("/oauth/revoke", data={"token": "hbo_at_unknown"})
        assert anonymous.status_code == 200 and "x-ratelimit-limit" not in anonymous.headers
        for remaining in (2, 1):
            response = await client.post(
                "/oauth/revoke", data={**form, "client_secret": "hbo_cs_wrong"}
            )
            assert response.status_code == 400 and response.json()["error"] == "invalid_client"
            assert limit_headers(response)[:2] == (3, remaining)
        basic = await client.post(
            "/oauth/revoke", data={"token": token}, auth=(oauth_app.client_id, "x")
        )
        assert basic.status_code == 401 and basic.json()["error"] == "invalid_client"
        assert limit_headers(basic)[:2] == (3, 0)
        assert_conforms(app.openapi(), "POST", "/oauth/revoke", basic)
        refused = await client.post("/oauth/revoke", data={**form, "client_secret": "wrong"})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert refused.headers["retry-after"].isdigit()
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.headers["cache-control"] == "no-store"
        assert_conforms(app.openapi(), "POST", "/oauth/revoke", refused)
        # One budget per address: the token endpoint and the API are refused too.
        again = await client.post(
            "/oauth/token",
            data={"grant_type": "client_credentials", **form, "client_secret": "wrong"},
        )
        assert again.status_code == 429
        assert_refused(await client.get("/v1/ping", headers=BAD_KEY), 3)
        # Nothing was revoked by the refused attempts; the right secret still revokes.
        assert (
            await client.get("/v1/ping", headers={"Authorization": f"Bearer {token}"})
        ).status_code == 200
        own = await client.post(
            "/oauth/revoke", data={**form, "client_secret": oauth_app.client_secret}
        )
        assert own.status_code == 200, own.text
    async with client_from(app, address()) as other:  # this address is over budget
        gone = await other.get("/v1/ping", headers={"Authorization": f"Bearer {token}"})
        assert_error(gone, 401, "unauthenticated")


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_unauthenticated_per_min": 3}])
async def test_failed_sign_ins_over_many_emails_are_counted_and_refused_before_hashing(
    app, runtime, tenant, limiter, monkeypatch
):
    await make_member(runtime, tenant.id)
    hashed = []
    real_verify = passwords.verify_all

    def verify(password, stored):  # the real check (one hash per attempt), recorded
        hashed.append(password)
        return real_verify(password, stored)

    monkeypatch.setattr(passwords, "verify_all", verify)
    async with client_from(app, address()) as client:
        for index in range(3):
            response = await sign_in(client, f"guess{index}@example.com", "wrong")
            assert response.status_code == 200 and "Incorrect email" in response.text
            assert limit_headers(response)[:2] == (3, 2 - index)
        assert len(hashed) == 3
        refused = await sign_in(client, "agent@example.com", PASSWORD)  # right, but late
        assert refused.status_code == 429 and "Too many sign-in attempts" in refused.text
        assert refused.headers["retry-after"].isdigit()
        assert len(hashed) == 3  # refused without hashing
        assert SESSION_COOKIE not in client.cookies
        assert_refused(await client.get("/v1/ping", headers=BAD_KEY), 3)

    async with client_from(app, address()) as member:
        for _ in range(4):  # successful sign-ins are never counted
            response = await sign_in(member, "agent@example.com", PASSWORD)
            assert response.status_code == 303
            member.cookies.clear()
        assert limit_headers(await member.get("/v1/ping", headers=BAD_KEY))[:2] == (3, 2)


@pytest.mark.parametrize(
    "settings_overrides",
    [{"rate_limit_unauthenticated_per_min": 2, "calls_provider_secret": CALLS_SECRET}],
)
async def test_health_docs_and_provider_callbacks_are_never_counted_nor_held_back(
    app, runtime, tenant, limiter
):
    await add_number(runtime, tenant)
    async with client_from(app, address()) as client:
        for _ in range(3):
            assert (await client.get("/healthz")).status_code == 200
            assert (await client.get("/v1/openapi.json")).status_code == 200
            unsigned = await callback(
                client,
                completed(),
                headers={"X-Homebase-Signature": "sha256=00", "Content-Type": "application/json"},
            )
            assert unsigned.status_code == 401
        response = await client.get("/v1/ping", headers=BAD_KEY)
        assert limit_headers(response)[:2] == (2, 1)  # only this one was counted
        await client.get("/v1/ping", headers=BAD_KEY)
        assert_refused(await client.get("/v1/ping", headers=BAD_KEY), 2)

        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get("/v1/docs")).status_code == 200
        signed = await callback(client, completed(provider_call_id="CA-over-budget"))
        assert signed.status_code in (200, 201), signed.text


@pytest.mark.parametrize("settings_overrides", [{"trusted_proxies": f"{PROXY}, 10.0.0.0/8"}])
async def test_forwarded_for_is_believed_only_from_a_trusted_peer(app, limiter):
    spoofer, first, second = address(), address(), address()

    async def remaining(peer: str, forwarded_for: str) -> int:
        async with client_from(app, peer) as client:
            response = await client.get(
                "/v1/ping", headers={**BAD_KEY, "X-Forwarded-For": forwarded_for}
            )
        assert_error(response, 401, "unauthenticated")
        return limit_headers(response)[1]

    # An untrusted peer's header is ignored: every request is charged to the peer.
    assert [await remaining(spoofer, address()) for _ in range(3)] == [59, 58, 57]
    # Through the proxy, each client has its own budget.
    assert await remaining(PROXY, first) == 59
    assert await remaining(PROXY, second) == 59
    # What the client wrote left of the proxy's entry proves nothing.
    assert await remaining(PROXY, f"{second}, {first}") == 58
    # A chain: the rightmost entry that is not a trusted proxy is the client.
    assert await remaining(PROXY, f"{spoofer}, {first}, 10.1.2.3") == 57
    # Garbage where the client should be: the nearest trusted hop is charged.
    inner_proxy = "10.{}.{}.{}".format(*random.sample(range(1, 255), 3))
    assert await remaining(inner_proxy, "not-an-address") == 59
    assert await remaining(inner_proxy, f"{first}, 999.1.2.3") == 58


def test_a_real_server_ignores_forwarded_for_unless_told_to_trust_the_peer(tmp_path):
    """`homebase serve` turns uvicorn's own proxy-header handling off: uvicorn would
    otherwise believe X-Forwarded-For from 127.0.0.1 and give every spoofed value its own
    budget. HOMEBASE_TRUSTED_PROXIES is unset here, so the peer is charged."""
    env = clean_env(
        HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/homebase.sqlite3",
        HOMEBASE_SECRET_KEY="unauthenticated-budget-test-secret",
    )
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, "--no-worker", log=log)
    try:
        wait_until_healthy([(started, log)])
        with httpx.Client(timeout=10, headers=BAD_KEY) as http:
            answers = [
                http.get(
                    f"{started.base_url}/v1/ping",
                    headers={"X-Forwarded-For": f"203.0.113.{index}"},
                )
                for index in (1, 2, 3)
            ]
        assert [r.status_code for r in answers] == [401, 401, 401]
        assert [limit_headers(r)[:2] for r in answers] == [(60, 59), (60, 58), (60, 57)]
    finally:
        stop(started.process)
