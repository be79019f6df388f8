"""POST /oauth/token: the authorization_code exchange with PKCE, client authentication,
refresh rotation and family revocation, client_credentials (SQLite and PostgreSQL)."""

import asyncio
import base64
from datetime import timedelta
from urllib.parse import quote_plus

import pytest

from homebase.kit.clock import FrozenClock
from homebase.oauth.tokens import CODE_LIFETIME, REFRESH_TOKEN_LIFETIME
from tests.oauth_support import (
    LOOPBACK,
    assert_oauth_error,
    authorize_app,
    exchange,
    grant_code,
    make_app,
    ping,
    pkce_pair,
    refresh,
    token_pair,
)
from tests.test_routes import build_offline_app


@pytest.fixture
async def app_client(runtime):
    return await make_app(runtime)


def basic(client_id: str, secret: str) -> dict[str, str]:
    raw = f"{quote_plus(client_id)}:{quote_plus(secret)}".encode()
    return {"Authorization": "Basic " + base64.b64encode(raw).decode()}


async def test_code_exchange_issues_prefixed_tokens_with_no_store(
    runtime, client, tenant, app_client
):
    verifier, challenge = pkce_pair()
    code = await grant_code(
        runtime, app_client, tenant.id, challenge, ("contacts:write", "deals:read")
    )
    assert code.startswith("hbo_code_")
    response = await exchange(client, app_client, code, verifier)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["pragma"] == "no-cache"
    body = response.json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["access_token"].startswith("hbo_at_")
    assert body["refresh_token"].startswith("hbo_rt_")
    assert app_client.client_secret.startswith("hbo_cs_")
    assert body["scope"] == "contacts:write deals:read" and body["tenant_id"] == tenant.id


async def test_codes_tokens_and_secrets_are_stored_only_as_hashes(
    runtime, client, tenant, app_client
):
    from sqlalchemy import select

    from homebase.kit.crypto import token_hash
    from homebase.models import OAuthClient, OAuthCode, OAuthToken

    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    body = (await exchange(client, app_client, code, verifier)).json()
    values = {
        "code": code,
        "access": body["access_token"],
        "refresh": body["refresh_token"],
        "secret": app_client.client_secret,
    }
    async with runtime.db.transaction(write=False) as connection:
        rows = {
            name: [tuple(row) for row in await connection.execute(select(table))]
            for name, table in (
                ("clients", OAuthClient.__table__),
                ("codes", OAuthCode.__table__),
                ("tokens", OAuthToken.__table__),
            )
        }
    stored = repr(rows)
    for value in values.values():
        assert value not in stored and token_hash(value) in stored


async def test_a_client_that_also_authenticates_is_accepted_a_wrong_secret_is_not(
    runtime, client, tenant, app_client
):
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    wrong = await exchange(client, app_client, code, verifier, client_secret="hbo_cs_wrong")
    assert_oauth_error(wrong, "invalid_client")
    right = await exchange(
        client, app_client, code, verifier, client_secret=app_client.client_secret
    )
    assert right.status_code == 200, right.text


async def test_wrong_verifier_is_invalid_grant(runtime, client, tenant, app_client):
    _, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    other_verifier, _ = pkce_pair()
    assert_oauth_error(await exchange(client, app_client, code, other_verifier), "invalid_grant")


async def test_verifier_length_bounds(runtime, client, tenant, app_client):
    for length, ok in ((42, False), (43, True), (128, True), (129, False)):
        verifier, challenge = pkce_pair("a" * length)
        code = await grant_code(runtime, app_client, tenant.id, challenge)
        response = await exchange(client, app_client, code, verifier)
        if ok:
            assert response.status_code == 200, (length, response.text)
        else:
            assert_oauth_error(response, "invalid_request")


async def test_verifier_with_characters_outside_unreserved_is_invalid_request(
    runtime, client, tenant, app_client
):
    verifier, challenge = pkce_pair("a" * 42 + "+")
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    assert_oauth_error(await exchange(client, app_client, code, verifier), "invalid_request")


async def test_code_reuse_is_refused_and_revokes_what_the_first_issued(
    runtime, client, tenant, app_client
):
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    first = (await exchange(client, app_client, code, verifier)).json()
    refreshed = (await refresh(client, app_client, first["refresh_token"])).json()
    assert (await ping(client, refreshed["access_token"])).status_code == 200
    assert_oauth_error(await exchange(client, app_client, code, verifier), "invalid_grant")
    for access in (first["access_token"], refreshed["access_token"]):
        assert (await ping(client, access)).status_code == 401
    assert_oauth_error(
        await refresh(client, app_client, refreshed["refresh_token"]), "invalid_grant"
    )


