"""Console pages over HTTP: API keys and webhooks, tenancy, escaping and headers."""

import re
from datetime import UTC, datetime

import pytest

from homebase.kit.clock import FrozenClock, isoformat
from homebase.webhooks.dispatcher import fan_out
from tests.console_support import csrf, make_member, member_browser, post_form
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

KEYS = "/console/api-keys"
HOOKS = "/console/webhooks"


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def assert_security_headers(response, *, no_store: bool = False):
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "script-src 'none'" in policy and "form-action 'self'" in policy
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["content-type"].startswith("text/html")
    if no_store:
        assert response.headers["cache-control"] == "no-store"


async def create_key(console, name="Zapier", scopes=("contacts:read",), days="30"):
    return await post_form(
        console, KEYS, KEYS, {"name": name, "scopes": list(scopes), "expires_in_days": days}
    )


def shown_secret(html: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}">([^<]+)<', html)
    assert match, html
    return match.group(1)


@pytest.mark.parametrize("path", ["/console", KEYS, HOOKS])
async def test_every_page_sends_the_security_headers_and_needs_a_session(
    app, console, client, path
):
    response = await console.get(path)
    assert response.status_code == 200
    assert_security_headers(response)
    anonymous = await client.get(path)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith(
        "/console/login?next="
    )


async def test_sign_in_page_and_error_pages_send_the_headers(console, client):
    assert_security_headers(await client.get("/console/login"), no_store=True)
    refused = await console.post(KEYS, data={"name": "x"})
    assert refused.status_code == 403
    assert_security_headers(refused, no_store=True)


async def test_create_key_shows_it_once_and_it_works_on_the_api(console, client):
    response = await create_key(console, scopes=["contacts:read", "webhooks:manage"])
    assert response.status_code == 200
    assert_security_headers(response, no_store=True)
    key = shown_secret(response.text, "new-key")
    ping = await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    assert ping.status_code == 200, ping.text
    assert ping.json()["scopes"] == ["contacts:read", "webhooks:manage"]
    listing = await console.get(KEYS)
    assert key[:8] in listing.text and key not in listing.text
    assert "Zapier" in listing.text and "active" in listing.text
    assert "cache-control" in listing.headers and "no-store" not in listing.headers["cache-control"]


async def test_create_key_names_each_failing_field_and_writes_nothing(console):
    response = await post_form(
        console, KEYS, KEYS, {"name": "", "expires_in_days": "0", "scopes": ["no:such"]}
    )
    assert response.status_code == 400
    for name in ("name:", "expires_in_days:", "scopes: unknown scope"):
        assert name in response.text
    response = await post_form(console, KEYS, KEYS, {"name": "ok", "expires_in_days": "9"})
    assert response.status_code == 400 and "scopes: choose at least one" in response.text
    listing = await console.get(KEYS)
    assert len(re.findall(r'<tr id="key_', listing.text)) == 1  # only the tenant's own key


async def test_revoke_key_needs_csrf_then_the_key_stops_working(console, client):
    key = shown_secret((await create_key(console)).text, "new-key")
    page = await console.get(KEYS)
    key_id = re.search(r'<tr id="(key_[0-9a-z]+)">', page.text).group(1)
    forged = await console.post(f"{KEYS}/{key_id}/revoke", data={"csrf_token": "x"})
    assert forged.status_code == 403
    assert (
        await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    ).status_code == 200
    revoked = await console.post(f"{KEYS}/{key_id}/revoke", data={"csrf_token": csrf(page.text)})
    assert revoked.status_code == 303
    after = await console.get(revoked.headers["location"])
    assert "The key was revoked." in after.text and "revoked" in after.text
    assert (
        await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    ).status_code == 401


async def test_another_workspaces_key_is_invisible_and_a_404_page(
    app, runtime, console, tenant, other_tenant, client
):
    other_member = await make_member(runtime, other_tenant.id, "other@example.com")
    async with member_browser(app, runtime, other_member) as other_console:
        mine = (await console.get(KEYS)).text
        assert tenant.key[:8] in mine and other_tenant.key[:8] not in mine
        theirs = (await other_console.get(KEYS)).text
        assert other_tenant.key[:8] in theirs and tenant.key[:8] not in theirs
        response = await console.post(
            f"{KEYS}/{other_tenant.key_id}/revoke", data={"csrf_token": csrf(mine)}
        )
        assert response.status_code == 404 and "No such API key." in response.text
        unknown = await console.post(
            f"{KEYS}/key_00000000000000000000000000/revoke", data={"csrf_token": csrf(mine)}
        )
        assert unknown.status_code == 404 and unknown.text == response.text
    assert (await other_tenant.get("/v1/ping")).status_code == 200


