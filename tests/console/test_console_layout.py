"""What every console page shares, over HTTP: the navigation marks the page shown, times
read as people read them (on a FrozenClock), revoking and deleting go through a
confirmation page, and the delivery log says where a pending delivery stands.
tests/console/test_browser_layout.py looks at the same pages in Chromium."""

import re
from datetime import UTC, datetime

import pytest

from homebase.kit.clock import FrozenClock
from homebase.oauth import service as oauth
from homebase.webhooks.dispatcher import MAX_ATTEMPTS
from tests.console_support import csrf, make_member, member_browser, post_form
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import work

KEYS = "/console/api-keys"
HOOKS = "/console/webhooks"
CONNECTED = "/console/connected-apps"
FIELDS = "/console/custom-fields"
NOW = datetime(2026, 11, 26, 19, 48, tzinfo=UTC)


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(NOW)
    return runtime.clock


@pytest.fixture
async def console(app, runtime, tenant, clock):
    member = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, member) as client:
        yield client


def marked(html: str) -> list[tuple[str, str]]:
    """The navigation's marked links: (aria-current, href)."""
    nav = re.search(r"<nav[^>]*>(.*?)</nav>", html, re.DOTALL)
    assert nav, html
    return re.findall(r'<a href="([^"]+)" aria-current="([^"]+)"', nav.group(1))


async def create_key(console, name="Zapier", days="30") -> str:
    response = await post_form(
        console,
        KEYS,
        KEYS,
        {"name": name, "scopes": ["contacts:read"], "expires_in_days": days},
    )
    assert response.status_code == 200, response.text
    return re.search(r'id="new-key">([^<]+)<', response.text).group(1)


async def key_id_named(console, name: str) -> str:
    page = (await console.get(KEYS)).text
    match = re.search(rf'<tr id="(key_[0-9a-z]+)"><td><code>[^<]*</code></td><td>{name}<', page)
    assert match, page
    return match.group(1)


async def test_the_navigation_marks_the_page_shown_and_its_section(console, tenant):
    home = (await console.get("/console")).text
    assert marked(home) == [("/console", "page")]
    keys = (await console.get(KEYS)).text
    assert marked(keys) == [(KEYS, "page")]
    assert '<a href="/console" aria-current' not in keys  # Home is not every page's section
    hook = (await tenant.post("/v1/webhooks", {"url": "http://127.0.0.1:9/hook"})).json()
    log = (await console.get(f"{HOOKS}/{hook['id']}")).text
    assert marked(log) == [(HOOKS, "true")]  # a page within Webhooks, not the list itself
    imports = (await console.get("/console/imports/new")).text
    assert marked(imports) == [("/console/imports", "true")]
    # Every section is in the navigation, one list item each.
    nav = re.search(r"<nav[^>]*>(.*?)</nav>", home, re.DOTALL).group(1)
    assert nav.count("<li>") == 13 and "Custom fields" in nav and "Password" in nav
    assert "People" in nav and "Inbox" in nav and "Tasks" in nav
    assert "Members" in nav


async def test_times_read_as_people_read_them_against_the_runtime_clock(console, clock):
    await create_key(console, days="30")
    clock.advance(minutes=3)
    page = (await console.get(KEYS)).text
    created = (
        '<time datetime="2026-11-26T19:48:00.000Z">26 Nov 2026, 19:48 UTC</time>'
        ' <small class="ago">(3 minutes ago)</small>'
    )
    assert created in page
    # 30 days after creation is 29 days and 23 hours 57 minutes away: whole days, rounded down.
    expires = (
        '<time datetime="2026-12-26T19:48:00.000Z">26 Dec 2026, 19:48 UTC</time>'
        ' <small class="ago">(in 29 days)</small>'
    )
    assert expires in page
    clock.advance(hours=1)  # within the session's idle limit
    assert "(1 hour ago)" in (await console.get(KEYS)).text


async def test_revoking_a_key_goes_through_a_confirmation_page(console, client):
    key = await create_key(console, name="Nightly sync")
    key_id = await key_id_named(console, "Nightly sync")
    listing = (await console.get(KEYS)).text
    # The list's button is a link to the confirmation, not the POST itself.
    assert f'<a class="button danger" href="{KEYS}/{key_id}/revoke">Revoke…</a>' in listing
    assert f'action="{KEYS}/{key_id}/revoke"' not in listing
    confirm = await console.get(f"{KEYS}/{key_id}/revoke")
    assert confirm.status_code == 200
    assert "Revoke the API key Nightly sync?" in confirm.text
    assert key[:8] in confirm.text and key not in confirm.text
    assert "refused from the moment you revoke it" in confirm.text
    assert "webhook subscriptions created with it go on" in confirm.text
    assert f'<form method="post" action="{KEYS}/{key_id}/revoke">' in confirm.text
    assert 'class="destroy">Revoke key</button>' in confirm.text
    assert f'href="{KEYS}">Cancel</a>' in confirm.text
    assert (await client.get("/v1/ping", headers={"Authorization": f"token {key}"})).is_success

    refused = await console.post(f"{KEYS}/{key_id}/revoke", data={"csrf_token": "forged"})
    assert refused.status_code == 403
    assert (await client.get("/v1/ping", headers={"Authorization": f"token {key}"})).is_success
    refused = await console.post(f"{KEYS}/{key_id}/revoke", data={})
    assert refused.status_code == 403

    done = await console.post(f"{KEYS}/{key_id}/revoke", data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 303 and done.headers["location"] == f"{KEYS}?revoked=1"
    ping = await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    assert ping.status_code == 401
    again = (await console.get(f"{KEYS}/{key_id}/revoke")).text
    assert "already revoked" in again and "Revoke key</button>" not in again


async def test_another_workspaces_key_has_no_confirmation_page(console, other_tenant):
    response = await console.get(f"{KEYS}/{other_tenant.key_id}/revoke")
    assert response.status_code == 404 and "No such API key." in response.text
    assert (await other_tenant.get("/v1/ping")).status_code == 200


async def test_deleting_a_webhook_goes_through_a_confirmation_page(console, tenant):
    hook = (
        await tenant.post(
            "/v1/webhooks",
            {"url": "http://127.0.0.1:9/hook", "event_types": ["deal.stage_changed"]},
        )
    ).json()
    action = f"{HOOKS}/{hook['id']}/delete"
    listing = (await console.get(HOOKS)).text
    assert f'<a class="button danger" href="{action}">Delete…</a>' in listing
    assert f'action="{action}"' not in listing
    confirm = await console.get(action)
    assert confirm.status_code == 200
    assert "http://127.0.0.1:9/hook" in confirm.text and "deal.stage_changed" in confirm.text
    assert "API key" in confirm.text  # who created it
    assert "deliveries not yet made are cancelled" in confirm.text
    assert (await console.post(action, data={"csrf_token": "forged"})).status_code == 403
    assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).status_code == 200
    done = await console.post(action, data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 303
    assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).status_code == 404
    assert (await console.get(action)).status_code == 404


