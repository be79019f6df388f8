"""GET /.well-known/oauth-authorization-server (RFC 8414): every value is what the endpoints
really do, the document passes Authlib's RFC 8414 checks, and Authlib's client configured
from nothing but its address completes a public client's code flow with PKCE (no secret),
calls the API and revokes its token."""

import warnings
from urllib.parse import parse_qs, urlsplit

import authlib.deprecate  # first: it installs an "always" filter that would override ours
import httpx
import pytest

from homebase.auth.scopes import Scope
from tests.console_support import make_member, member_browser
from tests.kit.test_openapi import assert_conforms
from tests.oauth.test_oauth_authlib import approve_in_browser
from tests.oauth_support import REDIRECT, assert_oauth_error, make_app

with warnings.catch_warnings():  # Authlib announces its move to httpx2 on import
    warnings.simplefilter("ignore", authlib.deprecate.AuthlibDeprecationWarning)
    from authlib.integrations.starlette_client import OAuth
    from authlib.oauth2.rfc8414 import AuthorizationServerMetadata

BASE = "https://testserver"  # Authlib refuses plain-http endpoints and issuers
PATH = "/.well-known/oauth-authorization-server"


@pytest.fixture
def settings_overrides() -> dict:
    return {"public_url": f"{BASE}/", "rate_limit_unauthenticated_per_min": 3}


async def test_the_document_states_the_endpoints_and_what_they_accept(app, client):
    response = await client.get(PATH)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert "max-age" in response.headers["cache-control"]
    document = response.json()
    assert document["issuer"] == BASE  # HOMEBASE_PUBLIC_URL, without its trailing slash
    assert document["authorization_endpoint"] == f"{BASE}/oauth/authorize"
    assert document["token_endpoint"] == f"{BASE}/oauth/token"
    assert document["revocation_endpoint"] == f"{BASE}/oauth/revoke"
    assert "introspection_endpoint" not in document  # the service has none
    assert document["response_types_supported"] == ["code"]
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert document["scopes_supported"] == [scope.value for scope in Scope]
    assert set(document["token_endpoint_auth_methods_supported"]) == {
        "client_secret_basic",
        "client_secret_post",
        "none",
    }
    assert document["authorization_response_iss_parameter_supported"] is True
    AuthorizationServerMetadata(document).validate()  # RFC 8414's rules, as Authlib reads them
    assert_conforms(app.openapi(), "GET", PATH, response)


async def test_each_grant_type_it_names_is_one_the_token_endpoint_takes(client):
    document = (await client.get(PATH)).json()
    assert set(document["grant_types_supported"]) == {
        "authorization_code",
        "refresh_token",
        "client_credentials",
    }
    for grant_type in document["grant_types_supported"]:
        answer = await client.post("/oauth/token", data={"grant_type": grant_type})
        assert answer.json()["error"] != "unsupported_grant_type", grant_type
    other = await client.post("/oauth/token", data={"grant_type": "password"})
    assert_oauth_error(other, "unsupported_grant_type")


async def test_it_is_open_and_counted_against_no_budget(client):
    """Fetched more often than the address's unauthenticated budget allows failures."""
    for _ in range(5):
        response = await client.get(PATH, headers={"Authorization": "token hbk_wrong"})
        assert response.status_code == 200
        assert "x-ratelimit-remaining" not in response.headers
    failed = await client.get("/v1/ping", headers={"Authorization": "token hbk_wrong"})
    assert failed.status_code == 401 and failed.headers["x-ratelimit-remaining"] == "2"


def test_the_openapi_document_describes_it(app):
    operation = app.openapi()["paths"][PATH]["get"]
    assert operation["operationId"] == "get_authorization_server_metadata"
    assert operation["security"] == []
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/AuthorizationServerMetadata"}
    component = app.openapi()["components"]["schemas"]["AuthorizationServerMetadata"]
    assert component["examples"] and "issuer" in component["required"]


async def test_authlib_configured_from_the_document_runs_a_public_pkce_flow(app, runtime, tenant):
    """An app with no secret in its hands (a single-page app, a mobile app): the code
    exchange needs only the PKCE verifier; revocation needs no secret either."""
    app_client = await make_app(runtime)
    member = await make_member(runtime, tenant.id)
    transport = httpx.ASGITransport(app=app)
    homebase = OAuth().register(
        "homebase",
        client_id=app_client.client_id,
        server_metadata_url=f"{BASE}{PATH}",
        client_kwargs={
            "scope": "contacts:read",
            "code_challenge_method": "S256",
            "token_endpoint_auth_method": "none",
            "revocation_endpoint_auth_method": "none",
            "transport": transport,
        },
    )
    started = await homebase.create_authorization_url(REDIRECT)
    assert started["url"].startswith(f"{BASE}/oauth/authorize?")
    assert "code_challenge_method=S256" in started["url"]
    async with member_browser(app, runtime, member) as browser:
        callback = await approve_in_browser(browser, started["url"])
    returned = {name: values[0] for name, values in parse_qs(urlsplit(callback).query).items()}
    assert returned["state"] == started["state"]
    assert returned["iss"] == homebase.server_metadata["issuer"]  # RFC 9207

    token = await homebase.fetch_access_token(
        redirect_uri=REDIRECT, code=returned["code"], code_verifier=started["code_verifier"]
    )
    assert token["token_type"] == "Bearer" and token["scope"] == "contacts:read"
    pinged = await homebase.get(f"{BASE}/v1/ping", token=token)
    assert pinged.status_code == 200, pinged.text
    assert pinged.json()["tenant_id"] == tenant.id

    # Refreshing needs the secret this client does not have (docs/oauth.md).
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as plain:
        refused = await plain.post(
            "/oauth/token",
            data={
                "grant_type": "refresh_token",
                "client_id": app_client.client_id,
                "refresh_token": token["refresh_token"],
            },
        )
        assert_oauth_error(refused, "invalid_client", 400)
        revoked = await plain.post(
            homebase.server_metadata["revocation_endpoint"],
            data={"token": token["access_token"], "client_id": app_client.client_id},
        )
        assert revoked.status_code == 200, revoked.text
    assert (await homebase.get(f"{BASE}/v1/ping", token=token)).status_code == 401
