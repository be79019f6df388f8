"""A real OAuth client library against the service: Authlib's httpx client completes the
authorization code flow with PKCE (S256), refreshes, calls the API, and is cut off after a
family revocation and after the workspace revokes the app."""

import secrets
import warnings

import authlib.deprecate  # first: it installs an "always" filter that would override ours
import httpx

from homebase.db.tenancy import TenantSession
from homebase.oauth import service
from tests.console_support import form_value, make_member, member_browser
from tests.oauth_support import REDIRECT, make_app

with warnings.catch_warnings():  # Authlib announces its move to httpx2 on import
    warnings.simplefilter("ignore", authlib.deprecate.AuthlibDeprecationWarning)
    from authlib.integrations.httpx_client import AsyncOAuth2Client

BASE = "https://testserver"  # Authlib refuses plain-http token endpoints


def authlib_client(asgi_app, created, auth_method: str) -> AsyncOAuth2Client:
    return AsyncOAuth2Client(
        client_id=created.client_id,
        client_secret=created.client_secret,
        scope="contacts:read deals:read",
        redirect_uri=REDIRECT,
        code_challenge_method="S256",
        token_endpoint_auth_method=auth_method,
        transport=httpx.ASGITransport(app=asgi_app),
        base_url=BASE,
    )


async def approve_in_browser(browser: httpx.AsyncClient, authorization_url: str) -> str:
    """What the member does: opens the app's link, approves; returns where the browser
    is sent (the app's callback with code and state)."""
    page = await browser.get(authorization_url)
    assert page.status_code == 200, page.text
    decided = await browser.post(
        "/oauth/authorize",
        data={
            "csrf_token": form_value(page.text, "csrf_token"),
            "request": form_value(page.text, "request"),
            "decision": "approve",
        },
    )
    assert decided.status_code == 303, decided.text
    return decided.headers["location"]


async def complete_flow(oauth: AsyncOAuth2Client, browser: httpx.AsyncClient) -> dict:
    verifier = secrets.token_urlsafe(64)
    url, state = oauth.create_authorization_url(f"{BASE}/oauth/authorize", code_verifier=verifier)
    assert "code_challenge_method=S256" in url and "code_challenge=" in url
    callback = await approve_in_browser(browser, url)
    assert callback.startswith(REDIRECT) and f"state={state}" in callback
    return await oauth.fetch_token(
        f"{BASE}/oauth/token", authorization_response=callback, code_verifier=verifier
    )


async def test_authlib_completes_pkce_refreshes_and_is_cut_off(app, runtime, tenant):
    app_client = await make_app(runtime)
    member = await make_member(runtime, tenant.id)
    async with (
        member_browser(app, runtime, member) as browser,
        authlib_client(app, app_client, "client_secret_basic") as oauth,
    ):
        token = await complete_flow(oauth, browser)
        assert token["token_type"] == "Bearer" and token["scope"] == "contacts:read deals:read"
        pinged = await oauth.get("/v1/ping")
        assert pinged.status_code == 200, pinged.text
        assert pinged.json()["credential"] == "oauth_token"
        assert pinged.json()["tenant_id"] == tenant.id

        first_refresh = token["refresh_token"]
        refreshed = await oauth.refresh_token(f"{BASE}/oauth/token")
        assert refreshed["refresh_token"] != first_refresh
        assert refreshed["access_token"] != token["access_token"]
        assert (await oauth.get("/v1/contacts")).status_code == 200

        # Someone replays the retired refresh token: the whole family ends.
        replay = await oauth.post(
            f"{BASE}/oauth/token",
            auth=None,
            data={
                "grant_type": "refresh_token",
                "refresh_token": first_refresh,
                "client_id": app_client.client_id,
                "client_secret": app_client.client_secret,
            },
        )
        assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
        assert (await oauth.get("/v1/ping")).status_code == 401

        # A new authorization, then the workspace revokes the app.
        await complete_flow(oauth, browser)
        assert (await oauth.get("/v1/ping")).status_code == 200
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, tenant.id, clock=runtime.clock)
            assert await service.revoke_grant(session, app_client.client_id)
        assert (await oauth.get("/v1/ping")).status_code == 401


async def test_authlib_with_form_client_authentication_and_revocation(app, runtime, tenant):
    app_client = await make_app(runtime)
    member = await make_member(runtime, tenant.id)
    async with (
        member_browser(app, runtime, member) as browser,
        authlib_client(app, app_client, "client_secret_post") as oauth,
    ):
        token = await complete_flow(oauth, browser)
        refreshed = await oauth.refresh_token(f"{BASE}/oauth/token")
        assert refreshed["access_token"] != token["access_token"]
        revoked = await oauth.revoke_token(
            f"{BASE}/oauth/revoke",
            token=refreshed["refresh_token"],
            token_type_hint="refresh_token",
        )
        assert revoked.status_code == 200
        assert (await oauth.get("/v1/ping")).status_code == 401