async def test_expired_code_is_invalid_grant(runtime, client, tenant, app_client):
    clock = FrozenClock()
    runtime.clock = clock
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    assert CODE_LIFETIME <= timedelta(minutes=10)
    clock.advance(seconds=CODE_LIFETIME.total_seconds() + 1)
    assert_oauth_error(await exchange(client, app_client, code, verifier), "invalid_grant")


async def test_code_just_inside_its_lifetime_works(runtime, client, tenant, app_client):
    clock = FrozenClock()
    runtime.clock = clock
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    clock.advance(seconds=CODE_LIFETIME.total_seconds() - 1)
    assert (await exchange(client, app_client, code, verifier)).status_code == 200


async def test_redirect_uri_must_match_the_codes_exactly(runtime, client, tenant, app_client):
    verifier, challenge = pkce_pair()
    code = await grant_code(
        runtime, app_client, tenant.id, challenge, redirect_uri="http://127.0.0.1:4711/callback"
    )
    other_port = await exchange(
        client, app_client, code, verifier, redirect_uri="http://127.0.0.1:4712/callback"
    )
    assert_oauth_error(other_port, "invalid_grant")
    assert LOOPBACK != "http://127.0.0.1:4711/callback"


async def test_code_of_another_client_is_invalid_grant(runtime, client, tenant, app_client):
    other = await make_app(runtime, name="Other App")
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    response = await exchange(client, other, code, verifier, redirect_uri=app_client.redirect_uri)
    assert_oauth_error(response, "invalid_grant")
    assert (await exchange(client, app_client, code, verifier)).status_code == 200


async def test_each_missing_parameter_is_invalid_request(runtime, client, tenant, app_client):
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    for drop in ("grant_type", "code", "redirect_uri", "code_verifier", "client_id"):
        response = await exchange(client, app_client, code, verifier, **{drop: None})
        assert drop in assert_oauth_error(response, "invalid_request")["error_description"]
    # None of these spent the code.
    assert (await exchange(client, app_client, code, verifier)).status_code == 200


async def test_form_encoding_is_required_and_parameters_not_repeated(client, app_client):
    as_json = await client.post("/oauth/token", json={"grant_type": "client_credentials"})
    assert_oauth_error(as_json, "invalid_request")
    repeated = await client.post(
        "/oauth/token",
        content="grant_type=client_credentials&grant_type=refresh_token",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert "grant_type" in assert_oauth_error(repeated, "invalid_request")["error_description"]
    unknown = await client.post("/oauth/token", data={"grant_type": "password"})
    assert_oauth_error(unknown, "unsupported_grant_type")


async def test_repeated_unknown_parameters_are_ignored_known_ones_refused(
    runtime, client, tenant, app_client
):
    """RFC 6749 3.1: unrecognised parameters are ignored, even repeated; a recognised one
    must not be repeated."""
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read"])
    form = (
        f"grant_type=client_credentials&client_id={quote_plus(app_client.client_id)}"
        f"&client_secret={quote_plus(app_client.client_secret)}"
    )
    form_type = {"Content-Type": "application/x-www-form-urlencoded"}
    extra = await client.post(
        "/oauth/token", content=form + "&x-extra=1&x-extra=2&x-extra=", headers=form_type
    )
    assert extra.status_code == 200, extra.text
    assert (await ping(client, extra.json()["access_token"])).status_code == 200
    twice = await client.post(
        "/oauth/token",
        content=form + "&x-extra=1&x-extra=2&scope=contacts:read&scope=contacts:read",
        headers=form_type,
    )
    described = assert_oauth_error(twice, "invalid_request")["error_description"]
    assert "scope" in described and "x-extra" not in described


# Client authentication


async def test_basic_and_form_secret_together_is_invalid_request(
    runtime, client, tenant, app_client
):
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read"])
    response = await client.post(
        "/oauth/token",
        headers=basic(app_client.client_id, app_client.client_secret),
        data={"grant_type": "client_credentials", "client_secret": app_client.client_secret},
    )
    assert_oauth_error(response, "invalid_request")


async def test_basic_with_urlencoded_specials_in_the_secret(runtime, client, tenant):
    app = await make_app(runtime)
    # A secret with characters that form-urlencoding changes (the RFC's 2.3.1 rule).
    from sqlalchemy import update

    from homebase.kit.crypto import token_hash
    from homebase.models import OAuthClient

    special = "hbo_cs_a+b c:d%e/f=g&h"
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(OAuthClient.__table__)
            .where(OAuthClient.__table__.c.id == app.client_id)
            .values(secret_hash=token_hash(special))
        )
    await authorize_app(runtime, app, tenant.id, ["contacts:read"])
    ok = await client.post(
        "/oauth/token",
        headers=basic(app.client_id, special),
        data={"grant_type": "client_credentials"},
    )
    assert ok.status_code == 200, ok.text
    raw = base64.b64encode(f"{app.client_id}:{special}".encode()).decode()
    unencoded = await client.post(
        "/oauth/token",
        headers={"Authorization": f"Basic {raw}"},
        data={"grant_type": "client_credentials"},
    )
    body = assert_oauth_error(unencoded, "invalid_client", 401)
    assert body and unencoded.headers["www-authenticate"].startswith("Basic")


