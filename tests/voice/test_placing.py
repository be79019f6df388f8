"""Placing the AI's calls (docs/voice.md, "Placing a call"): the Calls API request a local
fake of Twilio receives over loopback, the gates that refuse a call, and the lease that
keeps a crash from losing or doubling one; on SQLite and PostgreSQL."""

import base64
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from homebase.calls import revocations
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.messaging import repository as messaging_repository
from homebase.voice import jobs as voice_jobs
from tests.automations_support import PHONE, frozen
from tests.messaging_support import SENDER, add_consent
from tests.responder_support import drive
from tests.support import closed_port
from tests.voice_support import (
    ACCOUNT,
    PUBLIC_URL,
    TOKEN,
    FakeTwilio,
    ask_for_call,
    attribute,
    settings_for,
    voice_calls,
    voice_consent,
    voice_workspace,
)


@pytest.fixture
def fake_twilio():
    fake = FakeTwilio().start()
    yield fake
    fake.stop()


@pytest.fixture
def settings_overrides(fake_twilio):
    return settings_for(fake_twilio)


async def test_a_consented_lead_is_called_through_the_calls_api(runtime, tenant, fake_twilio):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    asked = await ask_for_call(runtime, tenant, contact_id)
    assert asked["status"] == "queued"
    await drive(runtime)
    [request] = fake_twilio.placed()
    assert request.path == f"/2010-04-01/Accounts/{ACCOUNT}/Calls.json"
    form = {name: values[0] for name, values in request.form.items()}
    assert form["To"] == PHONE
    assert form["From"] == SENDER
    call_id = asked["id"]
    assert form["StatusCallback"] == f"{PUBLIC_URL}/providers/voice/status?call={call_id}"
    assert request.form["StatusCallbackEvent"] == ["initiated", "ringing", "answered", "completed"]
    assert form["MachineDetection"] == "DetectMessageEnd"
    assert form["AsyncAmd"] == "true"
    assert form["AsyncAmdStatusCallback"] == f"{PUBLIC_URL}/providers/voice/machine?call={call_id}"
    twiml = form["Twiml"]
    relay = "wss://voice.homebase.test/providers/voice/relay?call=" + call_id
    assert attribute(twiml, "url") == relay
    assert attribute(twiml, "action") == f"{PUBLIC_URL}/providers/voice/action?call={call_id}"
    assert attribute(twiml, "welcomeGreetingInterruptible") == "none"
    greeting = attribute(twiml, "welcomeGreeting")
    # The disclosure: an automated assistant, for whom, recorded, how to stop, call back.
    assert greeting.startswith("Hi, this is an automated assistant calling for Agent of ")
    assert "This call is recorded." in greeting
    assert "To stop these calls, say stop calling" in greeting
    assert "415 555 0100" in greeting
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "placed" and row["provider_call_sid"].startswith("CA")
    assert row["lease_token"] is None


async def test_the_provider_is_asked_with_the_accounts_credentials(runtime, tenant, fake_twilio):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    recorded: list[str] = []
    original = fake_twilio.server.RequestHandlerClass.do_POST

    def spy(handler):
        recorded.append(handler.headers.get("Authorization", ""))
        original(handler)

    fake_twilio.server.RequestHandlerClass.do_POST = spy
    await drive(runtime)
    expected = base64.b64encode(f"{ACCOUNT}:{TOKEN}".encode()).decode()
    assert recorded == [f"Basic {expected}"]


