"""The API side of OAuth access tokens: the principal, scopes, tenancy, the app rate-limit
bucket, expiry, and revocation (POST /oauth/revoke and the workspace revoking the app)."""

import asyncio

import httpx
import pytest
from sqlalchemy import text

from homebase.db.engine import Database
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.oauth import service, tokens
from homebase.oauth.errors import OAuthError
from homebase.oauth.tokens import ACCESS_TOKEN_LIFETIME
from homebase.ratelimit import RedisLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.oauth_support import (
    assert_oauth_error,
    authorize_app,
    client_credentials,
    exchange,
    grant_code,
    make_app,
    ping,
    pkce_pair,
    refresh,
    token_pair,
)
from tests.ratelimit.test_ratelimit import fresh_window
from tests.support import REDIS_URL, require_server, until


@pytest.fixture
async def app_client(runtime):
    return await make_app(runtime)


async def revoke(client, token: str, **extra):
    return await client.post("/oauth/revoke", data={"token": token, **extra})


async def test_access_token_resolves_to_the_workspace_principal(
    runtime, client, tenant, app_client
):
    pair = await token_pair(runtime, client, app_client, tenant.id, ("contacts:write",))
    for scheme in ("Bearer", "bearer", "token"):
        response = await ping(client, pair["access_token"], scheme)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["credential"] == "oauth_token" and body["tenant_id"] == tenant.id
        assert body["scopes"] == ["contacts:write"] and body["rate_limit_per_min"] == 300
        assert body["credential_id"].startswith("tok_")
        assert response.headers["x-ratelimit-limit"] == "300"


async def test_scopes_apply_with_their_implications(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id, ("contacts:write",))
    headers = {"Authorization": f"Bearer {pair['access_token']}"}
    assert (await client.get("/v1/contacts", headers=headers)).status_code == 200
    created = await client.post(
        "/v1/contacts", headers=headers, json={"first_name": "Ada", "phone": "+1 415 555 0100"}
    )
    assert created.status_code == 201, created.text
    denied = await client.get("/v1/deals", headers=headers)
    assert denied.status_code == 403
    assert denied.json()["error"]["details"]["missing_scope"] == "deals:read"


async def test_a_token_acts_only_on_its_workspace(
    runtime, client, tenant, other_tenant, app_client
):
    foreign = await other_tenant.post(
        "/v1/contacts", json={"first_name": "Elsewhere", "phone": "+1 415 555 0101"}
    )
    assert foreign.status_code == 201, foreign.text
    pair = await token_pair(runtime, client, app_client, tenant.id, ("contacts:read",))
    response = await client.get(
        f"/v1/contacts/{foreign.json()['id']}",
        headers={"Authorization": f"Bearer {pair['access_token']}"},
    )
    assert response.status_code == 404


async def test_unknown_and_expired_access_tokens_are_401(runtime, client, tenant, app_client):
    clock = FrozenClock()
    runtime.clock = clock
    pair = await token_pair(runtime, client, app_client, tenant.id)
    assert (await ping(client, "hbo_at_" + "x" * 43)).status_code == 401
    clock.advance(seconds=ACCESS_TOKEN_LIFETIME.total_seconds() - 1)
    assert (await ping(client, pair["access_token"])).status_code == 200
    clock.advance(seconds=2)
    response = await ping(client, pair["access_token"])
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthenticated"
    assert (await refresh(client, app_client, pair["refresh_token"])).status_code == 200


@pytest.mark.parametrize(
    "settings_overrides", [{"rate_limit_app_per_min": 3, "rate_limit_api_key_per_min": 2}]
)
async def test_rate_limit_bucket_is_per_app_per_workspace_and_apart_from_keys(
    runtime, client, tenant, other_tenant, app_client
):
    first = await token_pair(runtime, client, app_client, tenant.id)
    second = await token_pair(runtime, client, app_client, tenant.id)
    elsewhere = await token_pair(runtime, client, app_client, other_tenant.id)
    other_app = await token_pair(runtime, client, await make_app(runtime, name="B"), tenant.id)
    await fresh_window(10)  # the counts below must fall in one window
    for _ in range(2):
        assert (await tenant.get("/v1/ping")).status_code == 200
    assert (await tenant.get("/v1/ping")).status_code == 429  # the key's own bucket is spent
    statuses = [
        (await ping(client, token["access_token"])).status_code
        for token in (first, second, first, second)
    ]
    assert statuses == [200, 200, 200, 429]  # both tokens count against one bucket
    limited = await ping(client, first["access_token"])
    assert limited.status_code == 429 and limited.headers["retry-after"]
    assert (await ping(client, elsewhere["access_token"])).status_code == 200
    assert (await ping(client, other_app["access_token"])).status_code == 200