async def test_revoking_an_app_goes_through_a_confirmation_page(console, runtime, tenant):
    async with runtime.db.transaction() as connection:
        created = await oauth.create_client(
            connection, "Listing <Sync>", redirect_uris=["https://a.example/cb"]
        )
        await oauth.authorize_app(
            connection,
            workspace_id=tenant.id,
            client_id=created.client_id,
            scopes=["contacts:read"],
            now=runtime.clock(),
            authorized_by="admin",
        )
    action = f"{CONNECTED}/{created.client_id}/revoke"
    listing = (await console.get(CONNECTED)).text
    assert f'<a class="button danger" href="{action}">Revoke access…</a>' in listing
    assert "by the operator" in listing  # authorized with homebase admin authorize-app
    confirm = await console.get(action)
    assert confirm.status_code == 200
    assert "Revoke the access of Listing &lt;Sync&gt;?" in confirm.text
    assert created.client_id in confirm.text and "contacts:read" in confirm.text
    assert "26 Nov 2026, 19:48 UTC" in confirm.text
    assert (await console.post(action, data={"csrf_token": "forged"})).status_code == 403
    async with runtime.db.transaction(write=False) as connection:
        assert await oauth.active_grant(connection, tenant.id, client_id=created.client_id)
    done = await console.post(action, data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 303
    async with runtime.db.transaction(write=False) as connection:
        assert await oauth.active_grant(connection, tenant.id, client_id=created.client_id) is None
    assert (await console.get(action)).status_code == 404


async def test_deleting_a_custom_field_goes_through_a_confirmation_page(console, tenant):
    created = await tenant.post(
        "/v1/custom-fields",
        {"object": "contacts", "key": "budget", "label": "Budget", "type": "text"},
    )
    assert created.status_code == 201, created.text
    field_id = created.json()["id"]
    action = f"{FIELDS}/{field_id}/delete"
    assert f'href="{action}">Delete…</a>' in (await console.get(FIELDS)).text
    confirm = await console.get(action)
    assert confirm.status_code == 200 and "Delete the custom field budget?" in confirm.text
    assert (await console.post(action, data={"csrf_token": "forged"})).status_code == 403
    assert (await tenant.get(f"/v1/custom-fields/{field_id}")).status_code == 200
    done = await console.post(action, data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 303
    assert (await tenant.get(f"/v1/custom-fields/{field_id}")).status_code == 404
    assert (await console.get(action)).status_code == 404


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


async def test_the_delivery_log_says_which_attempt_is_next_and_when(
    console, runtime, tenant, receiver, clock
):
    receiver.respond = script(500)
    hook = (await tenant.post("/v1/webhooks", {"url": receiver.url})).json()
    await tenant.post("/v1/contacts", {"first_name": "Ann"})
    await work(runtime)  # the first attempt fails; the second is due a backoff unit later
    await receiver.wait_for(1)
    assert runtime.settings.webhook_backoff_unit_seconds == 60
    log = (await console.get(f"{HOOKS}/{hook['id']}")).text
    schedule = re.search(r'<small class="schedule">(.*?)</small></td>', log, re.DOTALL)
    assert schedule, log
    assert schedule.group(1) == (
        f"attempt 2 of {MAX_ATTEMPTS}, next at "
        '<time datetime="2026-11-26T19:49:00.000Z">26 Nov 2026, 19:49 UTC</time>'
        ' <small class="ago">(in 1 minute)</small>'
    )
    assert MAX_ATTEMPTS == 6  # the spec's schedule: six attempts

    await console.post(  # a redelivery starts a fresh schedule, due now
        f"{HOOKS}/{hook['id']}/deliveries/"
        + re.search(r'<tr id="(whd_[0-9a-z]+)">', log).group(1)
        + "/redeliver",
        data={"csrf_token": csrf(log)},
    )
    redelivered = (await console.get(f"{HOOKS}/{hook['id']}")).text
    assert f"attempt 1 of {MAX_ATTEMPTS}, next at" in redelivered
    assert "(just now)" in redelivered
