"""Helpers for the OAuth tests: apps, PKCE pairs, the consent dance, token requests."""

import base64
import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import httpx

from homebase.oauth import service, tokens
from homebase.runtime import Runtime
from tests.console_support import form_value

REDIRECT = "https://app.example.com/callback"
LOOPBACK = "http://127.0.0.1/callback"


@dataclass
class App:
    client_id: str
    client_secret: str
    redirect_uri: str = REDIRECT


def pkce_pair(verifier: str | None = None) -> tuple[str, str]:
    verifier = verifier or secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def make_app(
    runtime: Runtime, redirect_uris=(REDIRECT, LOOPBACK), name: str = "Acme CRM Sync"
) -> App:
    async with runtime.db.transaction() as connection:
        created = await service.create_client(
            connection, name, redirect_uris=list(redirect_uris), now=runtime.clock()
        )
    return App(created.client_id, created.client_secret, redirect_uris[0])


async def grant_code(
    runtime: Runtime,
    app: App,
    workspace_id: str,
    challenge: str,
    scopes=("contacts:read",),
    redirect_uri: str | None = None,
) -> str:
    """A code as the consent screen's approval makes it (the service functions)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        grant = await service.authorize_app(
            connection,
            workspace_id=workspace_id,
            client_id=app.client_id,
            scopes=list(scopes),
            now=now,
            authorized_by=None,
        )
        return await tokens.create_code(
            connection,
            client_id=app.client_id,
            grant=grant,
            user_id=None,
            redirect_uri=redirect_uri or app.redirect_uri,
            code_challenge=challenge,
            scopes=list(scopes),
            now=now,
        )


async def authorize_app(runtime: Runtime, app: App, workspace_id: str, scopes) -> None:
    async with runtime.db.transaction() as connection:
        await service.authorize_app(
            connection,
            workspace_id=workspace_id,
            client_id=app.client_id,
            scopes=list(scopes),
            now=runtime.clock(),
            authorized_by="admin",
        )


def authorize_params(
    app: App, challenge: str, *, scope: str = "contacts:read", state: str = "xyz-state", **overrides
) -> dict[str, str]:
    params = {
        "client_id": app.client_id,
        "redirect_uri": app.redirect_uri,
        "response_type": "code",
        "scope": scope,
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        **overrides,
    }
    return {name: value for name, value in params.items() if value is not None}


def redirect_query(response: httpx.Response) -> dict[str, str]:
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


async def consent(
    browser: httpx.AsyncClient, params: dict[str, str], decision: str = "approve"
) -> httpx.Response:
    """Shows the consent page for `params` and submits `decision`."""
    page = await browser.get("/oauth/authorize", params=params)
    assert page.status_code == 200, page.text
    return await browser.post(
        "/oauth/authorize",
        data={
            "csrf_token": form_value(page.text, "csrf_token"),
            "request": form_value(page.text, "request"),
            "decision": decision,
        },
    )


async def exchange(
    client: httpx.AsyncClient, app: App, the_code: str, verifier: str, **overrides
) -> httpx.Response:
    data = {
        "grant_type": "authorization_code",
        "client_id": app.client_id,
        "code": the_code,
        "redirect_uri": app.redirect_uri,
        "code_verifier": verifier,
        **overrides,
    }
    return await client.post("/oauth/token", data={k: v for k, v in data.items() if v is not None})


async def token_pair(
    runtime: Runtime,
    client: httpx.AsyncClient,
    app: App,
    workspace_id: str,
    scopes=("contacts:read",),
) -> dict:
    verifier, challenge = pkce_pair()
    code = await grant_code(runtime, app, workspace_id, challenge, scopes)
    response = await exchange(client, app, code, verifier)
    assert response.status_code == 200, response.text
    return response.json()


async def refresh(
    client: httpx.AsyncClient, app: App, refresh_token: str, **overrides
) -> httpx.Response:
    data = {
        "grant_type": "refresh_token",
        "client_id": app.client_id,
        "client_secret": app.client_secret,
        "refresh_token": refresh_token,
        **overrides,
    }
    return await client.post("/oauth/token", data={k: v for k, v in data.items() if v is not None})


async def client_credentials(
    client: httpx.AsyncClient, app: App, workspace_id: str
) -> httpx.Response:
    """The client-credentials grant with the app's own id and secret, for one workspace."""
    data = {
        "grant_type": "client_credentials",
        "client_id": app.client_id,
        "client_secret": app.client_secret,
        "tenant_id": workspace_id,
    }
    return await client.post("/oauth/token", data=data)


async def ping(client: httpx.AsyncClient, access_token: str, scheme: str = "Bearer"):
    return await client.get("/v1/ping", headers={"Authorization": f"{scheme} {access_token}"})


def assert_oauth_error(response: httpx.Response, error: str, status: int = 400) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "error_description"} and body["error"] == error, body
    assert body["error_description"]
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["pragma"] == "no-cache"
    return body
