"""Who may point a subscription somewhere (docs/webhooks.md, "Who may change where a
subscription sends"): changing `url` or `event_types`, re-enabling and redelivering need
every scope the subscription carries, before and after the change; an OAuth app changes
the url only of its own subscriptions; reads, pausing and DELETE need webhooks:manage
alone. Each rule with an API key and with an OAuth token, on SQLite and PostgreSQL; real
receivers on 127.0.0.1."""

import dataclasses
from collections.abc import Awaitable, Callable

import pytest

from homebase.console import webhooks as console_webhooks
from homebase.db.tenancy import TenantSession
from homebase.oauth import service as oauth
from tests.console_support import csrf, make_member, member_browser
from tests.oauth_support import make_app, token_pair
from tests.support import Tenant, assert_error, make_key
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

URL = "http://127.0.0.1:9/hook"
ELSEWHERE = "http://127.0.0.1:9/elsewhere"
MANAGE = "webhooks:manage"
# What a full-scope key's `event_types: []` subscription carries, in the scope list's order.
EVERY_READ = [
    "contacts:read",
    "leads:read",
    "messages:read",
    "calls:read",
    "deals:read",
    "appointments:read",
    "automations:read",
]

Caller = Callable[..., Awaitable[Tenant]]


@pytest.fixture(params=["api_key", "oauth_token"])
def caller(request, runtime, client, tenant) -> Caller:
    """caller(scopes) -> a credential of `tenant`'s workspace holding exactly `scopes`: an
    API key, or an access token of an app the workspace granted those scopes."""

    async def factory(scopes) -> Tenant:
        if request.param == "api_key":
            key_id, key = await make_key(runtime, tenant.id, scopes)
            headers = {"Authorization": f"token {key}"}
        else:
            pair = await token_pair(runtime, client, await make_app(runtime), tenant.id, scopes)
            key_id, key = "", pair["access_token"]
            headers = {"Authorization": f"Bearer {key}"}
        return Tenant(id=tenant.id, key=key, key_id=key_id, client=client, headers=headers)

    return factory


def refused(response, scope: str) -> None:
    """403 insufficient_scope whose message and details both name `scope`."""
    error = assert_error(response, 403, "insufficient_scope")
    assert error["details"] == {"missing_scope": scope}, error
    assert scope in error["message"]


async def first_delivery(tenant, runtime, hook_id: str) -> str:
    """A delivery of the subscription (its first attempt fails at port 9: still pending)."""
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    deliveries = (await tenant.get(f"/v1/webhooks/{hook_id}/deliveries")).json()["data"]
    assert deliveries, "no delivery was made"
    return deliveries[0]["id"]


def redeliver_path(hook_id: str, delivery_id: str) -> str:
    return f"/v1/webhooks/{hook_id}/deliveries/{delivery_id}/redeliver"


