"""A webhook subscription lives within the credential that created it as
docs/webhooks.md ("Who created a subscription") says: an app's ends when the workspace
revokes the app (admin command, console), its pending deliveries and retries cancelled,
and it receives only what the app's grant reads now; an API key's outlives the key.
Real receivers on 127.0.0.1, a FrozenClock for the retry schedule; SQLite and PostgreSQL."""

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.models import OAuthGrant, WebhookDelivery
from homebase.oauth import service as oauth
from homebase.webhooks import dispatcher, jobs
from homebase.webhooks.delivery import AttemptResult
from homebase.webhooks.grants import NOT_COVERED
from tests.cli.test_cli import Cli, assert_ok
from tests.console_support import make_member, member_browser, post_form
from tests.oauth_support import authorize_app, make_app, token_pair
from tests.support import make_key
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

APP_SCOPES = ("contacts:read", "deals:read", "webhooks:manage")
deliveries = WebhookDelivery.__table__
grants = OAuthGrant.__table__


@pytest.fixture
async def receivers():
    """Two receivers: the app's subscription posts to the first, the workspace's own
    (API key) to the second."""
    started = [await Receiver().start(), await Receiver().start()]
    yield started
    for receiver in started:
        await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def app_subscription(runtime, client, tenant, url, scopes=APP_SCOPES, event_types=()):
    """An app authorized by the workspace, and a subscription made with its token."""
    app = await make_app(runtime)
    pair = await token_pair(runtime, client, app, tenant.id, scopes)
    response = await client.post(
        "/v1/webhooks",
        json={"url": url, "event_types": list(event_types)},
        headers={"Authorization": f"Bearer {pair['access_token']}"},
    )
    assert response.status_code == 201, response.text
    return app, response.json()


async def statuses(runtime, subscription_id: str) -> list[str]:
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(deliveries.c.status)
            .where(deliveries.c.subscription_id == subscription_id)
            .order_by(deliveries.c.id)
        )
        return [row.status for row in rows]


async def drain(runtime, clock, rounds: int = 8) -> None:
    """Worker rounds across the whole retry schedule (1 + 2 + ... + 16 units)."""
    for _ in range(rounds):
        await work(runtime)
        clock.advance(seconds=16 * runtime.settings.webhook_backoff_unit_seconds)
    await work(runtime)


def admin_cli(tmp_path, database_url: str) -> Cli:
    """`homebase admin ...` (main(), in this process) against the test's database."""
    cli = Cli(tmp_path)
    cli.url = database_url
    return cli


async def test_revoke_app_command_ends_the_apps_subscriptions(
    runtime, client, tenant, receivers, clock, tmp_path, database_url
):
    app_receiver, own_receiver = receivers
    app, hook = await app_subscription(runtime, client, tenant, app_receiver.url)
    own = await subscribe(tenant, own_receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await app_receiver.wait_for(1)
    await own_receiver.wait_for(1)

    # The next event fails at both receivers: each delivery now waits for its retry.
    app_receiver.respond, own_receiver.respond = script(500, 200), script(500, 200)
    await tenant.post("/v1/contacts", {"first_name": "Bea"})
    await work(runtime)
    await app_receiver.wait_for(2)
    assert await statuses(runtime, hook["id"]) == ["succeeded", "pending"]

    assert assert_ok(
        admin_cli(tmp_path, database_url).in_process(
            "admin", "revoke-app", "--workspace", tenant.id, "--client-id", app.client_id
        )
    ) == {"revoked": True}
    assert await statuses(runtime, hook["id"]) == ["succeeded", "cancelled"]
    await tenant.post("/v1/contacts", {"first_name": "Cleo", "email": "cleo@example.com"})
    await drain(runtime, clock)

    assert len(app_receiver.requests) == 2  # no retry, no new event
    assert await statuses(runtime, hook["id"]) == ["succeeded", "cancelled"]
    assert (await tenant.get(f"/v1/webhooks/{hook['id']}")).status_code == 404
    listed = (await tenant.get("/v1/webhooks")).json()["data"]
    assert [item["id"] for item in listed] == [own["id"]]
    # The workspace's own subscription is untouched: its retry and the new event arrive.
    assert len(await own_receiver.wait_for(4)) == 4
    assert await statuses(runtime, own["id"]) == ["succeeded", "succeeded", "succeeded"]


async def test_console_revoke_ends_them_and_fences_an_attempt_in_flight(
    app, runtime, client, tenant, receivers, clock
):
    app_receiver, _ = receivers
    oauth_app, hook = await app_subscription(
        runtime, client, tenant, app_receiver.url, event_types=["contact.created"]
    )
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await jobs.fan_out(runtime)
    async with runtime.db.transaction() as connection:  # a worker is making the attempt
        [in_flight] = await dispatcher.claim(connection, runtime.settings, clock(), 10)

    member = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, member) as console:
        revoked = await post_form(
            console,
            "/console/connected-apps",
            f"/console/connected-apps/{oauth_app.client_id}/revoke",
            {},
        )
    assert revoked.status_code == 303, revoked.text
    assert await statuses(runtime, hook["id"]) == ["cancelled"]

    # The attempt's failure arrives after the revocation: logged, but nothing is retried.
    async with runtime.db.transaction() as connection:
        await dispatcher.record(
            connection, [(in_flight, AttemptResult(False, 503, 5, None))], clock(), runtime.settings
        )
    # Re-authorizing the app later does not bring the ended subscription back.
    await authorize_app(runtime, oauth_app, tenant.id, APP_SCOPES)
    await tenant.post("/v1/contacts", {"first_name": "Bea"})
    clock.advance(seconds=runtime.settings.webhook_lease_seconds + 1)
    await drain(runtime, clock)
    assert app_receiver.requests == []
    assert await statuses(runtime, hook["id"]) == ["cancelled"]


