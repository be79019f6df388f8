"""PATCH /v1/webhooks/{id}: url and event_types under the creation rules, status, what
it refuses (400 naming each field, 403, 404), and that deliveries follow the change.
SQLite and PostgreSQL; real receivers on 127.0.0.1."""

from datetime import UTC, datetime

import orjson
import pytest
from sqlalchemy import update

from homebase.kit.clock import FrozenClock
from homebase.models import OAuthGrant
from homebase.webhooks import verify
from tests.support import assert_error, failing_fields, make_key
from tests.webhook_receiver import Receiver
from tests.webhooks.test_webhooks_revocation import app_subscription
from tests.webhooks_support import subscribe, work

URL = "http://127.0.0.1:9/hook"


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def patch(tenant, hook_id: str, body):
    return await tenant.patch(f"/v1/webhooks/{hook_id}", body)


async def test_url_and_event_types_change_the_secret_does_not(tenant, runtime, clock):
    old, new = await Receiver().start(), await Receiver().start()
    try:
        hook = await subscribe(tenant, old.url, ["contact.created"])
        response = await patch(
            tenant, hook["id"], {"url": new.url, "event_types": ["contact.stage_changed"]}
        )
        assert response.status_code == 200, response.text
        changed = response.json()
        assert "secret" not in changed and changed["secret_hint"] == hook["secret_hint"]
        assert changed["url"] == new.url and changed["event_types"] == ["contact.stage_changed"]
        assert changed["status"] == "active" and changed["created_at"] == hook["created_at"]
        assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).json() == changed

        clock.advance(seconds=1)
        contact = (await tenant.post("/v1/contacts", {"first_name": "Ana"})).json()
        await tenant.patch(f"/v1/contacts/{contact['id']}", {"stage": "NURTURE"})
        await work(runtime)
        [request] = await new.wait_for(1)
        assert request.headers["x-webhook-event"] == "contact.stage_changed"
        verify(hook["secret"], request.body, request.headers, now=clock().timestamp())
        assert old.requests == []
    finally:
        await old.stop()
        await new.stop()


