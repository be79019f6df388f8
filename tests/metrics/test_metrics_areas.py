"""The area metrics move after the real actions, read through GET /metrics, on SQLite and
PostgreSQL: webhook deliveries by outcome and the age of the oldest due one, message
sends by channel and outcome, compliance refusals by gate, worker jobs."""

from datetime import UTC, datetime

import pytest

from homebase.kit.clock import FrozenClock
from homebase.messaging import jobs as messaging_jobs
from homebase.root.jobs import JOBS, Job
from homebase.root.worker import run_round
from homebase.webhooks import jobs as webhook_jobs
from tests.messaging_support import NEW_YORK, TOKEN, add_consent, add_sender, freeze, reply
from tests.metrics_support import delta, scrape, value
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

ATTEMPTS = "homebase_webhook_attempts_total"
FINISHED = "homebase_webhook_deliveries_finished_total"
AGE = "homebase_webhook_oldest_due_delivery_age_seconds"
DUE = "homebase_webhook_due_deliveries"
SENDS = "homebase_message_sends_total"
REFUSALS = "homebase_compliance_refusals_total"
JOB_COUNT = "homebase_worker_job_duration_seconds_count"


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN, "webhook_backoff_unit_seconds": 0}


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


async def test_webhook_deliveries_and_the_oldest_due_one(tenant, runtime, client, receiver):
    clock = runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    receiver.respond = script(500, 204)
    await subscribe(tenant, receiver.url, ["contact.created"])
    before = await scrape(client)
    assert value(before, AGE) == 0 and value(before, DUE) == 0
    assert (await tenant.post("/v1/contacts", json={"first_name": "Dana"})).status_code == 201
    assert await webhook_jobs.fan_out(runtime) == 1
    clock.advance(seconds=42)
    waiting = await scrape(client)
    assert value(waiting, AGE) == 42 and value(waiting, DUE) == 1

    await work(runtime)  # the first attempt: 500, retried (backoff 0 s)
    failed_once = await scrape(client)
    assert delta(before, failed_once, ATTEMPTS, outcome="failed") == 1
    assert delta(before, failed_once, FINISHED, outcome="succeeded") == 0
    assert value(failed_once, DUE) == 1 and value(failed_once, AGE) == 0  # due again now
    await work(runtime)  # the second: 204
    after = await scrape(client)
    assert len(receiver.requests) == 2
    assert delta(before, after, ATTEMPTS, outcome="succeeded") == 1
    assert delta(before, after, FINISHED, outcome="succeeded") == 1
    assert value(after, AGE) == 0 and value(after, DUE) == 0


async def test_message_sends_and_compliance_refusals(tenant, runtime, client):
    freeze(runtime, 18)  # daytime in every US zone
    await add_sender(runtime, tenant)
    before = await scrape(client)
    # Proactive text without consent: refused by the consent gate at request time.
    refused = await tenant.post(
        "/v1/messages", json={"channel": "sms", "body": "Hi!", "to": NEW_YORK}
    )
    assert refused.status_code == 422, refused.text
    await add_consent(runtime, tenant, NEW_YORK)
    sent = await tenant.post("/v1/messages", json={"channel": "sms", "body": "Hi!", "to": NEW_YORK})
    assert sent.status_code == 201, sent.text
    assert await messaging_jobs.send_due(runtime) == 1
    # Queued, then the recipient opts out: the worker's own check refuses it.
    queued = await tenant.post(
        "/v1/messages", json={"channel": "sms", "body": "Again", "to": NEW_YORK}
    )
    assert queued.status_code == 201, queued.text
    await reply(client, NEW_YORK, "STOP")
    await messaging_jobs.send_due(runtime)
    assert (await tenant.get(f"/v1/messages/{queued.json()['id']}")).json()["status"] == "FAILED"
    after = await scrape(client)

    assert (
        delta(before, after, REFUSALS, gate="consent_missing", channel="SMS", stage="request") == 1
    )
    assert delta(before, after, REFUSALS, gate="opted_out", channel="SMS", stage="send") == 1
    assert delta(before, after, SENDS, channel="SMS", outcome="sent") == 1
    assert delta(before, after, SENDS, channel="SMS", outcome="blocked") == 2
    assert delta(before, after, SENDS, channel="SMS", outcome="provider_refused") == 0


async def test_worker_job_durations_and_failures(runtime, client):
    async def broken(_runtime) -> int:
        raise RuntimeError("this job always fails")

    jobs = [*JOBS, Job("test.broken", broken)]
    before = await scrape(client)
    await run_round(runtime, jobs=jobs)
    await run_round(runtime, jobs=jobs)
    after = await scrape(client)
    assert delta(before, after, "homebase_worker_job_failures_total", job="test.broken") == 2
    assert delta(before, after, JOB_COUNT, job="test.broken", outcome="failed") == 2
    for name in ("webhooks.deliver", "messages.send"):
        assert delta(before, after, JOB_COUNT, job=name, outcome="ok") == 2
        assert delta(before, after, "homebase_worker_job_failures_total", job=name) == 0


async def test_worker_job_items(tenant, runtime, client, receiver):
    await subscribe(tenant, receiver.url, ["contact.created"])
    assert (await tenant.post("/v1/contacts", json={"first_name": "Dana"})).status_code == 201
    before = await scrape(client)
    while await run_round(runtime):
        pass
    after = await scrape(client)
    assert len(receiver.requests) == 1
    assert delta(before, after, "homebase_worker_job_items_total", job="webhooks.fan_out") == 1
    assert delta(before, after, "homebase_worker_job_items_total", job="webhooks.deliver") == 1
