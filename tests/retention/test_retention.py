"""Retention (homebase/retention): each kind is pruned after its period and not before,
nothing still needed goes, batches are bounded, and the job runs in a worker round.
SQLite and PostgreSQL; time is a FrozenClock or an explicit `now`."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, insert, inspect, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from homebase.console.sessions import ABSOLUTE_LIFETIME, open_session
from homebase.kit.clock import FrozenClock
from homebase.models import (
    ConsoleSession,
    OAuthCode,
    OAuthToken,
    OutboxEvent,
    TaskDedupe,
    WebhookAttempt,
    WebhookDelivery,
)
from homebase.oauth.tokens import REFRESH_TOKEN_LIFETIME
from homebase.retention import jobs, service
from homebase.retention.service import CODE_GRACE, DEDUPE_GRACE, SESSION_GRACE, TOKEN_GRACE
from homebase.root.jobs import JOBS
from homebase.root.worker import run_round
from tests.console_support import make_member
from tests.oauth_support import grant_code, make_app, pkce_pair, refresh, token_pair
from tests.support import until
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def count(runtime, model) -> int:
    async with runtime.db.transaction(write=False) as connection:
        return (
            await connection.execute(select(func.count()).select_from(model.__table__))
        ).scalar_one()


async def prune(runtime, now: datetime) -> dict[str, int]:
    return await service.prune(runtime.db, runtime.settings, now=now)


async def test_webhook_history_goes_after_the_period_and_not_before(
    tenant, runtime, receiver, clock
):
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    assert (await tenant.post("/v1/contacts", {"first_name": "Ana"})).status_code == 201
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "succeeded"
    period = timedelta(days=runtime.settings.retention_events_days)

    kept = await prune(runtime, clock() + period - SECOND)
    assert kept["webhook_deliveries"] == kept["outbox_events"] == 0
    assert [
        await count(runtime, model) for model in (OutboxEvent, WebhookDelivery, WebhookAttempt)
    ] == [1, 1, 1]

    pruned = await prune(runtime, clock() + period + SECOND)
    assert pruned["webhook_deliveries"] == 1 and pruned["outbox_events"] == 1
    assert [
        await count(runtime, model) for model in (OutboxEvent, WebhookDelivery, WebhookAttempt)
    ] == [0, 0, 0]
    listed = await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")
    assert listed.status_code == 200 and listed.json()["data"] == []
    # Pruned is not redeliverable: the delivery is unknown, as any other id would be.
    gone = await tenant.post(f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver")
    assert gone.status_code == 404, gone.text


async def test_an_event_stays_while_a_delivery_of_it_is_pending_or_recent(tenant, runtime, clock):
    # Port 9 refuses: the delivery fails its first attempt and stays pending.
    await subscribe(tenant, "http://127.0.0.1:9/hook", ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    later = clock() + timedelta(days=90)

    pruned = await prune(runtime, later)
    assert pruned["webhook_deliveries"] == 0 and pruned["outbox_events"] == 0
    assert await count(runtime, OutboxEvent) == 1
    async with runtime.db.transaction(write=False) as connection:
        states = (
            (await connection.execute(select(WebhookDelivery.__table__.c.status))).scalars().all()
        )
    assert states == ["pending"]


async def test_an_undispatched_event_and_a_dispatched_one_without_deliveries(
    tenant, runtime, clock
):
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)  # dispatched; no subscription, so no delivery
    await tenant.post("/v1/contacts", {"first_name": "Bo"})  # never dispatched
    pruned = await prune(runtime, clock() + timedelta(days=31))
    assert pruned["outbox_events"] == 1
    async with runtime.db.transaction(write=False) as connection:
        left = (
            (await connection.execute(select(OutboxEvent.__table__.c.dispatched_at)))
            .scalars()
            .all()
        )
    assert left == [None]


async def test_a_redelivered_delivery_counts_from_its_last_completion(
    tenant, runtime, receiver, clock
):
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    clock.advance(days=20)
    path = f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver"
    assert (await tenant.post(path)).status_code == 202
    await work(runtime)
    pruned = await prune(runtime, clock() + timedelta(days=29))  # 49 days after the first
    assert pruned["webhook_deliveries"] == 0 and pruned["outbox_events"] == 0
    assert await count(runtime, WebhookAttempt) == 2
    pruned = await prune(runtime, clock() + timedelta(days=31))
    assert pruned["webhook_deliveries"] == 1 and await count(runtime, WebhookAttempt) == 0


async def test_console_sessions_after_their_expiry_and_grace(tenant, runtime, clock):
    user_id = await make_member(runtime, tenant.id)
    await open_session(runtime, user_id)
    end = clock() + ABSOLUTE_LIFETIME + SESSION_GRACE
    assert (await prune(runtime, end))["console_sessions"] == 0
    assert (await prune(runtime, end + SECOND))["console_sessions"] == 1
    assert await count(runtime, ConsoleSession) == 0


async def test_task_dedupe_claims_after_the_window_and_margin(tenant, runtime, clock):
    assert (await tenant.post("/v1/tasks", {"title": "Call back"})).status_code == 201
    end = clock() + timedelta(seconds=60) + DEDUPE_GRACE
    assert (await prune(runtime, end))["task_dedupe"] == 0
    assert (await prune(runtime, end + SECOND))["task_dedupe"] == 1
    assert await count(runtime, TaskDedupe) == 0
    # The task itself is business data and stays.
    assert len((await tenant.get("/v1/tasks")).json()["data"]) == 1


async def test_oauth_codes_used_or_not_after_expiry_and_grace(tenant, runtime, client, clock):
    app = await make_app(runtime)
    await token_pair(runtime, client, app, tenant.id)  # a used code
    _verifier, challenge = pkce_pair()
    await grant_code(runtime, app, tenant.id, challenge)  # an unused one
    end = clock() + timedelta(minutes=5) + CODE_GRACE
    assert (await prune(runtime, end))["oauth_codes"] == 0
    assert (await prune(runtime, end + SECOND))["oauth_codes"] == 2
    assert await count(runtime, OAuthCode) == 0


async def test_a_retired_refresh_token_stays_while_its_family_can_be_replayed(
    tenant, runtime, client, clock
):
    app = await make_app(runtime)
    first = await token_pair(runtime, client, app, tenant.id)
    clock.advance(days=29)
    rotated = await refresh(client, app, first["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    # 32 days on: the first pair is past its expiry; the first refresh token is retired,
    # and its family (the grant) still has a live refresh token.
    clock.advance(days=3)
    pruned = await prune(runtime, clock())
    assert pruned["oauth_tokens"] == 2  # the two access tokens (1 h), not the retired one
    assert await count(runtime, OAuthToken) == 2

    replay = await refresh(client, app, first["refresh_token"])
    assert replay.status_code == 400 and "already used" in replay.json()["error_description"]
    after = await refresh(client, app, rotated.json()["refresh_token"])
    assert after.status_code == 400  # the family was ended by the replay

    # The family is revoked, so a replay has nothing left to end: the first refresh token
    # (expired) goes now, the second once it has expired too.
    assert (await prune(runtime, clock()))["oauth_tokens"] == 1
    end = clock() - timedelta(days=3) + REFRESH_TOKEN_LIFETIME + TOKEN_GRACE
    assert (await prune(runtime, end))["oauth_tokens"] == 0
    assert (await prune(runtime, end + SECOND))["oauth_tokens"] == 1
    assert await count(runtime, OAuthToken) == 0


async def test_retired_refresh_tokens_go_once_no_refresh_token_of_the_grant_is_live(
    tenant, runtime, client, clock
):
    app = await make_app(runtime)
    first = await token_pair(runtime, client, app, tenant.id)
    clock.advance(days=1)
    assert (await refresh(client, app, first["refresh_token"])).status_code == 200
    rotated_expiry = clock() + REFRESH_TOKEN_LIFETIME
    assert (await prune(runtime, rotated_expiry - SECOND))["oauth_tokens"] == 2  # access
    assert await count(runtime, OAuthToken) == 2
    # Past the rotated one's expiry no refresh token of the grant is live: both go.
    assert (await prune(runtime, rotated_expiry + TOKEN_GRACE + SECOND))["oauth_tokens"] == 2
    assert await count(runtime, OAuthToken) == 0


async def _dedupe_rows(runtime, workspace_id: str, n: int, expires_at: datetime) -> None:
    async with runtime.db.transaction() as connection:
        await connection.execute(
            insert(TaskDedupe.__table__),
            [
                {
                    "workspace_id": workspace_id,
                    "dedupe_key": f"key-{i:04}",
                    "task_id": f"tsk_{i}",
                    "expires_at": expires_at,
                }
                for i in range(n)
            ],
        )


@pytest.mark.parametrize(
    "settings_overrides", [{"retention_batch_size": 3, "retention_max_batches": 2}]
)
async def test_batches_are_bounded_and_later_runs_finish(tenant, runtime, clock):
    await _dedupe_rows(runtime, tenant.id, 8, clock() - timedelta(hours=1))
    user_id = await make_member(runtime, tenant.id)
    for _ in range(4):
        await open_session(runtime, user_id)
    later = clock() + timedelta(days=3)

    first = await prune(runtime, later)
    assert first["task_dedupe"] == 6 and first["console_sessions"] == 4  # 2 batches of 3
    assert await count(runtime, TaskDedupe) == 2
    second = await prune(runtime, later)
    assert second["task_dedupe"] == 2 and second["console_sessions"] == 0
    assert await count(runtime, TaskDedupe) == 0


@pytest.mark.parametrize("settings_overrides", [{"retention_interval_minutes": 10}])
async def test_the_job_runs_in_a_worker_round_at_most_every_interval(tenant, runtime, clock):
    assert [job.run for job in JOBS if job.name == "retention.prune"] == [jobs.prune]
    await _dedupe_rows(runtime, tenant.id, 2, clock() - timedelta(hours=1))
    await run_round(runtime)
    assert await count(runtime, TaskDedupe) == 0

    await _dedupe_rows(runtime, tenant.id, 1, clock() - timedelta(hours=1))
    clock.advance(minutes=9)
    await run_round(runtime)
    assert await count(runtime, TaskDedupe) == 1  # not yet: it ran 9 minutes ago
    clock.advance(minutes=1)
    await run_round(runtime)
    assert await count(runtime, TaskDedupe) == 0


async def test_the_pruning_indexes_exist(database_url):
    expected = {
        "webhook_deliveries": {
            "ix_webhook_deliveries_completed_at",
            "ix_webhook_deliveries_event_id",
        },
        "webhook_attempts": {"ix_webhook_attempts_delivery_id"},
        "console_sessions": {"ix_console_sessions_expires_at"},
        "oauth_codes": {"ix_oauth_codes_expires_at"},
        "oauth_tokens": {"ix_oauth_tokens_expires_at"},
        "task_dedupe": {"ix_task_dedupe_expires_at"},
        "outbox_events": {"ix_outbox_events_pending"},
    }
    engine = create_async_engine(database_url)
    async with engine.connect() as connection:
        found = await connection.run_sync(
            lambda sync: {
                table: {index["name"] for index in inspect(sync).get_indexes(table)}
                for table in expected
            }
        )
    await engine.dispose()
    for table, names in expected.items():
        assert names <= found[table], table


async def test_a_redelivery_waiting_on_a_prune_batch_is_404_not_409(
    tenant, runtime, receiver, clock, backend
):
    """PostgreSQL: the batch has locked (and deleted) the delivery when the redelivery's
    UPDATE arrives; the UPDATE waits, then finds nothing. That is a pruned delivery (404),
    not an attempt in flight (409)."""
    if backend != "postgres":
        pytest.skip("on SQLite the batch and the request are serialised by the write lock")
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    kind = service.KINDS[0]
    assert kind.name == "webhook_deliveries"
    later = clock() + timedelta(days=31)
    async with runtime.db.transaction() as connection:
        assert (
            await service.prune_batch(
                connection, kind, settings=runtime.settings, now=later, limit=10
            )
            == 1
        )
        path = f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver"
        request = asyncio.create_task(tenant.post(path))
        waiting = text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        )
        async with runtime.db.transaction(write=False) as watcher:

            async def waits() -> bool:
                # pg_stat_activity is read once per transaction and then held: clear that
                # snapshot, or a first look taken before the request arrived is all we see.
                await watcher.execute(text("SELECT pg_stat_clear_snapshot()"))
                return (await watcher.execute(waiting)).scalar_one()

            await until(waits, 60, every=0.02, what="the redelivery waiting on the batch's lock")
    response = await request
    assert response.status_code == 404, response.text