# Revocation


async def test_revoke_is_200_for_unknown_tokens_and_400_without_a_token(client):
    for token in ("hbo_at_nothing", "hbo_rt_nothing", "garbage"):
        response = await revoke(client, token)
        assert response.status_code == 200 and response.json() == {}
        assert response.headers["cache-control"] == "no-store"
    assert_oauth_error(await client.post("/oauth/revoke", data={}), "invalid_request")


async def test_revoke_ignores_repeated_unknown_parameters_and_refuses_repeated_known_ones(
    runtime, client, tenant, app_client
):
    """RFC 6749 3.1 (RFC 7009 2.1 uses its form rules): unrecognised parameters are
    ignored, repeated or not; a recognised one sent twice is invalid_request."""
    pair = await token_pair(runtime, client, app_client, tenant.id)
    form_type = {"Content-Type": "application/x-www-form-urlencoded"}
    twice = await client.post(
        "/oauth/revoke",
        headers=form_type,
        content=(f"token={pair['access_token']}&token={pair['access_token']}&x-extra=1&x-extra=2"),
    )
    described = assert_oauth_error(twice, "invalid_request")["error_description"]
    assert "token" in described and "x-extra" not in described
    assert (await ping(client, pair["access_token"])).status_code == 200  # not revoked
    ignored = await client.post(
        "/oauth/revoke",
        headers=form_type,
        content=(f"token={pair['access_token']}&x-extra=1&x-extra=2&x-extra="),
    )
    assert ignored.status_code == 200 and ignored.json() == {}
    assert (await ping(client, pair["access_token"])).status_code == 401


