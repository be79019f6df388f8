"""Console pages for OAuth: registering apps (this workspace's only) and connected apps."""

import re

import pytest

from homebase.oauth import service as oauth
from tests.console.test_console_pages import assert_security_headers, shown_secret
from tests.console_support import csrf, make_member, member_browser, post_form
from tests.oauth_support import make_app, ping, refresh, token_pair

APPS = "/console/oauth-apps"
CONNECTED = "/console/connected-apps"


@pytest.fixture
async def console(app, runtime, tenant):
    member = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, member) as client:
        yield client


async def register(console, name="Listing Sync", uris="http://127.0.0.1/callback"):
    return await post_form(console, APPS, APPS, {"name": name, "redirect_uris": uris})


async def test_register_an_app_shows_the_secret_once(console, runtime):
    response = await register(
        console, uris="https://sync.example.com/cb\nhttp://127.0.0.1/callback\n"
    )
    assert response.status_code == 200
    assert_security_headers(response, no_store=True)
    client_id = shown_secret(response.text, "client-id")
    secret = shown_secret(response.text, "client-secret")
    async with runtime.db.transaction(write=False) as connection:
        client = await oauth.get_client(connection, client_id)
    assert client["redirect_uris"] == ["https://sync.example.com/cb", "http://127.0.0.1/callback"]
    assert oauth.secret_matches(client, secret)
    listing = await console.get(APPS)
    assert_security_headers(listing)
    assert client_id in listing.text and "Listing Sync" in listing.text
    assert "https://sync.example.com/cb" in listing.text and secret not in listing.text


@pytest.mark.parametrize(
    "name,uris,message",
    [
        ("", "https://a.example/cb", "name"),
        ("App", "", "redirect URI"),
        ("App", "not a uri", "redirect"),
    ],
)
async def test_register_refusals_are_shown_in_the_page(console, name, uris, message):
    response = await register(console, name=name, uris=uris)
    assert response.status_code == 400 and message in response.text
    assert response.headers["content-type"].startswith("text/html")
    assert '<tr id="app_' not in (await console.get(APPS)).text


async def test_a_workspace_sees_only_the_apps_it_registered(app, runtime, console, other_tenant):
    async with runtime.db.transaction() as connection:  # by the operator, no workspace
        operator_app = await oauth.create_client(
            connection, "Operator App", redirect_uris=["https://op.example/cb"]
        )
    other = await make_member(runtime, other_tenant.id, "other@example.com")
    async with member_browser(app, runtime, other) as other_console:
        theirs = shown_secret((await register(other_console, "Their App")).text, "client-id")
    mine = shown_secret((await register(console, "My App")).text, "client-id")
    listing = (await console.get(APPS)).text
    assert mine in listing
    assert theirs not in listing and "Their App" not in listing
    assert operator_app.client_id not in listing


async def test_connected_apps_list_and_revoke(console, runtime, tenant, other_tenant):
    async with runtime.db.transaction() as connection:
        created = await oauth.create_client(
            connection, "CRM <Sync>", redirect_uris=["https://a.example/cb"]
        )
        for workspace_id in (tenant.id, other_tenant.id):
            await oauth.authorize_app(
                connection,
                workspace_id=workspace_id,
                client_id=created.client_id,
                scopes=["contacts:read"],
                now=runtime.clock(),
                authorized_by="admin",
            )
    page = await console.get(CONNECTED)
    assert_security_headers(page)
    assert "CRM &lt;Sync&gt;" in page.text and "contacts:read" in page.text
    action = f"{CONNECTED}/{created.client_id}/revoke"
    assert (await console.post(action, data={"csrf_token": "x"})).status_code == 403
    response = await console.post(action, data={"csrf_token": csrf(page.text)})
    assert response.status_code == 303
    after = await console.get(response.headers["location"])
    assert "revoked" in after.text and f'id="{created.client_id}"' not in after.text
    async with runtime.db.transaction(write=False) as connection:
        assert await oauth.active_grant(connection, tenant.id, client_id=created.client_id) is None
        assert await oauth.active_grant(connection, other_tenant.id, client_id=created.client_id)


async def test_revoking_from_the_console_cuts_the_apps_tokens_off_on_the_next_request(
    console, client, runtime, tenant
):
    app_client = await make_app(runtime, name="Token Holder")
    pair = await token_pair(runtime, client, app_client, tenant.id)
    assert (await ping(client, pair["access_token"])).status_code == 200
    page = await console.get(CONNECTED)
    response = await console.post(
        f"{CONNECTED}/{app_client.client_id}/revoke", data={"csrf_token": csrf(page.text)}
    )
    assert response.status_code == 303
    assert (await ping(client, pair["access_token"])).status_code == 401
    assert (await refresh(client, app_client, pair["refresh_token"])).json()[
        "error"
    ] == "invalid_grant"


async def test_revoking_an_app_the_workspace_never_authorized_is_a_404_page(
    console, runtime, other_tenant
):
    async with runtime.db.transaction() as connection:
        created = await oauth.create_client(
            connection, "Elsewhere", redirect_uris=["https://a.example/cb"]
        )
        await oauth.authorize_app(
            connection,
            workspace_id=other_tenant.id,
            client_id=created.client_id,
            scopes=["contacts:read"],
            now=runtime.clock(),
            authorized_by="admin",
        )
    page = await console.get(CONNECTED)
    assert "Elsewhere" not in page.text
    response = await console.post(
        f"{CONNECTED}/{created.client_id}/revoke", data={"csrf_token": csrf(page.text)}
    )
    assert response.status_code == 404
    async with runtime.db.transaction(write=False) as connection:
        assert await oauth.active_grant(connection, other_tenant.id, client_id=created.client_id)


async def test_console_routes_all_need_a_session_and_posts_need_csrf(app, console, client):
    """A walk over every /console route, so a new page cannot forget either."""
    open_paths = {"/console/login", "/console/login/workspace", "/console/style.css"}
    # An invitation's link: the invitee has no session yet; its token and its own CSRF
    # token are tested in tests/console/test_console_invitations.py.
    open_paths.add("/console/invitations/{token}")
    token = csrf((await console.get("/console")).text)
    assert token
    for route in app.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/console") or path in open_paths:
            continue
        url = re.sub(r"\{[^}]+\}", "x_1", path)
        for method in route.methods - {"HEAD"}:
            anonymous = await client.request(method, url)
            assert anonymous.status_code == 303, (method, path)
            assert anonymous.headers["location"].startswith("/console/login"), (method, path)
            if method == "POST":
                refused = await console.post(url, data={"csrf_token": "forged"})
                assert refused.status_code == 403, path