async def test_user_text_is_escaped(console):
    payload = '<script>alert("x")</script>'
    await create_key(console, name=payload)
    page = await console.get(KEYS)
    assert payload not in page.text and "&lt;script&gt;alert(&#34;x&#34;)" in page.text


async def test_webhook_create_shows_the_secret_once_and_lists_it(console):
    response = await post_form(
        console,
        HOOKS,
        HOOKS,
        {"url": "http://127.0.0.1:9/hook", "event_types": ["contact.created"]},
    )
    assert response.status_code == 200
    assert_security_headers(response, no_store=True)
    secret = shown_secret(response.text, "new-secret")
    assert secret.startswith("whsec_")
    listing = await console.get(HOOKS)
    assert "http://127.0.0.1:9/hook" in listing.text and secret not in listing.text
    assert secret[:8] in listing.text


@pytest.mark.parametrize("settings_overrides", [{"webhook_allow_private_urls": False}])
async def test_webhook_url_safety_applies_and_the_error_is_a_page(console, tenant):
    response = await post_form(console, HOOKS, HOOKS, {"url": "http://127.0.0.1:9/hook"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")
    assert "url:" in response.text
    assert 'value="http://127.0.0.1:9/hook"' in response.text  # the form keeps the input
    assert (await tenant.get("/v1/webhooks")).json()["data"] == []


async def test_webhook_form_errors_name_the_field(console, tenant):
    response = await post_form(
        console, HOOKS, HOOKS, {"url": "http://127.0.0.1:9/hook", "event_types": ["no.such_event"]}
    )
    assert response.status_code == 400 and "event_types" in response.text
    assert (await tenant.get("/v1/webhooks")).json()["data"] == []


async def _subscription_with_delivery(console, runtime, tenant) -> tuple[str, str]:
    await post_form(console, HOOKS, HOOKS, {"url": "http://127.0.0.1:9/hook"})
    subscription_id = (await tenant.get("/v1/webhooks")).json()["data"][0]["id"]
    assert (await tenant.post("/v1/contacts", json={"first_name": "Ann"})).status_code == 201
    async with runtime.db.transaction() as connection:
        await fan_out(connection, runtime.settings, runtime.clock())
    deliveries = (await tenant.get(f"/v1/webhooks/{subscription_id}/deliveries")).json()["data"]
    return subscription_id, deliveries[0]["id"]


async def test_delivery_log_and_redeliver(console, runtime, tenant):
    subscription_id, delivery_id = await _subscription_with_delivery(console, runtime, tenant)
    log = await console.get(f"{HOOKS}/{subscription_id}")
    assert log.status_code == 200 and delivery_id in log.text
    assert "contact.created" in log.text and "pending" in log.text
    action = f"{HOOKS}/{subscription_id}/deliveries/{delivery_id}/redeliver"
    assert (await console.post(action, data={"csrf_token": "x"})).status_code == 403
    response = await console.post(action, data={"csrf_token": csrf(log.text)})
    assert response.status_code == 303
    assert "due again now" in (await console.get(response.headers["location"])).text
    missing = await console.post(
        f"{HOOKS}/{subscription_id}/deliveries/whd_0000/redeliver",
        data={"csrf_token": csrf(log.text)},
    )
    assert missing.status_code == 404 and "No such delivery." in missing.text


async def test_delete_webhook(console, tenant):
    await post_form(console, HOOKS, HOOKS, {"url": "http://127.0.0.1:9/hook"})
    subscription_id = (await tenant.get("/v1/webhooks")).json()["data"][0]["id"]
    page = await console.get(HOOKS)
    response = await console.post(
        f"{HOOKS}/{subscription_id}/delete", data={"csrf_token": csrf(page.text)}
    )
    assert response.status_code == 303
    assert (await tenant.get(f"/v1/webhooks/{subscription_id}")).status_code == 404
    again = await console.post(
        f"{HOOKS}/{subscription_id}/delete", data={"csrf_token": csrf(page.text)}
    )
    assert again.status_code == 404
    assert (await console.get(f"{HOOKS}/{subscription_id}")).status_code == 404


async def test_another_workspaces_webhooks_are_404_pages(app, runtime, console, other_tenant):
    response = await other_tenant.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/x"})
    foreign = response.json()["id"]
    page = await console.get(HOOKS)
    assert foreign not in page.text and "127.0.0.1:9/x" not in page.text
    assert (await console.get(f"{HOOKS}/{foreign}")).status_code == 404
    token = {"csrf_token": csrf(page.text)}
    assert (await console.post(f"{HOOKS}/{foreign}/delete", data=token)).status_code == 404
    assert (
        await console.post(f"{HOOKS}/{foreign}/deliveries/whd_1/redeliver", data=token)
    ).status_code == 404
    assert (await other_tenant.get(f"/v1/webhooks/{foreign}")).status_code == 200


async def test_key_list_pages_with_the_keyset_cursor(console, runtime, tenant):
    from homebase.console import common
    from tests.support import make_key

    for _ in range(common.PAGE_SIZE):  # with the tenant's own key: one more than a page
        await make_key(runtime, tenant.id)
    first = await console.get(KEYS)
    older = re.search(r'href="(/console/api-keys\?cursor=[^"]+)">Older', first.text)
    assert older, "no Older link"
    second = await console.get(older.group(1).replace("&amp;", "&"))
    assert second.status_code == 200
    assert len(re.findall(r'<tr id="key_', first.text)) == common.PAGE_SIZE
    assert re.findall(r'<tr id="(key_[0-9a-z]+)"', second.text) == [tenant.key_id]


async def test_a_form_field_holding_nul_is_a_400_page_and_writes_nothing(console):
    """kit/nul.py: PostgreSQL cannot store U+0000 (it was a 500 there)."""
    response = await post_form(
        console,
        KEYS,
        KEYS,
        {"name": "Za\x00pier", "expires_in_days": "9", "scopes": ["contacts:read"]},
    )
    assert response.status_code == 400, response.text
    assert "must not contain the NUL character (U+0000): name" in response.text
    listing = await console.get(KEYS)
    assert len(re.findall(r'<tr id="key_', listing.text)) == 1  # only the tenant's own key


@pytest.mark.parametrize("settings_overrides", [{"webhook_disable_after_days": 5 / (24 * 60)}])
async def test_a_disabled_webhook_says_why_and_can_be_enabled(
    console, tenant, runtime, settings_overrides
):
    """Failing, then disabled by the worker (a 5-minute window): the page says since when
    and why, and Enable re-enables it as PATCH status active does."""
    receiver = await Receiver().start()
    receiver.respond = script(500)
    clock = runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    try:
        hook = await subscribe(tenant, receiver.url, ["contact.created"])
        started = clock()
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        row = _row(await console.get(HOOKS), hook["id"])
        assert (
            f'active<br><small>every attempt failed since <time datetime="{isoformat(started)}">'
            in row
        )
        assert "<strong>disabled</strong>" not in row and "/enable" not in row
        for minutes in (1, 2, 4):  # attempts 2 to 4: the streak reaches 5 minutes at +7
            clock.advance(minutes=minutes)
            await work(runtime)
    finally:
        await receiver.stop()
    page = await console.get(HOOKS)
    row = _row(page, hook["id"])
    assert f'<strong>disabled</strong> <time datetime="{isoformat(clock())}">' in row
    assert f'every attempt failed since <time datetime="{isoformat(started)}">' in row
    action = f"{HOOKS}/{hook['id']}/enable"
    assert f'action="{action}"' in row
    assert (await console.post(action, data={"csrf_token": "x"})).status_code == 403
    response = await console.post(action, data={"csrf_token": csrf(page.text)})
    assert response.status_code == 303
    assert "enabled again" in (await console.get(response.headers["location"])).text
    enabled = (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()
    assert enabled["status"] == "active" and enabled["failing_since"] is None
    assert "/enable" not in _row(await console.get(HOOKS), hook["id"])


async def test_a_paused_webhook_shows_paused(console, tenant, other_tenant):
    hook = (await tenant.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook"})).json()
    assert (await tenant.patch(f"/v1/webhooks/{hook['id']}", {"status": "disabled"})).json()[
        "disabled_reason"
    ] == "paused"
    page = await console.get(HOOKS)
    assert "paused: nothing is sent to it" in _row(page, hook["id"])
    foreign = (await other_tenant.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/x"})).json()
    await other_tenant.patch(f"/v1/webhooks/{foreign['id']}", {"status": "disabled"})
    refused = await console.post(
        f"{HOOKS}/{foreign['id']}/enable", data={"csrf_token": csrf(page.text)}
    )
    assert refused.status_code == 404
    assert (await other_tenant.get(f"/v1/webhooks/{foreign['id']}")).json()["status"] == "disabled"


def _row(page, subscription_id: str) -> str:
    """The subscription's row of the webhooks page."""
    assert page.status_code == 200, page.text
    return page.text.split(f'id="{subscription_id}"', 1)[1].split("</tr>", 1)[0]