async def test_a_manage_only_credential_cannot_redirect_a_full_subscription(
    tenant, runtime, caller
):
    """The reproduction: a full-scope key's all-events subscription, a credential holding
    only webhooks:manage. Nothing it sends moves the subscription or its deliveries."""
    owner, thief = await Receiver().start(), await Receiver().start()
    try:
        hook = await subscribe(tenant, owner.url)
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await owner.wait_for(1)
        [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
        before = (await tenant.get(f"/v1/webhooks/{hook['id']}")).json()

        manager = await caller([MANAGE])
        path = f"/v1/webhooks/{hook['id']}"
        for body in (
            {"url": thief.url},
            {"url": thief.url, "event_types": []},
            {"event_types": ["contact.created"]},
            {"status": "active"},
        ):
            refused(await manager.patch(path, body), "contacts:read")
        refused(await manager.post(redeliver_path(hook["id"], delivery["id"])), "contacts:read")

        assert (await tenant.get(path)).json() == before
        [unchanged] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
        assert unchanged["status"] == "succeeded" and unchanged["attempts"] == 1
        lead = await tenant.post("/v1/leads", {"phone": "+1 415 555 0101", "source": "Zillow"})
        assert lead.status_code == 201, lead.text
        await work(runtime)
        received = await owner.wait_for(3)  # Ana's contact, then the lead's contact and lead
        assert "lead.created" in {request.headers["x-webhook-event"] for request in received}
        assert thief.requests == []
    finally:
        await owner.stop()
        await thief.stop()


async def test_the_first_missing_scope_is_named_in_the_scope_lists_order(tenant, caller):
    """A credential holding some of what the subscription carries is told the first scope
    it lacks in the scope list's order, not the event catalogue's (appointment events
    come before deal events there; appointments:read after deals:read here)."""
    everything = await subscribe(tenant, URL)
    path = f"/v1/webhooks/{everything['id']}"
    for held, missing in (
        (["contacts:read"], "leads:read"),
        (["contacts:write", "leads:read", "messages:read", "calls:read"], "deals:read"),
        (EVERY_READ[:5], "appointments:read"),
        (EVERY_READ[:6], "automations:read"),
    ):
        refused(await (await caller([MANAGE, *held])).patch(path, {"url": ELSEWHERE}), missing)
    two = await subscribe(tenant, URL, ["appointment.booked", "deal.stage_changed"])
    manager = await caller([MANAGE, "contacts:read"])
    refused(await manager.patch(f"/v1/webhooks/{two['id']}", {"url": ELSEWHERE}), "deals:read")
    assert (await tenant.get(path)).json()["url"] == URL


async def test_re_enabling_needs_the_scopes_pausing_does_not(tenant, runtime, caller):
    hook = await subscribe(tenant, URL, ["contact.created", "lead.created"])
    path = f"/v1/webhooks/{hook['id']}"
    delivery_id = await first_delivery(tenant, runtime, hook["id"])
    manager = await caller([MANAGE, "contacts:read"])
    paused = await manager.patch(path, {"status": "disabled"})
    assert paused.status_code == 200 and paused.json()["disabled_reason"] == "paused"

    refused(await manager.patch(path, {"status": "active"}), "leads:read")
    refused(await manager.post(redeliver_path(hook["id"], delivery_id)), "leads:read")
    assert (await tenant.get(path)).json()["status"] == "disabled"

    holder = await caller([MANAGE, "contacts:read", "leads:write"])  # leads:write reads leads
    enabled = await holder.patch(path, {"status": "active"})
    assert enabled.status_code == 200, enabled.text
    assert enabled.json()["status"] == "active" and enabled.json()["disabled_reason"] is None


async def test_a_credential_holding_the_scopes_may_do_each(tenant, runtime, caller):
    """Implications count: contacts:write and contacts:read:pii both read contact events,
    deals:write reads deal events."""
    hook = await subscribe(tenant, URL, ["contact.created", "deal.stage_changed"])
    path = f"/v1/webhooks/{hook['id']}"
    delivery_id = await first_delivery(tenant, runtime, hook["id"])
    for held in (["contacts:write", "deals:read"], ["contacts:read:pii", "deals:write"]):
        holder = await caller([MANAGE, *held])
        assert (await holder.patch(path, {"status": "disabled"})).status_code == 200
        enabled = await holder.patch(path, {"status": "active"})
        assert enabled.status_code == 200 and enabled.json()["status"] == "active"
        changed = await holder.patch(path, {"event_types": ["deal.stage_changed"]})
        assert changed.status_code == 200 and changed.json()["event_types"] == [
            "deal.stage_changed"
        ]
        back = await holder.patch(path, {"event_types": ["contact.created", "deal.stage_changed"]})
        assert back.status_code == 200, back.text
        again = await holder.post(redeliver_path(hook["id"], delivery_id))
        assert again.status_code == 202 and again.json()["status"] == "pending"


async def test_an_all_events_subscription_carries_its_creators_read_scopes(tenant, runtime, caller):
    """`event_types: []` carries what its creator could read (stored at creation), not
    every event: a credential reading those may re-point and replay it."""
    _, creator_key = await make_key(runtime, tenant.id, [MANAGE, "contacts:read", "leads:read"])
    creator = Tenant(
        tenant.id, creator_key, "", tenant.client, {"Authorization": f"token {creator_key}"}
    )
    hook = await subscribe(creator, URL)
    path = f"/v1/webhooks/{hook['id']}"
    delivery_id = await first_delivery(tenant, runtime, hook["id"])

    refused(
        await (await caller([MANAGE, "contacts:read"])).patch(path, {"url": ELSEWHERE}),
        "leads:read",
    )
    holder = await caller([MANAGE, "contacts:read", "leads:read"])
    again = await holder.post(redeliver_path(hook["id"], delivery_id))
    assert again.status_code == 202, again.text
    # An app may re-point only its own subscriptions (below); the key's is re-pointed by keys.
    owner = holder if holder.headers["Authorization"].startswith("token") else creator
    moved = await owner.patch(path, {"url": ELSEWHERE})
    assert moved.status_code == 200 and moved.json()["url"] == ELSEWHERE


async def test_the_subscription_as_it_would_be_after_the_change(tenant, caller):
    """event_types is checked as it is and as it would be: a credential may neither widen
    a subscription to events it can't read nor narrow away events it can't read."""
    manager = await caller([MANAGE, "contacts:read"])
    contacts = await subscribe(tenant, URL, ["contact.created"])
    path = f"/v1/webhooks/{contacts['id']}"
    refused(
        await manager.patch(path, {"event_types": ["contact.created", "lead.created"]}),
        "leads:read",
    )
    refused(await manager.patch(path, {"event_types": ["call.completed"]}), "calls:read")
    refused(
        await manager.patch(path, {"url": ELSEWHERE, "event_types": ["message.sent"]}),
        "messages:read",
    )
    assert (await tenant.get(path)).json()["event_types"] == ["contact.created"]
    assert (await tenant.get(path)).json()["url"] == URL

    both = await subscribe(tenant, URL, ["contact.created", "lead.created"])
    refused(
        await manager.patch(f"/v1/webhooks/{both['id']}", {"event_types": ["contact.created"]}),
        "leads:read",
    )
    everything = await subscribe(tenant, URL)
    refused(
        await manager.patch(
            f"/v1/webhooks/{everything['id']}", {"event_types": ["contact.created"]}
        ),
        "leads:read",
    )
    assert (await tenant.get(f"/v1/webhooks/{both['id']}")).json()["event_types"] == [
        "contact.created",
        "lead.created",
    ]
    assert (await tenant.get(f"/v1/webhooks/{everything['id']}")).json()["event_types"] == []

    fine = await manager.patch(path, {"event_types": ["contact.updated", "contact.created"]})
    assert fine.status_code == 200, fine.text


async def test_reads_pausing_and_delete_need_webhooks_manage_only(tenant, runtime, caller):
    hook = await subscribe(tenant, URL)
    path = f"/v1/webhooks/{hook['id']}"
    await first_delivery(tenant, runtime, hook["id"])
    manager = await caller([MANAGE])
    listed = await manager.get("/v1/webhooks")
    assert listed.status_code == 200 and [item["id"] for item in listed.json()["data"]] == [
        hook["id"]
    ]
    assert (await manager.get(path)).json() == (await tenant.get(path)).json()
    deliveries = await manager.get(f"{path}/deliveries")
    assert deliveries.status_code == 200 and len(deliveries.json()["data"]) == 1
    paused = await manager.patch(path, {"status": "disabled"})
    assert paused.status_code == 200 and paused.json()["status"] == "disabled"
    deleted = await manager.delete(path)
    assert deleted.status_code == 200 and deleted.json() == {"id": hook["id"], "deleted": True}
    assert (await tenant.get(path)).status_code == 404


async def test_another_workspaces_subscription_is_404_before_any_scope(tenant, make):
    hook = await subscribe(tenant, URL)
    foreign = await make([MANAGE])
    for body in ({"url": ELSEWHERE}, {"status": "active"}):
        assert_error(await foreign.patch(f"/v1/webhooks/{hook['id']}", body), 404, "not_found")
    assert_error(
        await foreign.post(redeliver_path(hook["id"], "whd_00000000000000000000000000")),
        404,
        "not_found",
    )


async def test_a_delivery_is_not_looked_up_for_a_caller_lacking_the_scopes(tenant, caller):
    """The 403 comes before the delivery's 404: a caller that may not replay the
    subscription learns nothing of its deliveries."""
    hook = await subscribe(tenant, URL, ["lead.created"])
    manager = await caller([MANAGE])
    refused(
        await manager.post(redeliver_path(hook["id"], "whd_00000000000000000000000000")),
        "leads:read",
    )


async def app_token(runtime, client, tenant, scopes) -> tuple[str, Tenant]:
    app = await make_app(runtime)
    token = (await token_pair(runtime, client, app, tenant.id, scopes))["access_token"]
    return app.client_id, Tenant(tenant.id, token, "", client, {"Authorization": f"Bearer {token}"})


async def test_an_app_changes_the_url_only_of_its_own_subscriptions(runtime, client, tenant):
    """An app holding every scope may still not re-point the workspace's subscription (or
    another app's): that one would outlive the app's revocation. It may change the rest
    (event_types, status, redeliver) under the scope rule."""
    scopes = [MANAGE, *EVERY_READ]
    client_id, app = await app_token(runtime, client, tenant, scopes)
    _, other_app = await app_token(runtime, client, tenant, scopes)
    workspaces = await subscribe(tenant, URL, ["contact.created"])
    others = await subscribe(other_app, URL, ["contact.created"])
    own = await subscribe(app, URL, ["contact.created"])
    for hook in (workspaces, others):
        path = f"/v1/webhooks/{hook['id']}"
        for body in ({"url": ELSEWHERE}, {"url": ELSEWHERE, "status": "active"}):
            assert_error(await app.patch(path, body), 403, "not_the_apps_subscription")
        assert (await tenant.get(path)).json()["url"] == URL
        widened = await app.patch(path, {"event_types": ["contact.created", "lead.created"]})
        assert widened.status_code == 200, widened.text
    moved = await app.patch(f"/v1/webhooks/{own['id']}", {"url": ELSEWHERE})
    assert moved.status_code == 200 and moved.json()["url"] == ELSEWHERE

    # A key holding the scopes may re-point the app's subscription; it stays the app's and
    # ends when the workspace revokes the app.
    back = await tenant.patch(f"/v1/webhooks/{own['id']}", {"url": URL})
    assert back.status_code == 200 and back.json()["url"] == URL
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        assert await oauth.revoke_grant(session, client_id)
    assert (await tenant.get(f"/v1/webhooks/{own['id']}")).status_code == 404
    assert (await tenant.get(f"/v1/webhooks/{workspaces['id']}")).status_code == 200


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_the_document_says_who_may_patch_and_redeliver(client):
    """PATCH and redeliver say who may in their descriptions and declare their own 403;
    the reads and DELETE keep the shared one (webhooks:manage alone)."""
    response = await client.get("/v1/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    one = paths["/v1/webhooks/{id}"]
    redeliver = paths["/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver"]["post"]
    for operation, codes in (
        (one["patch"], ("insufficient_scope", "not_the_apps_subscription")),
        (redeliver, ("insufficient_scope",)),
    ):
        assert "**Who may**" in operation["description"]
        assert "every scope the subscription carries" in operation["description"]
        forbidden = operation["responses"]["403"]
        assert all(code in forbidden["description"] for code in codes), forbidden
        assert forbidden["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorEnvelope"
        }
    assert one["get"]["responses"]["403"] == one["delete"]["responses"]["403"]
    assert one["get"]["responses"]["403"] == {"$ref": "#/components/responses/InsufficientScope"}


async def test_the_consoles_enable_and_redeliver_take_the_same_check(
    app, runtime, tenant, monkeypatch
):
    """A member holds every scope today, so Enable and Redeliver pass. With a member
    principal holding webhooks:manage alone (as a role with fewer scopes would), both
    are refused pages naming the scope, and nothing changes."""
    hook = await subscribe(tenant, URL, ["lead.created", "contact.created"])
    delivery_id = await first_delivery(tenant, runtime, hook["id"])
    path = f"/v1/webhooks/{hook['id']}"
    assert (await tenant.patch(path, {"status": "disabled"})).status_code == 200
    page = f"/console/webhooks/{hook['id']}"
    enable = f"{page}/enable"
    redeliver = f"{page}/deliveries/{delivery_id}/redeliver"
    member = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, member) as console:
        token = csrf((await console.get(page)).text)
        every_scope = console_webhooks.member_principal
        monkeypatch.setattr(
            console_webhooks,
            "member_principal",
            lambda member: dataclasses.replace(every_scope(member), scopes=frozenset({MANAGE})),
        )
        for action in (enable, redeliver):
            answer = await console.post(action, data={"csrf_token": token})
            assert answer.status_code == 403 and "contacts:read" in answer.text, answer.text
        assert (await tenant.get(path)).json()["status"] == "disabled"

        monkeypatch.setattr(console_webhooks, "member_principal", every_scope)
        assert (await console.post(enable, data={"csrf_token": token})).status_code == 303
        assert (await console.post(redeliver, data={"csrf_token": token})).status_code == 303
    assert (await tenant.get(path)).json()["status"] == "active"
    [delivery] = (await tenant.get(f"{path}/deliveries")).json()["data"]
    assert delivery["status"] == "pending" and delivery["attempts"] == 0