@pytest.mark.parametrize(
    "setup, reason",
    [
        ("no_voice_consent", "voice_consent_missing"),
        ("text_consent_only", "voice_consent_missing"),
        ("night", "calling_hours"),
        ("opted_out_of_texts", "opted_out"),
        ("calls_revoked", "calls_revoked"),
        ("suspended", "account_suspended"),
        ("voice_off", "voice_off"),
        ("paused", "ai_paused"),
    ],
)
async def test_a_gate_refuses_the_call_and_nothing_is_dialled(
    runtime, tenant, fake_twilio, setup, reason
):
    frozen(runtime, utc_hour=10 if setup == "night" else 19)  # 02:00 or 03:00 in SF
    contact_id = await voice_workspace(
        runtime,
        tenant,
        consent=setup not in ("no_voice_consent", "text_consent_only"),
        voice=setup != "voice_off",
    )
    if setup == "text_consent_only":
        await add_consent(runtime, tenant, PHONE)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        if setup == "opted_out_of_texts":
            await messaging_repository.suppress(
                session, kind="sms", address=PHONE, reason="stop", evidence={"body": "STOP"}
            )
        elif setup == "calls_revoked":
            await revocations.revoke(
                session, address=PHONE, contact_id=contact_id, phrase="DONT CALL ME", evidence={}
            )
    if setup == "suspended":
        from homebase.workspaces import service as workspaces

        async with runtime.db.transaction() as connection:
            await workspaces.set_workspace_status(connection, tenant.id, status="suspended")
    if setup == "paused":
        paused = await tenant.post(f"/v1/contacts/{contact_id}/ai/pause")
        assert paused.status_code == 200, paused.text
    asked = await ask_for_call(runtime, tenant, contact_id)
    assert asked["status"] == "refused"
    assert asked["error"].startswith(reason + ":")
    await drive(runtime)
    assert fake_twilio.placed() == []


async def test_the_gates_are_checked_again_just_before_dialling(runtime, tenant, fake_twilio):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    asked = await ask_for_call(runtime, tenant, contact_id)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await revocations.revoke(
            session, address=PHONE, contact_id=contact_id, phrase="STOP CALLING", evidence={}
        )
    await drive(runtime)
    assert fake_twilio.placed() == []
    [row] = await voice_calls(runtime, tenant)
    assert row["id"] == asked["id"] and row["status"] == "refused"
    assert row["error"].startswith("calls_revoked:")


async def test_a_worker_dying_while_placing_never_places_the_call_twice(
    runtime, tenant, fake_twilio
):
    clock = frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    [claimed] = await voice_jobs.claim(runtime)  # ... and the worker dies here
    clock.advance(seconds=runtime.settings.voice_lease_seconds + 1)
    await drive(runtime)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "unknown" and "not placed again" in row["error"]
    # The dead worker's late result changes nothing: its lease is gone.
    await voice_jobs.place(runtime, claimed)
    assert fake_twilio.placed() == []
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "unknown"


async def test_an_unreachable_provider_is_tried_again_then_the_call_fails(
    runtime, tenant, fake_twilio
):
    clock = frozen(runtime)
    runtime.settings.twilio_base_url = f"http://127.0.0.1:{closed_port()}"
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    await drive(runtime)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "queued" and "unreachable" in row["error"]
    for _ in range(voice_jobs.MAX_ATTEMPTS):
        clock.advance(seconds=voice_jobs.RETRY_UNIT_SECONDS * 8)
        await drive(runtime)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "failed" and row["attempts"] == voice_jobs.MAX_ATTEMPTS


async def test_a_refusal_by_the_provider_fails_the_call(runtime, tenant, fake_twilio):
    frozen(runtime)
    fake_twilio.refuse_calls = True
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    await drive(runtime)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "failed" and "Invalid To number" in row["error"]
    assert len(fake_twilio.placed()) == 1


async def test_a_leads_consent_records_ai_voice(runtime, tenant):
    from sqlalchemy import select

    from homebase.models import ConsentArtifact

    frozen(runtime)
    created = await tenant.post(
        "/v1/leads",
        json={
            "phone": PHONE,
            "source": "Website",
            "skip_routing": True,
            "consent": {"captured_at": runtime.clock().isoformat(), "ai_voice": True},
        },
    )
    assert created.status_code == 201, created.text
    assert created.json()["ai_outbound_allowed"] is True
    table = ConsentArtifact.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = (await connection.execute(select(table.c.ai_voice))).all()
    assert [row[0] for row in rows] == [True]
    refused = await tenant.post(
        "/v1/leads",
        json={"phone": PHONE, "source": "Website", "consent": {"ai_voice": "yes please"}},
    )
    assert refused.status_code == 400