async def test_wrong_basic_secret_is_401_with_a_basic_challenge(client, app_client):
    response = await client.post(
        "/oauth/token",
        headers=basic(app_client.client_id, "nope"),
        data={"grant_type": "client_credentials"},
    )
    assert_oauth_error(response, "invalid_client", 401)
    assert response.headers["www-authenticate"] == 'Basic realm="homebase"'
    form = await client.post(
        "/oauth/token",
        data={
            "grant_type": "client_credentials",
            "client_id": app_client.client_id,
            "client_secret": "nope",
        },
    )
    assert_oauth_error(form, "invalid_client", 400)


# Refresh


async def test_refresh_rotates_and_a_retired_token_revokes_the_family(
    runtime, client, tenant, app_client
):
    first = await token_pair(runtime, client, app_client, tenant.id)
    second_response = await refresh(client, app_client, first["refresh_token"])
    assert second_response.status_code == 200, second_response.text
    assert second_response.headers["cache-control"] == "no-store"
    second = second_response.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert second["access_token"] != first["access_token"]
    third = (await refresh(client, app_client, second["refresh_token"])).json()
    assert (await ping(client, third["access_token"])).status_code == 200

    replay = await refresh(client, app_client, first["refresh_token"])
    assert_oauth_error(replay, "invalid_grant")
    for token in (first, second, third):
        assert (await ping(client, token["access_token"])).status_code == 401
    assert_oauth_error(await refresh(client, app_client, third["refresh_token"]), "invalid_grant")


async def test_a_refresh_token_expires_after_its_lifetime(runtime, client, tenant, app_client):
    clock = FrozenClock()
    runtime.clock = clock
    first = await token_pair(runtime, client, app_client, tenant.id)
    clock.advance(seconds=REFRESH_TOKEN_LIFETIME.total_seconds() - 1)
    second = await refresh(client, app_client, first["refresh_token"])
    assert second.status_code == 200, second.text  # the new one lives from its own issue
    clock.advance(seconds=REFRESH_TOKEN_LIFETIME.total_seconds())
    assert_oauth_error(
        await refresh(client, app_client, second.json()["refresh_token"]), "invalid_grant"
    )


async def test_concurrent_redemptions_of_one_code_issue_tokens_once(
    runtime, client, tenant, app_client, backend
):
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app_client, tenant.id, challenge)
    responses = await asyncio.gather(
        *[exchange(client, app_client, code, verifier) for _ in range(3)]
    )
    assert sorted(r.status_code for r in responses) == [200, 400, 400], [r.text for r in responses]
    for response in responses:
        if response.status_code == 400:
            assert_oauth_error(response, "invalid_grant")
    # The later redemptions were reuse: what the first one issued is revoked.
    won = next(r for r in responses if r.status_code == 200).json()
    assert (await ping(client, won["access_token"])).status_code == 401


async def test_refresh_needs_client_authentication(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id)
    no_secret = await refresh(client, app_client, pair["refresh_token"], client_secret=None)
    assert_oauth_error(no_secret, "invalid_client")
    other = await make_app(runtime, name="Other")
    foreign = await refresh(client, other, pair["refresh_token"])
    assert_oauth_error(foreign, "invalid_grant")
    via_basic = await client.post(
        "/oauth/token",
        headers=basic(app_client.client_id, app_client.client_secret),
        data={"grant_type": "refresh_token", "refresh_token": pair["refresh_token"]},
    )
    assert via_basic.status_code == 200, via_basic.text


async def test_refresh_may_narrow_scopes_but_never_widen(runtime, client, tenant, app_client):
    pair = await token_pair(runtime, client, app_client, tenant.id, ("contacts:read", "deals:read"))
    wider = await refresh(client, app_client, pair["refresh_token"], scope="deals:write")
    assert_oauth_error(wider, "invalid_scope")
    narrower = await refresh(client, app_client, pair["refresh_token"], scope="deals:read")
    assert narrower.status_code == 200 and narrower.json()["scope"] == "deals:read"
    assert (await ping(client, narrower.json()["access_token"])).json()["scopes"] == ["deals:read"]
    # RFC 6749 6: the new refresh token keeps the presented one's scope; only the access
    # token was narrowed, so the next refresh may ask for everything again.
    again = await refresh(client, app_client, narrower.json()["refresh_token"])
    assert again.status_code == 200 and again.json()["scope"] == "contacts:read deals:read"


