"""A suspended workspace sends nothing on any channel, and nothing else stops (README,
"Suspending a workspace"; docs/messaging.md, "The gates"): its key, its OAuth apps, its
console and its webhooks go on, every send path refuses and records, the replies
carriers require to HELP and START still go out, and a STOP still suppresses, its
confirmation refused like every send but those. On SQLite and PostgreSQL.

The gate every send passes is held structurally in tests/messaging/test_send_paths.py."""

import pytest
from sqlalchemy import select

from homebase.messaging import jobs as messaging_jobs
from homebase.models import Suppression
from homebase.providers.local import RECORDED
from tests.automations_support import FULL_STEPS, automation, step_runs, tick
from tests.cli.test_cli_usage import run as run_cli
from tests.console_support import make_member, member_browser
from tests.messaging.test_messages import assert_blocked, listed
from tests.messaging_support import (
    NEW_YORK,
    SENDER,
    TOKEN,
    add_consent,
    add_sender,
    freeze,
    reply,
    set_status,
)
from tests.oauth_support import (
    authorize_params,
    client_credentials,
    consent,
    exchange,
    make_app,
    pkce_pair,
    redirect_query,
)
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

DAYTIME = 18  # UTC: inside the sending window in every US zone


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


@pytest.fixture
async def suspended(runtime, tenant):
    """A workspace that could send a text to NEW_YORK (approved sender, consent, daytime),
    then suspended."""
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)
    await set_status(runtime, tenant, "suspended")
    return tenant


async def test_the_key_still_reads_and_writes(suspended):
    assert (await suspended.get("/v1/ping")).status_code == 200
    created = await suspended.post(
        "/v1/contacts", json={"first_name": "Dana", "phone": NEW_YORK, "email": "d@example.com"}
    )
    assert created.status_code == 201, created.text
    contact_id = created.json()["id"]
    changed = await suspended.patch(f"/v1/contacts/{contact_id}", json={"last_name": "Reyes"})
    assert changed.status_code == 200, changed.text
    read = await suspended.get(f"/v1/contacts/{contact_id}")
    assert read.status_code == 200 and read.json()["last_name"] == "Reyes"
    assert [item["id"] for item in (await suspended.get("/v1/contacts")).json()["data"]] == [
        contact_id
    ]


async def test_every_send_is_refused_and_recorded_and_nothing_reaches_the_provider(
    runtime, suspended
):
    for body in (
        {"channel": "sms", "to": NEW_YORK},
        {"channel": "whatsapp", "to": NEW_YORK},
        {"channel": "email", "to": "dana@example.com", "subject": "Hi"},
        {"channel": "sms", "to": NEW_YORK, "ai_generated": True},  # an AI reply
    ):
        response = await suspended.post("/v1/messages", json={"body": "Hi!", **body})
        stored = await assert_blocked(suspended, response, "account_suspended")
        assert response.json()["error"]["details"]["reason"] == "account_suspended"
        assert stored["failure_reason"].startswith("Blocked (account_suspended): ")
    sent_before = len(RECORDED)
    assert await messaging_jobs.send_due(runtime) == 0
    assert len(RECORDED) == sent_before


async def test_a_message_queued_before_the_suspension_is_failed_by_the_worker(runtime, tenant):
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)
    queued = await tenant.post(
        "/v1/messages", json={"channel": "sms", "to": NEW_YORK, "body": "Hi"}
    )
    assert queued.status_code == 201, queued.text
    await set_status(runtime, tenant, "suspended")
    sent_before = len(RECORDED)
    await messaging_jobs.send_due(runtime)
    assert len(RECORDED) == sent_before
    stored = (await tenant.get(f"/v1/messages/{queued.json()['id']}")).json()
    assert (stored["status"], stored["blocked_reason"]) == ("FAILED", "account_suspended")