DALLAS, MIAMI = "+12145550142", "+13055550142"


async def contact_at(runtime, tenant, contact_id: str, number: str) -> None:
    """The contact's number moved to `number`, with AI-voice consent for it."""
    moved = await tenant.patch(f"/v1/contacts/{contact_id}", json={"phone": number})
    assert moved.status_code == 200, moved.text
    await voice_consent(runtime, tenant, number)


async def test_calls_keep_a_state_s_hours_by_the_texts_table(runtime, tenant, fake_twilio):
    contact_id = await voice_workspace(runtime, tenant)
    central = ZoneInfo("America/Chicago")
    sunday = datetime.now(central).date() + timedelta(days=2)
    while sunday.weekday() != 6:
        sunday += timedelta(days=1)
    runtime.clock = FrozenClock(datetime.combine(sunday, time(10, 0), tzinfo=central))
    await contact_at(runtime, tenant, contact_id, DALLAS)
    refused = await ask_for_call(runtime, tenant, contact_id)
    assert refused["status"] == "refused" and refused["error"].startswith("calling_hours:")
    assert "Texas" in refused["error"]
    runtime.clock = FrozenClock(datetime.combine(sunday, time(12, 0), tzinfo=central))
    assert (await ask_for_call(runtime, tenant, contact_id))["status"] == "queued"


async def test_calls_and_texts_count_alike_against_a_state_s_attempt_limit(
    runtime, tenant, fake_twilio
):
    eastern = ZoneInfo("America/New_York")
    weekday = datetime.now(eastern).date() + timedelta(days=2)
    while weekday.weekday() != 2:
        weekday += timedelta(days=1)
    runtime.clock = FrozenClock(datetime.combine(weekday, time(11, 0), tzinfo=eastern))
    contact_id = await voice_workspace(runtime, tenant)
    await contact_at(runtime, tenant, contact_id, MIAMI)
    for _ in range(3):  # Florida: at most 3 proactive contacts in 24 hours
        assert (await ask_for_call(runtime, tenant, contact_id))["status"] == "queued"
    fourth = await ask_for_call(runtime, tenant, contact_id)
    assert fourth["status"] == "refused" and fourth["error"].startswith("attempt_limit:")
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        since = runtime.clock() - timedelta(hours=24)
        made = await messaging_repository.proactive_since(session, MIAMI, since)
    assert len(made) == 3  # the refused call is not an attempt
    # The texts' gate counts the calls: a proactive text is refused too.
    texted = await tenant.post(
        "/v1/messages", json={"channel": "SMS", "to": MIAMI, "body": "Open house Saturday!"}
    )
    assert texted.status_code == 422, texted.text
    assert "Blocked (attempt_limit)" in texted.json()["error"]["message"]


async def test_a_voice_call_is_only_its_own_workspaces(runtime, tenant, other_tenant, fake_twilio):
    from homebase.voice import finish
    from homebase.voice import repository as voice_repository

    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    asked = await ask_for_call(runtime, tenant, contact_id)
    async with runtime.db.transaction() as connection:
        other = TenantSession(connection, other_tenant.id, clock=runtime.clock)
        assert await voice_repository.get(other, asked["id"]) is None
        assert await voice_repository.for_contact(other, contact_id) == []
        assert await voice_repository.update(other, asked["id"], status="ended") == 0
        await finish.scrub_contact_voice_calls(other, contact_id)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "queued" and row["to_number"] == PHONE and row["erased_at"] is None
    # The other workspace's callbacks and worker rows never name it either.
    assert await voice_calls(runtime, other_tenant) == []
