"""GET/POST /oauth/authorize: validation order (error page vs redirect), redirect URI
matching, PKCE parameters, state, sign-in, the consent page, approve, deny and CSRF."""

from urllib.parse import parse_qs, urlsplit

import pytest

from homebase.db.tenancy import TenantSession
from homebase.oauth import service
from tests.console_support import form_value, make_member, member_browser
from tests.oauth_support import (
    LOOPBACK,
    REDIRECT,
    assert_oauth_error,
    authorize_params,
    consent,
    exchange,
    make_app,
    ping,
    pkce_pair,
    redirect_query,
)


@pytest.fixture
async def app_client(runtime):
    return await make_app(
        runtime,
        (
            REDIRECT,
            LOOPBACK,
            "http://[::1]/cb",
            "https://app.example.com/q?tenant=1",
            "http://localhost:3000/cb",
        ),
        name="Acme <b>CRM</b>",
    )


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id, email="owner@example.com")


@pytest.fixture
async def browser(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def assert_error_page(response, status: int = 400):
    assert response.status_code == status, response.text
    assert "location" not in response.headers
    assert response.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


# Never redirected: unknown client, unregistered redirect_uri


BAD_CLIENT_OR_REDIRECT = [
    {"client_id": "app_unknown"},
    {"client_id": None},
    {"redirect_uri": "https://evil.example.com/callback"},
    {"redirect_uri": None},
    {"redirect_uri": "https://app.example.com:8443/callback"},  # non-loopback port differs
    {"redirect_uri": "http://app.example.com/callback"},  # scheme differs
    {"redirect_uri": "https://app.example.com/callback/x"},  # path differs
    {"redirect_uri": "https://app.example.com/q?tenant=2"},  # query differs
    {"redirect_uri": "https://app.example.com/q"},  # query missing
    {"redirect_uri": "http://localhost:3001/cb"},  # localhost is not an IP literal
    {"redirect_uri": "http://127.0.0.1:99999/callback"},  # not a port
    {"redirect_uri": "https://app.example.com/callback#frag"},
]


async def test_bad_client_or_redirect_uri_is_an_error_page_never_a_redirect(browser, app_client):
    _, challenge = pkce_pair()
    for override in BAD_CLIENT_OR_REDIRECT:
        params = authorize_params(app_client, challenge, **override)
        response = await browser.get("/oauth/authorize", params=params)
        assert response.status_code == 400, override
        assert_error_page(response)


async def test_error_page_even_when_every_other_parameter_is_wrong_too(browser, app_client):
    response = await browser.get(
        "/oauth/authorize",
        params={
            "client_id": app_client.client_id,
            "redirect_uri": "https://evil.example.com/",
            "response_type": "token",
            "code_challenge_method": "plain",
        },
    )
    assert_error_page(response)


async def test_loopback_matches_on_any_port_and_exact_uris_match(browser, app_client):
    _, challenge = pkce_pair()
    for redirect_uri in (
        "http://127.0.0.1:51234/callback",
        "http://127.0.0.1/callback",
        "http://[::1]:8080/cb",
        "https://app.example.com/q?tenant=1",
    ):
        page = await browser.get(
            "/oauth/authorize",
            params=authorize_params(app_client, challenge, redirect_uri=redirect_uri),
        )
        assert page.status_code == 200, (redirect_uri, page.text)
        assert "Approve" in page.text


# Redirected with an error code and the untouched state


REQUEST_ERRORS = [
    ({"response_type": "token"}, "unsupported_response_type"),
    ({"response_type": None}, "invalid_request"),
    ({"scope": "contacts:read spaceships:fly"}, "invalid_scope"),
    ({"scope": None}, "invalid_scope"),
    ({"code_challenge": None}, "invalid_request"),
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"code_challenge_method": None}, "invalid_request"),
    ({"code_challenge": "too-short"}, "invalid_request"),
    ({"code_challenge": "a" * 42 + "="}, "invalid_request"),
]