async def test_a_narrowed_grant_narrows_the_events(runtime, client, tenant, receivers, clock):
    """No operation narrows a live grant today (approving again extends it), so the grant
    row is narrowed directly, as a future 'edit scopes' would: events of the dropped scope
    stop, and a retry queued before the change is cancelled, not sent."""
    app_receiver, _ = receivers
    oauth_app, hook = await app_subscription(runtime, client, tenant, app_receiver.url)
    app_receiver.respond = script(500, 200)
    contact = (await tenant.post("/v1/contacts", {"first_name": "Ana"})).json()
    await work(runtime)
    await app_receiver.wait_for(1)  # contact.created failed once: a retry is pending

    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(grants)
            .where(grants.c.client_id == oauth_app.client_id)
            .values(scopes=["deals:read", "webhooks:manage"])
        )
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    stages = pipelines[0]["stages"]
    deal = (
        await tenant.post(
            "/v1/deals",
            {
                "title": "12 Elm St",
                "contact_id": contact["id"],
                "pipeline_id": pipelines[0]["id"],
                "stage_id": stages[0]["id"],
            },
        )
    ).json()
    await tenant.patch(f"/v1/deals/{deal['id']}", {"stage_id": stages[1]["id"]})
    await tenant.post("/v1/contacts", {"first_name": "Bea"})
    await drain(runtime, clock)

    received = [request.headers["x-webhook-event"] for request in app_receiver.requests]
    assert received == ["contact.created", "deal.stage_changed"]
    log = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    by_type = {item["event_type"]: item for item in log}
    assert set(by_type) == {"contact.created", "deal.stage_changed"}
    assert by_type["contact.created"]["status"] == "cancelled"
    assert by_type["contact.created"]["last_error"] == NOT_COVERED
    assert by_type["deal.stage_changed"]["status"] == "succeeded"


async def test_a_grant_revoked_and_approved_again_with_fewer_scopes(
    runtime, client, tenant, receivers, clock
):
    """The old subscription stays ended; one made with the new grant reads only its scopes."""
    app_receiver, own_receiver = receivers
    oauth_app, old = await app_subscription(runtime, client, tenant, app_receiver.url)
    async with runtime.db.transaction() as connection:
        await oauth.revoke_grant(
            TenantSession(connection, tenant.id, clock=clock), oauth_app.client_id
        )
    pair = await token_pair(
        runtime, client, oauth_app, tenant.id, ("deals:read", "webhooks:manage")
    )
    headers = {"Authorization": f"Bearer {pair['access_token']}"}
    refused = await client.post(
        "/v1/webhooks",
        headers=headers,
        json={"url": own_receiver.url, "event_types": ["contact.created"]},
    )
    assert refused.status_code == 403, refused.text
    new = await client.post(
        "/v1/webhooks", headers=headers, json={"url": own_receiver.url, "event_types": []}
    )
    assert new.status_code == 201, new.text
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await drain(runtime, clock)
    assert app_receiver.requests == [] and own_receiver.requests == []
    assert await statuses(runtime, old["id"]) == []