async def test_an_automations_send_step_is_refused_and_recorded(runtime, tenant):
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0]])
    person = await tenant.post("/v1/contacts", json={"first_name": "Dana", "phone": NEW_YORK})
    enrolled = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": person.json()["id"]}
    )
    assert enrolled.status_code == 202, enrolled.text
    await set_status(runtime, tenant, "suspended")
    await tick(runtime)
    [run] = await step_runs(runtime, enrolled.json()["id"])
    assert run["outcome"] == "blocked"
    assert run["detail"].startswith("Blocked (account_suspended): ")
    [message] = await listed(tenant, direction="OUTBOUND")
    assert (message["id"], message["status"], message["blocked_reason"]) == (
        run["message_id"],
        "FAILED",
        "account_suspended",
    )
    assert message["ai_generated"] is True
    assert await messaging_jobs.send_due(runtime) == 0


async def test_stop_suppresses_unconfirmed_and_help_and_start_are_still_answered(
    runtime, suspended, client
):
    # An opt-out's confirmation passes every gate but the opt-out gate (docs/messaging.md,
    # "The confirmation"): the account's refuses it, and the refusal is its one record.
    stop = await reply(client, NEW_YORK, "STOP")
    assert stop.status_code == 200 and "<Message>" not in stop.text
    async with runtime.db.transaction(write=False) as connection:
        [suppression] = (await connection.execute(select(Suppression.__table__))).mappings()
    assert (suppression["address"], suppression["lifted_at"]) == (NEW_YORK, None)
    help_ = await reply(client, NEW_YORK, "HELP")
    assert help_.status_code == 200
    assert "<Message>" in help_.text and "Reply STOP to unsubscribe" in help_.text
    replies = await listed(suspended, direction="OUTBOUND")
    confirmation, answered = sorted(replies, key=lambda item: item["id"])
    assert (confirmation["status"], confirmation["blocked_reason"]) == (
        "FAILED",
        "account_suspended",
    )
    assert "unsubscribed" in confirmation["body"] and confirmation["provider"] is None
    assert (answered["status"], answered["to"], answered["from"]) == ("SENT", NEW_YORK, SENDER)
    assert "Reply STOP" in answered["body"]
    start = await reply(client, NEW_YORK, "START")
    assert "<Message>" in start.text and "resubscribed" in start.text
    # A text that is not a keyword gets no answer: only the required replies go out.
    hello = await reply(client, NEW_YORK, "hello")
    assert hello.status_code == 200 and "<Message>" not in hello.text


async def test_its_oauth_app_is_authorized_and_tokens_exchanged(app, runtime, suspended, client):
    oauth_app = await make_app(runtime)
    member = await make_member(runtime, suspended.id, email="owner@example.com")
    verifier, challenge = pkce_pair()
    async with member_browser(app, runtime, member) as browser:
        approved = await consent(browser, authorize_params(oauth_app, challenge))
    code = redirect_query(approved)["code"]
    issued = await exchange(client, oauth_app, code, verifier)
    assert issued.status_code == 200, issued.text
    token = issued.json()["access_token"]
    contacts = await client.get("/v1/contacts", headers={"Authorization": f"Bearer {token}"})
    assert contacts.status_code == 200, contacts.text
    by_secret = await client_credentials(client, oauth_app, suspended.id)
    assert by_secret.status_code == 200, by_secret.text


async def test_its_webhooks_are_still_delivered(runtime, suspended):
    receiver = await Receiver().start()
    try:
        await subscribe(suspended, receiver.url, ["contact.created"])
        created = await suspended.post("/v1/contacts", json={"first_name": "Dana"})
        await work(runtime)
        [request] = await receiver.wait_for(1)
    finally:
        await receiver.stop()
    assert request.headers["x-webhook-event"] == "contact.created"
    assert created.json()["id"] in request.body.decode()


async def test_the_console_says_what_suspension_means(app, runtime, suspended):
    member = await make_member(runtime, suspended.id, email="owner@example.com")
    async with member_browser(app, runtime, member) as browser:
        home = await browser.get("/console")
        keys = await browser.get("/console/api-keys")
    assert home.status_code == 200 and keys.status_code == 200  # the session keeps working
    assert "This workspace is suspended: it sends nothing on any channel." in home.text
    assert "webhooks are still delivered" in home.text


def test_the_command_help_says_what_suspension_means():
    done = run_cli("admin", "set-workspace-status", "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "credentials stop working" not in text
    assert "A suspended workspace sends nothing on any channel" in text
    assert "(HELP, START) still go out" in text
    assert "API keys, OAuth tokens and console sessions keep working" in text
    assert "webhooks are still delivered" in text