async def test_revoking_an_access_token_ends_only_that_token(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    other = await token_pair(runtime, client, app_client, tenant.id)
    assert (
        await revoke(client, pair["access_token"], token_type_hint="access_token")
    ).status_code == 200
    assert (await ping(client, pair["access_token"])).status_code == 401
    assert (await ping(client, other["access_token"])).status_code == 200
    assert (await refresh(client, app_client, pair["refresh_token"])).status_code == 200


async def test_revoking_a_refresh_token_ends_its_family(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    rotated = (await refresh(client, app_client, pair["refresh_token"])).json()
    assert (await revoke(client, rotated["refresh_token"])).status_code == 200
    for token in (pair, rotated):
        assert (await ping(client, token["access_token"])).status_code == 401
    assert_oauth_error(await refresh(client, app_client, rotated["refresh_token"]), "invalid_grant")


async def test_revoke_with_client_authentication(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    wrong = await revoke(
        client, pair["access_token"], client_id=app_client.client_id, client_secret="hbo_cs_wrong"
    )
    assert_oauth_error(wrong, "invalid_client")
    other = await make_app(runtime, name="Other")
    not_theirs = await revoke(
        client, pair["access_token"], client_id=other.client_id, client_secret=other.client_secret
    )
    assert not_theirs.status_code == 200
    assert (await ping(client, pair["access_token"])).status_code == 200
    own = await revoke(
        client,
        pair["access_token"],
        client_id=app_client.client_id,
        client_secret=app_client.client_secret,
    )
    assert own.status_code == 200
    assert (await ping(client, pair["access_token"])).status_code == 401


async def test_the_workspace_revoking_the_app_cuts_off_the_next_request(
    runtime, client, tenant, other_tenant, app_client
):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    elsewhere = await token_pair(runtime, client, app_client, other_tenant.id)
    assert (await ping(client, pair["access_token"])).status_code == 200
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        assert await service.revoke_grant(session, app_client.client_id)
        assert not await service.revoke_grant(session, "app_never")
    assert (await ping(client, pair["access_token"])).status_code == 401
    assert_oauth_error(await refresh(client, app_client, pair["refresh_token"]), "invalid_grant")
    assert (await ping(client, elsewhere["access_token"])).status_code == 200
    cc = await client_credentials(client, app_client, tenant.id)
    assert_oauth_error(cc, "invalid_grant")


async def test_a_code_issued_before_the_app_was_revoked_stays_dead_after_reapproval(
    runtime, client, tenant, app_client
):
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        assert await service.revoke_grant(session, app_client.client_id)
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read"])  # approved again
    assert_oauth_error(await exchange(client, app_client, code, verifier), "invalid_grant")


async def test_concurrent_refreshes_with_one_token_exactly_one_wins(
    runtime, client, tenant, app_client, backend
):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    responses = await asyncio.gather(
        *[refresh(client, app_client, pair["refresh_token"]) for _ in range(4)]
    )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200, 400, 400, 400], [r.text for r in responses]
    for response in responses:
        if response.status_code == 400:
            assert_oauth_error(response, "invalid_grant")


LOCK_WAITS = text(
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE wait_event_type = 'Lock' AND datname = current_database()"
)


async def test_the_refresh_race_is_decided_by_the_conditional_update(
    runtime, client, tenant, app_client, backend
):
    """Both transactions read the token as live; the second's UPDATE waits on the first's
    row lock and then finds it retired: it loses (and, being a reuse, ends the family)."""
    if backend != "postgres":
        pytest.skip("SQLite write transactions take the lock before reading (BEGIN IMMEDIATE)")
    pair = await token_pair(runtime, client, app_client, tenant.id)
    async with runtime.db.transaction(write=False) as connection:
        registered = await service.get_client(connection, app_client.client_id)
    now, refreshed, release = runtime.clock(), asyncio.Event(), asyncio.Event()

    async def refresh(first: bool) -> tokens.TokenSet | OAuthError:
        async with runtime.db.transaction() as connection:
            try:
                won = await tokens.refresh(
                    connection,
                    client=registered,
                    refresh_token=pair["refresh_token"],
                    scope=None,
                    now=now,
                )
            except OAuthError as error:
                return error  # (its writes, the family's end, commit: error.commit)
            if first:
                refreshed.set()
                await release.wait()  # holding the row lock
            return won

    winner = asyncio.create_task(refresh(True))
    await refreshed.wait()
    racing = asyncio.create_task(refresh(False))

    async def waiting_on_a_lock() -> bool:
        async with runtime.db.transaction(write=False) as connection:
            return bool(await connection.scalar(LOCK_WAITS))

    await until(waiting_on_a_lock, within=30, what="the second refresh waiting on the row lock")
    assert not racing.done(), "the second refresh did not wait for the first"
    release.set()
    won, lost = await winner, await racing
    assert isinstance(won, tokens.TokenSet), won
    assert isinstance(lost, OAuthError) and lost.error == "invalid_grant" and lost.commit
    assert (await ping(client, won.access_token)).status_code == 401  # the family ended


async def test_the_app_bucket_is_shared_between_instances_through_redis(
    runtime, client, tenant, database_url
):
    """Two instances on one database and one Redis: an app's tokens in a workspace count
    against one bucket wherever the requests land."""
    require_server("Redis", REDIS_URL, 6379)
    settings = runtime.settings.model_copy(update={"rate_limit_app_per_min": 3})
    instances = [
        Runtime(settings=settings, db=Database(database_url), limiter=RedisLimiter(REDIS_URL))
        for _ in range(2)
    ]
    clients = [
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(instance)), base_url="http://instance"
        )
        for instance in instances
    ]
    try:
        for _attempt in range(2):  # again if a minute window ended mid-way
            pair = await token_pair(runtime, client, await make_app(runtime), tenant.id)
            responses = [await ping(clients[n % 2], pair["access_token"]) for n in range(4)]
            if len({r.headers["x-ratelimit-reset"] for r in responses}) == 1:
                break
        assert [r.status_code for r in responses] == [200, 200, 200, 429]
        assert [r.headers["x-ratelimit-remaining"] for r in responses] == ["2", "1", "0", "0"]
    finally:
        for http, instance in zip(clients, instances, strict=True):
            await http.aclose()
            await instance.close()