async def test_request_errors_redirect_with_error_and_state(browser, app_client):
    _, challenge = pkce_pair()
    for override, error in REQUEST_ERRORS:
        response = await browser.get(
            "/oauth/authorize", params=authorize_params(app_client, challenge, **override)
        )
        assert response.headers.get("location", "").startswith(REDIRECT + "?"), override
        query = redirect_query(response)
        assert (query["error"], query["state"]) == (error, "xyz-state"), override
        assert "code" not in query


async def test_a_parameter_sent_twice_is_invalid_request(browser, app_client):
    _, challenge = pkce_pair()
    params = list(authorize_params(app_client, challenge).items()) + [("scope", "deals:read")]
    assert (
        redirect_query(await browser.get("/oauth/authorize", params=params))["error"]
        == "invalid_request"
    )


async def test_not_signed_in_goes_to_sign_in_and_back(client, app_client):
    _, challenge = pkce_pair()
    params = authorize_params(app_client, challenge)
    response = await client.get("/oauth/authorize", params=params)
    assert response.status_code == 303
    location = urlsplit(response.headers["location"])
    assert location.path == "/console/login"
    back = parse_qs(location.query)["next"][0]
    assert back.startswith("/oauth/authorize?")
    assert {k: v[0] for k, v in parse_qs(urlsplit(back).query).items()} == params


# The consent page


async def test_consent_page_names_the_app_and_each_scope_in_plain_words(browser, app_client):
    _, challenge = pkce_pair()
    page = await browser.get(
        "/oauth/authorize",
        params=authorize_params(app_client, challenge, scope="contacts:read messages:send"),
    )
    assert page.status_code == 200
    assert "Acme &lt;b&gt;CRM&lt;/b&gt;" in page.text and "<b>CRM</b>" not in page.text
    assert "See contacts and their details" in page.text
    assert "Send texts and emails" in page.text
    assert "Read texts and emails" not in page.text  # only what was asked
    # Approve is the primary button, Deny a secondary one (style.css): not look-alikes.
    assert 'name="decision" value="approve" class="primary">Approve<' in page.text
    assert 'name="decision" value="deny" class="secondary">Deny<' in page.text
    assert form_value(page.text, "csrf_token")
    assert page.headers["cache-control"] == "no-store"
    assert page.headers["x-frame-options"] == "DENY"
    assert "form-action" not in page.headers["content-security-policy"]


async def test_approve_redirects_with_code_and_untouched_state(
    runtime, client, browser, tenant, app_client
):
    verifier, challenge = pkce_pair()
    state = "a b&c=d/é+%2F?#"
    params = authorize_params(
        app_client,
        challenge,
        scope="contacts:write deals:read",
        state=state,
        redirect_uri="http://127.0.0.1:4711/callback",
    )
    response = await consent(browser, params)
    assert response.headers["location"].startswith("http://127.0.0.1:4711/callback?")
    assert response.headers["cache-control"] == "no-store"
    query = redirect_query(response)
    assert query["state"] == state and query["iss"] == "http://127.0.0.1:8000"  # the issuer
    token = await exchange(
        client, app_client, query["code"], verifier, redirect_uri="http://127.0.0.1:4711/callback"
    )
    assert token.status_code == 200, token.text
    assert token.json()["tenant_id"] == tenant.id
    async with runtime.db.transaction() as connection:
        grants = await service.list_workspace_grants(TenantSession(connection, tenant.id))
    assert [(g["client_id"], g["scopes"]) for g in grants] == [
        (app_client.client_id, ["contacts:write", "deals:read"])
    ]
    assert (await ping(client, token.json()["access_token"])).json()["scopes"] == [
        "contacts:write",
        "deals:read",
    ]


async def test_redirect_uri_with_a_query_keeps_it(browser, app_client):
    _, challenge = pkce_pair()
    response = await consent(
        browser,
        authorize_params(app_client, challenge, redirect_uri="https://app.example.com/q?tenant=1"),
    )
    assert response.headers["location"].startswith("https://app.example.com/q?tenant=1&")


