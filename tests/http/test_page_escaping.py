"""Hostile values through every page over HTTP: workspace, member, key, app and webhook
names and addresses, what a form echoes back, the sign-in page's `next`. Each comes out
escaped (as text, never markup; never evaluated as a template) and no page carries a
script. The templates and their environment: tests/http/test_templates.py."""

from html import unescape

import httpx
import pytest

from homebase.webhooks.dispatcher import fan_out
from tests.console.test_console_pages import shown_secret
from tests.console_support import (
    PASSWORD,
    browser,
    csrf,
    form_value,
    make_member,
    member_browser,
    post_form,
)
from tests.oauth_support import authorize_params, make_app, pkce_pair, token_pair
from tests.support import make_tenant

EVIL = '<script>alert("x")</script> \'q\' "><b>{{ 7*7 }}</b> & {% if %}'
ESCAPED = (
    "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &#39;q&#39; &#34;&gt;&lt;b&gt;"
    "{{ 7*7 }}&lt;/b&gt; &amp; {% if %}"
)


def assert_escaped(response: httpx.Response, status: int = 200, times: int = 1) -> str:
    """The page shows EVIL, escaped, at least `times` times, and holds no markup of it."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "script-src 'none'" in response.headers["content-security-policy"]
    page = response.text
    assert "<script" not in page and "<b>" not in page
    assert page.count(ESCAPED) >= times, page
    assert EVIL in unescape(page)
    return page


@pytest.fixture
async def hostile_tenant(runtime, client):
    return await make_tenant(runtime, client, name="Realty " + EVIL)


@pytest.fixture
async def member(runtime, hostile_tenant):
    return await make_member(runtime, hostile_tenant.id, name="Agent " + EVIL)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


async def test_sign_in_pages(app, runtime, client, hostile_tenant, member):
    other = await make_tenant(runtime, client, name="Second " + EVIL)
    await make_member(runtime, other.id)  # the same email: the workspace choice page
    async with browser(app) as anonymous:
        page = assert_escaped(
            await anonymous.get("/console/login", params={"next": "/console?q=" + EVIL})
        )
        assert form_value(page, "next") == "/console?q=" + EVIL
        token = csrf(page)
        assert_escaped(
            await anonymous.post(
                "/console/login", data={"csrf_token": token, "email": EVIL, "next": "/console"}
            ),
            400,
        )
        choice = await anonymous.post(
            "/console/login",
            data={
                "csrf_token": token,
                "email": "agent@example.com",
                "password": PASSWORD,
                "next": "/console",
            },
        )
        assert_escaped(choice, times=2)  # both workspaces' names


async def test_member_pages(runtime, client, console, hostile_tenant):
    assert_escaped(await console.get("/console"), times=2)  # workspace and member names

    keys = "/console/api-keys"
    assert_escaped(
        await post_form(console, keys, keys, {"name": EVIL, "expires_in_days": "5"}), 400
    )  # no scope: the form keeps the name
    created = await post_form(
        console, keys, keys, {"name": EVIL, "expires_in_days": "5", "scopes": ["webhooks:manage"]}
    )
    assert created.status_code == 200
    assert_escaped(await console.get(keys))

    apps = "/console/oauth-apps"
    refused = await post_form(
        console, apps, apps, {"name": EVIL, "redirect_uris": "</textarea>" + EVIL}
    )
    page = assert_escaped(refused, 400, times=2)  # the name and the textarea
    assert page.count("</textarea>") == 1  # the form's own
    assert (
        await post_form(
            console, apps, apps, {"name": EVIL, "redirect_uris": "https://app.example.com/cb"}
        )
    ).status_code == 200
    assert_escaped(await console.get(apps))

    hooks = "/console/webhooks"
    assert_escaped(
        await post_form(
            console,
            hooks,
            hooks,
            {"url": "http://127.0.0.1:9/?" + EVIL, "event_types": ["no.such"]},
        ),
        400,
    )
    app = await make_app(runtime, name=EVIL)
    tokens = await token_pair(runtime, client, app, hostile_tenant.id, scopes=("webhooks:manage",))
    key = shown_secret(created.text, "new-key")
    for credential in (f"Bearer {tokens['access_token']}", f"token {key}"):
        response = await client.post(
            "/v1/webhooks",
            json={"url": "http://127.0.0.1:9/h"},
            headers={"Authorization": credential},
        )
        assert response.status_code == 201, response.text
    subscription = response.json()["id"]  # the API key's
    assert (
        await post_form(console, hooks, hooks, {"url": "http://127.0.0.1:9/m"})
    ).status_code == 200
    # Created by the app, by the key and by the member: each name in its row.
    assert_escaped(await console.get(hooks), times=3)
    assert (
        await hostile_tenant.post("/v1/contacts", json={"first_name": "Ann"})
    ).status_code == 201
    async with runtime.db.transaction() as connection:
        await fan_out(connection, runtime.settings, runtime.clock())
    assert_escaped(await console.get(f"{hooks}/{subscription}"))
    assert_escaped(await console.get("/console/connected-apps"))


async def test_consent_page(runtime, console, hostile_tenant):
    app = await make_app(runtime, name=EVIL)
    _, challenge = pkce_pair()
    page = assert_escaped(
        await console.get("/oauth/authorize", params=authorize_params(app, challenge, state=EVIL)),
        times=4,
    )
    # The title and heading, the app's name, the workspace's name; the state travels
    # signed in the form, never shown.
    assert page.count(ESCAPED) == 4


async def test_people_and_tasks_pages(console, hostile_tenant):
    """A contact's names, tags, notes and custom value, a note, a task's title and a
    search as typed: People, a person's page and Tasks show them as text."""
    field = await hostile_tenant.post(
        "/v1/custom-fields",
        json={"object": "contacts", "key": "motive", "label": "Motive " + EVIL, "type": "text"},
    )
    assert field.status_code == 201, field.text
    created = await hostile_tenant.post(
        "/v1/contacts",
        json={
            "first_name": EVIL,
            "notes": EVIL,
            "tags": [EVIL[:40]],
            "custom_fields": {"motive": EVIL},
        },
    )
    assert created.status_code == 201, created.text
    contact = created.json()["id"]
    noted = await hostile_tenant.post(f"/v1/contacts/{contact}/notes", json={"body": EVIL})
    assert noted.status_code == 201
    task = await hostile_tenant.post("/v1/tasks", json={"title": EVIL, "contact_id": contact})
    assert task.status_code == 201
    assert_escaped(await console.get("/console/people"))
    assert_escaped(await console.get("/console/people", params={"q": EVIL[:120]}))
    assert_escaped(await console.get(f"/console/people/{contact}"), times=5)
    assert_escaped(await console.get("/console/tasks"), times=2)
    refused = await post_form(
        console, f"/console/people/{contact}", f"/console/people/{contact}/notes", {"body": ""}
    )
    assert refused.status_code == 400