async def test_an_api_key_subscription_outlives_the_key(
    runtime, tenant, receivers, clock, client, tmp_path, database_url
):
    """docs/decisions.md, 'API-key revocation and webhooks': rotating a key (create a new
    one, revoke the old) must not stop the workspace's webhooks."""
    _, own_receiver = receivers
    key_id, key = await make_key(runtime, tenant.id, ["contacts:read", "webhooks:manage"])
    response = await client.post(
        "/v1/webhooks",
        headers={"Authorization": f"token {key}"},
        json={"url": own_receiver.url, "event_types": []},
    )
    assert response.status_code == 201, response.text
    assert_ok(
        admin_cli(tmp_path, database_url).in_process("admin", "revoke-api-key", "--id", key_id)
    )
    assert (
        await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    ).status_code == 401
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await drain(runtime, clock)
    [request] = await own_receiver.wait_for(1)
    assert request.headers["x-webhook-event"] == "contact.created"


def row_of(html: str, subscription_id: str) -> str:
    match = re.search(rf'<tr id="{subscription_id}">(.*?)</tr>', html, re.S)
    assert match, f"no row for {subscription_id}"
    return match.group(1)


async def test_the_console_shows_who_created_each_subscription(app, runtime, client, tenant):
    oauth_app, by_app = await app_subscription(runtime, client, tenant, "http://127.0.0.1:9/a")
    by_key = await subscribe(tenant, "http://127.0.0.1:9/k")
    member = await make_member(runtime, tenant.id, name="Dana <Scully>")
    async with member_browser(app, runtime, member) as console:
        created = await post_form(
            console, "/console/webhooks", "/console/webhooks", {"url": "http://127.0.0.1:9/m"}
        )
        assert created.status_code == 200, created.text
        page = (await console.get("/console/webhooks")).text
        [by_member] = [
            row
            for row in (await tenant.get("/v1/webhooks")).json()["data"]
            if row["url"].endswith("/m")
        ]
        log = (await console.get(f"/console/webhooks/{by_app['id']}")).text
        keys = (await console.get("/console/api-keys")).text
        apps = (await console.get("/console/connected-apps")).text

    assert "Created by" in page
    app_row = row_of(page, by_app["id"])
    assert "Acme CRM Sync" in app_row and oauth_app.client_id in app_row
    assert "Ends when the app&#39;s access is revoked" in app_row
    key_row = row_of(page, by_key["id"])
    assert "API key test" in key_row and tenant.key[:8] in key_row
    assert "Revoking the key does not stop it" in key_row
    member_row = row_of(page, by_member["id"])
    assert "Console: Dana &lt;Scully&gt;" in member_row and "Stays until deleted" in member_row
    assert "Acme CRM Sync" in log and "Ends when the app&#39;s access is revoked" in log
    assert "does not stop the webhook subscriptions created with it" in keys
    assert "every webhook subscription it created" in apps