async def test_deny_returns_access_denied_and_grants_nothing(runtime, browser, tenant, app_client):
    _, challenge = pkce_pair()
    response = await consent(browser, authorize_params(app_client, challenge), "deny")
    query = redirect_query(response)
    assert query["error"] == "access_denied" and query["state"] == "xyz-state"
    assert "code" not in query
    async with runtime.db.transaction() as connection:
        assert await service.list_workspace_grants(TenantSession(connection, tenant.id)) == []


async def test_approval_extends_an_existing_grant(runtime, browser, tenant, app_client):
    for scope in ("contacts:read", "deals:read"):
        _, challenge = pkce_pair()
        redirect_query(await consent(browser, authorize_params(app_client, challenge, scope=scope)))
    async with runtime.db.transaction() as connection:
        grants = await service.list_workspace_grants(TenantSession(connection, tenant.id))
    assert grants[0]["scopes"] == ["contacts:read", "deals:read"] and len(grants) == 1


async def test_missing_or_wrong_csrf_is_refused(runtime, browser, tenant, app_client):
    _, challenge = pkce_pair()
    page = await browser.get("/oauth/authorize", params=authorize_params(app_client, challenge))
    data = {"request": form_value(page.text, "request"), "decision": "approve"}
    assert_error_page(await browser.post("/oauth/authorize", data=data), 403)
    forged = {**data, "csrf_token": "forged"}
    assert_error_page(await browser.post("/oauth/authorize", data=forged), 403)
    async with runtime.db.transaction() as connection:
        assert await service.list_workspace_grants(TenantSession(connection, tenant.id)) == []


async def test_the_signed_request_cannot_be_altered_or_moved_to_another_session(
    app, runtime, browser, tenant, member, app_client
):
    _, challenge = pkce_pair()
    page = await browser.get("/oauth/authorize", params=authorize_params(app_client, challenge))
    blob, csrf = form_value(page.text, "request"), form_value(page.text, "csrf_token")
    altered = blob[:-2] + ("A" if blob[-2] != "A" else "B") + blob[-1]
    response = await browser.post(
        "/oauth/authorize", data={"request": altered, "csrf_token": csrf, "decision": "approve"}
    )
    assert_error_page(response)
    async with member_browser(app, runtime, member) as second:
        other_page = await second.get(
            "/oauth/authorize", params=authorize_params(app_client, challenge)
        )
        moved = await second.post(
            "/oauth/authorize",
            data={
                "request": blob,
                "csrf_token": form_value(other_page.text, "csrf_token"),
                "decision": "approve",
            },
        )
    assert_error_page(moved)


async def test_unknown_decision_and_signed_out_post_are_pages(client, browser, app_client):
    _, challenge = pkce_pair()
    page = await browser.get("/oauth/authorize", params=authorize_params(app_client, challenge))
    data = {
        "request": form_value(page.text, "request"),
        "csrf_token": form_value(page.text, "csrf_token"),
    }
    assert_error_page(await browser.post("/oauth/authorize", data={**data, "decision": "maybe"}))
    assert_error_page(
        await client.post("/oauth/authorize", data={**data, "decision": "approve"}), 403
    )


async def test_code_from_the_consent_is_bound_to_the_challenge(client, browser, app_client):
    _, challenge = pkce_pair()
    query = redirect_query(await consent(browser, authorize_params(app_client, challenge)))
    other_verifier, _ = pkce_pair()
    assert_oauth_error(
        await exchange(client, app_client, query["code"], other_verifier), "invalid_grant"
    )


async def test_an_authorize_link_holding_nul_is_a_400_page(client):
    """kit/nul.py: refused before the client is looked up (it was a 500 on PostgreSQL)."""
    response = await client.get(
        "/oauth/authorize", params={"client_id": "app_\x00x", "response_type": "code"}
    )
    assert response.status_code == 400, response.text
    assert "must not contain the NUL character (U+0000): client_id" in response.text