# Client credentials


async def test_client_credentials_needs_an_authorizing_workspace(
    runtime, client, tenant, other_tenant, app_client
):
    form = {
        "grant_type": "client_credentials",
        "client_id": app_client.client_id,
        "client_secret": app_client.client_secret,
    }
    assert_oauth_error(await client.post("/oauth/token", data=form), "invalid_grant")
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read", "deals:read"])
    alone = await client.post("/oauth/token", data=form)
    assert alone.status_code == 200, alone.text
    body = alone.json()
    assert "refresh_token" not in body and body["tenant_id"] == tenant.id
    assert body["scope"] == "contacts:read deals:read"
    pinged = (await ping(client, body["access_token"])).json()
    assert pinged["tenant_id"] == tenant.id and pinged["credential"] == "oauth_token"

    unauthorized = await client.post("/oauth/token", data={**form, "tenant_id": other_tenant.id})
    assert_oauth_error(unauthorized, "invalid_grant")
    unknown = await client.post("/oauth/token", data={**form, "tenant_id": "wsp_nope"})
    assert_oauth_error(unknown, "invalid_grant")


async def test_client_credentials_with_two_workspaces_needs_tenant_id(
    runtime, client, tenant, other_tenant, app_client
):
    form = {
        "grant_type": "client_credentials",
        "client_id": app_client.client_id,
        "client_secret": app_client.client_secret,
    }
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read"])
    await authorize_app(runtime, app_client, other_tenant.id, ["deals:read"])
    assert_oauth_error(await client.post("/oauth/token", data=form), "invalid_request")
    chosen = await client.post("/oauth/token", data={**form, "tenant_id": other_tenant.id})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["tenant_id"] == other_tenant.id
    assert chosen.json()["scope"] == "deals:read"
    subset = await client.post(
        "/oauth/token", data={**form, "tenant_id": tenant.id, "scope": "deals:read"}
    )
    assert_oauth_error(subset, "invalid_scope")


async def test_client_credentials_needs_the_secret(runtime, client, tenant, app_client):
    await authorize_app(runtime, app_client, tenant.id, ["contacts:read"])
    response = await client.post(
        "/oauth/token", data={"grant_type": "client_credentials", "client_id": app_client.client_id}
    )
    assert_oauth_error(response, "invalid_client")


def test_the_openapi_document_describes_the_oauth_endpoints():
    document = build_offline_app().openapi()
    form = "application/x-www-form-urlencoded"
    for path, required in (("/oauth/token", ["grant_type"]), ("/oauth/revoke", ["token"])):
        operation = document["paths"][path]["post"]
        assert operation["security"] == [] and operation["summary"]
        body = operation["requestBody"]["content"][form]["schema"]
        assert body["required"] == required and body["examples"]
        assert {"200", "400", "401"} <= set(operation["responses"])
    schemas = document["components"]["schemas"]
    assert {"access_token", "token_type", "expires_in", "scope"} <= set(
        schemas["TokenResponse"]["required"]
    )
    assert schemas["OAuthErrorBody"]["required"] == ["error", "error_description"]
    flows = document["components"]["securitySchemes"]["OAuth2"]["flows"]
    assert flows["authorizationCode"]["tokenUrl"] == "/oauth/token"
    assert "contacts:read" in flows["clientCredentials"]["scopes"]


@pytest.mark.parametrize(
    "form, basic",
    [
        (
            {"grant_type": "client_credentials", "client_id": "app_\x00x", "client_secret": "s"},
            None,
        ),
        ({"grant_type": "refresh_token", "refresh_token": "r\x00"}, ("app_1", "s")),
        ({"grant_type": "client_credentials"}, ("app_\x00x", "s")),
    ],
    ids=["form-client-id", "form-refresh-token", "basic-client-id"],
)
async def test_a_parameter_holding_nul_is_refused_before_any_lookup(client, form, basic):
    """kit/nul.py: PostgreSQL cannot compare U+0000 (it was a 500 there)."""
    response = await client.post("/oauth/token", data=form, auth=basic)
    assert response.status_code in (400, 401), response.text
    assert response.json()["error"] == (
        "invalid_client" if basic and "\x00" in basic[0] else "invalid_request"
    )
    if response.json()["error"] == "invalid_request":
        assert "must not contain U+0000" in response.json()["error_description"]