async def test_pending_retries_go_to_the_new_url_and_the_streak_restarts(tenant, runtime, clock):
    old, new = await Receiver().start(), await Receiver().start()
    old.respond = lambda request: (500, {}, 0)
    try:
        hook = await subscribe(tenant, old.url, ["contact.created"])
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await old.wait_for(1)
        assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()["failing_since"]
        changed = (await patch(tenant, hook["id"], {"url": new.url})).json()
        assert changed["failing_since"] is None
        clock.advance(minutes=1)
        await work(runtime)
        [request] = await new.wait_for(1)
        assert request.headers["x-webhook-attempt"] == "2"
        assert orjson.loads(request.body)["data"]["first_name"] == "Ana"
        # The same URL again is no new receiver: the streak stays.
        old.respond = lambda request: (500, {}, 0)
        await patch(tenant, hook["id"], {"url": old.url})
        clock.advance(seconds=1)
        await tenant.post("/v1/contacts", {"first_name": "Bo"})
        await work(runtime)
        since = (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()["failing_since"]
        assert since is not None
        unchanged = await patch(tenant, hook["id"], {"url": old.url})
        assert unchanged.json()["failing_since"] == since
    finally:
        await old.stop()
        await new.stop()


@pytest.mark.parametrize(
    "body, fields",
    [
        ({}, {"body"}),
        ({"status": "paused"}, {"status"}),
        ({"status": None}, {"status"}),
        ({"url": None}, {"url"}),
        ({"url": ""}, {"url"}),
        ({"url": "ftp://example.com/x"}, {"url"}),
        ({"url": "not a url"}, {"url"}),
        ({"event_types": ["contact.created", "nope"]}, {"event_types"}),
        ({"event_types": "contact.created"}, {"event_types"}),
        ({"event_types": None}, {"event_types"}),
        ({"status": "active", "secret": "whsec_mine"}, {"secret"}),
        ({"url": URL, "id": "whk_x"}, {"id"}),
        (
            {"url": "http://user:pw@127.0.0.1:9/hook", "event_types": ["no.such"]},
            {"event_types"},
        ),
    ],
)
async def test_invalid_bodies_are_400_naming_the_field(tenant, body, fields):
    hook = await subscribe(tenant, URL, ["contact.created"])
    response = await patch(tenant, hook["id"], body)
    assert failing_fields(response) == fields, response.text
    assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()["url"] == URL


@pytest.mark.parametrize("settings_overrides", [{"webhook_allow_private_urls": False}])
async def test_the_url_policy_applies(tenant, runtime):
    hook = await subscribe(tenant, "https://public.test/in", ["contact.created"])
    for url in ("http://127.0.0.1:8080/x", "http://169.254.169.254/x", "http://10.0.0.5/x"):
        assert failing_fields(await patch(tenant, hook["id"], {"url": url})) == {"url"}, url
    assert failing_fields(await patch(tenant, hook["id"], {"url": "https://gone.invalid/"})) == {
        "url"
    }
    fine = await patch(tenant, hook["id"], {"url": "https://public.test/v2"})
    assert fine.status_code == 200, fine.text


async def test_event_types_the_subscription_may_not_read_are_refused(make, runtime):
    """The caller needs the scope (403, as at creation); the subscription needs it too
    (400 on event_types): its creator's scopes bound what fan-out sends it."""
    narrow = await make(["webhooks:manage", "contacts:read"])
    hook = await subscribe(narrow, URL, ["contact.created"])
    error = assert_error(
        await patch(narrow, hook["id"], {"event_types": ["lead.created"]}),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "leads:read"
    _, wide = await make_key(runtime, narrow.id)
    response = await narrow.client.patch(
        f"/v1/webhooks/{hook['id']}",
        json={"event_types": ["contact.stage_changed", "lead.created"], "url": "ftp://x.test/"},
        headers={"Authorization": f"token {wide}"},
    )
    assert failing_fields(response) == {"event_types", "url"}
    assert "lead.created" in response.text and "leads:read" in response.text
    fine = await narrow.client.patch(
        f"/v1/webhooks/{hook['id']}",
        json={"event_types": ["contact.stage_changed"]},
        headers={"Authorization": f"token {wide}"},
    )
    assert fine.status_code == 200 and fine.json()["event_types"] == ["contact.stage_changed"]


async def test_an_apps_subscription_stays_within_its_grant(runtime, client, tenant):
    oauth_app, hook = await app_subscription(runtime, client, tenant, URL)
    assert (await patch(tenant, hook["id"], {"event_types": ["deal.stage_changed"]})).json()[
        "event_types"
    ] == ["deal.stage_changed"]
    grants = OAuthGrant.__table__
    async with runtime.db.transaction() as connection:  # a grant narrowed since
        await connection.execute(
            update(grants)
            .where(grants.c.client_id == oauth_app.client_id)
            .values(scopes=["contacts:read", "webhooks:manage"])
        )
    response = await patch(tenant, hook["id"], {"event_types": ["deal.stage_changed"]})
    assert failing_fields(response) == {"event_types"}
    assert (
        await patch(tenant, hook["id"], {"event_types": ["contact.created"]})
    ).status_code == 200


async def test_needs_webhooks_manage(make, tenant):
    hook = await subscribe(tenant, URL)
    scoped = await make(["contacts:read", "contacts:write"])
    error = assert_error(
        await scoped.patch(f"/v1/webhooks/{hook['id']}", {"status": "active"}),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "webhooks:manage"


async def test_another_workspaces_and_deleted_ones_are_404(tenant, other_tenant):
    hook = await subscribe(tenant, URL, ["contact.created"])
    for body in ({"status": "disabled"}, {"url": "http://127.0.0.1:9/other"}):
        assert_error(await patch(other_tenant, hook["id"], body), 404, "not_found")
    assert_error(
        await patch(tenant, "whk_00000000000000000000000000", {"status": "active"}),
        404,
        "not_found",
    )
    unchanged = (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()
    assert unchanged["url"] == URL and unchanged["status"] == "active"
    assert (await tenant.delete(f"/v1/webhooks/{hook['id']}")).status_code == 200
    assert_error(await patch(tenant, hook["id"], {"status": "active"}), 404, "not_found")


async def test_active_on_an_active_subscription_changes_nothing(tenant, runtime, clock):
    """Only re-enabling clears a streak: an active subscription's stays, so a client can't
    keep a dead receiver from being disabled by sending status active."""
    bad = await Receiver().start()
    bad.respond = lambda request: (500, {}, 0)
    try:
        hook = await subscribe(tenant, bad.url, ["contact.created"])
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await bad.wait_for(1)
        before = (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()
        assert before["failing_since"] is not None
        clock.advance(minutes=5)
        after = await patch(tenant, hook["id"], {"status": "active"})
        assert after.status_code == 200 and after.json() == before
    finally:
        await bad.stop()