async def test_0012_records_creators_and_ends_subscriptions_of_revoked_grants(
    backend, tmp_path, request
):
    """Subscriptions made before 0012 learn their creator's kind (and an app's grant);
    those whose grant was already revoked, which kept receiving until now, end at the
    grant's revocation time with their pending deliveries cancelled."""
    from sqlalchemy import insert
    from sqlalchemy.ext.asyncio import create_async_engine

    from homebase.db.migrate import upgrade
    from homebase.models import (
        ApiKey,
        OAuthClient,
        OAuthToken,
        OutboxEvent,
        User,
        WebhookSubscription,
        Workspace,
    )
    from tests.db.test_migrations import _fresh_postgres_database

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    await upgrade(url, "0011")
    now = datetime(2026, 11, 20, 17, 0, tzinfo=UTC)
    revoked_at = datetime(2026, 11, 21, 9, 30, tzinfo=UTC)
    ws = {"workspace_id": "wsp_1"}

    def subscription(id_, created_by):
        return {
            "id": id_,
            **ws,
            "url": "https://example.com/h",
            "event_types": [],
            "secret_encrypted": "x",
            "secret_hint": "whsec_ab",
            "scopes": [],
            "created_by": created_by,
            "created_at": now,
            "deleted_at": None,
        }

    def delivery(id_, subscription_id, status, event_id="evt_1"):
        return {
            "id": id_,
            **ws,
            "subscription_id": subscription_id,
            "event_id": event_id,
            "event_type": "contact.created",
            "status": status,
            "attempts": 1,
            "total_attempts": 1,
            "next_attempt_at": now if status == "pending" else None,
            "lease_expires_at": None,
            "lease_attempt_id": None,
            "created_at": now,
            "completed_at": None if status == "pending" else now,
        }

    def token(id_, grant_id, client_id):
        return {
            "id": id_,
            "kind": "access",
            "token_hash": id_,
            "client_id": client_id,
            "grant_id": grant_id,
            **ws,
            "scopes": ["contacts:read"],
            "created_at": now,
            "expires_at": now,
            "revoked_at": revoked_at if grant_id == "grt_old" else None,
        }

    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                insert(Workspace.__table__), {"id": "wsp_1", "name": "W", "created_at": now}
            )
            await connection.execute(
                insert(OAuthClient.__table__),
                [
                    {
                        "id": app,
                        "name": app,
                        "secret_hash": "h",
                        "secret_hint": "hbo_cs_",
                        "redirect_uris": [],
                        "created_at": now,
                    }
                    for app in ("app_old", "app_live")
                ],
            )
            await connection.execute(
                insert(grants),
                [
                    {
                        "id": "grt_old",
                        **ws,
                        "client_id": "app_old",
                        "scopes": ["contacts:read"],
                        "created_at": now,
                        "updated_at": revoked_at,
                        "revoked_at": revoked_at,
                    },
                    {
                        "id": "grt_live",
                        **ws,
                        "client_id": "app_live",
                        "scopes": ["contacts:read"],
                        "created_at": now,
                        "updated_at": now,
                        "revoked_at": None,
                    },
                ],
            )
            await connection.execute(
                insert(OAuthToken.__table__),
                [token("tok_old", "grt_old", "app_old"), token("tok_live", "grt_live", "app_live")],
            )
            await connection.execute(
                insert(ApiKey.__table__),
                {
                    "id": "key_1",
                    **ws,
                    "name": "k",
                    "key_hash": "h",
                    "key_hint": "hbk_abcd",
                    "scopes": [],
                    "created_at": now,
                },
            )
            await connection.execute(
                insert(User.__table__),
                {"id": "usr_1", **ws, "email": "a@example.com", "name": "A", "created_at": now},
            )
            await connection.execute(
                insert(OutboxEvent.__table__),
                [
                    {
                        "id": event_id,
                        **ws,
                        "type": "contact.created",
                        "data": {},
                        "occurred_at": now,
                    }
                    for event_id in ("evt_1", "evt_2")
                ],
            )
            await connection.execute(
                insert(WebhookSubscription.__table__),
                [
                    subscription("whk_old", "tok_old"),
                    subscription("whk_live", "tok_live"),
                    subscription("whk_key", "key_1"),
                    subscription("whk_member", "usr_1"),
                    subscription("whk_unknown", None),
                ],
            )
            await connection.execute(
                insert(deliveries),
                [
                    delivery("whd_1", "whk_old", "pending"),
                    delivery("whd_2", "whk_old", "succeeded", "evt_2"),
                    delivery("whd_3", "whk_live", "pending"),
                ],
            )
        await upgrade(url)
        subscriptions = WebhookSubscription.__table__
        async with engine.connect() as connection:
            found = {
                row.id: (row.created_by_kind, row.grant_id, row.deleted_at)
                for row in await connection.execute(select(subscriptions))
            }
            delivered = {
                row.id: (row.status, row.completed_at)
                for row in await connection.execute(select(deliveries))
            }
    finally:
        await engine.dispose()
    assert found == {
        "whk_old": ("oauth_token", "grt_old", revoked_at),
        "whk_live": ("oauth_token", "grt_live", None),
        "whk_key": ("api_key", None, None),
        "whk_member": ("console_member", None, None),
        "whk_unknown": (None, None, None),
    }
    assert delivered == {
        "whd_1": ("cancelled", revoked_at),
        "whd_2": ("succeeded", now),
        "whd_3": ("pending", None),
    }
