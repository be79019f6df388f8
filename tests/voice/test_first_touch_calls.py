"""The AI's first touch by call (docs/voice.md, "When the AI may call"): a persona whose
first_touch is `call` calls a new lead at the delay; one whose first_touch is
`text_then_call` texts first and calls call_after_text_minutes later when the text goes
unanswered; a text_then_call campaign does the same. Leads are created over HTTP, calls
reach a local fake of Twilio, and time moves only on the injectable clock; on SQLite and
PostgreSQL."""

from datetime import timedelta

import pytest

from tests.automations_support import PHONE, frozen
from tests.campaigns_support import campaign, enrolments
from tests.campaigns_support import run as run_campaigns
from tests.messaging_support import reply
from tests.outreach_support import DELAY, new_lead, outreach_rows, texts_to, timeline_reasons
from tests.responder_support import drive, load
from tests.voice_support import PUBLIC_URL, FakeTwilio, settings_for, voice_calls, voice_workspace

MINUTES = 7  # the persona's call_after_text_minutes


@pytest.fixture
def fake_twilio():
    fake = FakeTwilio().start()
    yield fake
    fake.stop()


@pytest.fixture
def settings_overrides(fake_twilio):
    return settings_for(fake_twilio)


def first_touch(kind: str) -> dict:
    return {
        "first_touch": kind,
        "first_touch_delay_seconds": DELAY,
        "call_after_text_minutes": MINUTES,
    }


async def test_a_calling_persona_calls_a_new_lead_at_the_delay(runtime, tenant, fake_twilio):
    clock = frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant, **first_touch("call"))
    lead = await new_lead(tenant, PHONE)
    assert lead["contact_id"] == contact_id
    clock.advance(seconds=DELAY - 1)
    await drive(runtime)
    assert fake_twilio.placed() == []
    clock.advance(seconds=1)
    await drive(runtime)
    [request] = fake_twilio.placed()
    assert request.form["To"] == [PHONE]
    [call] = await voice_calls(runtime, tenant)
    assert (call["status"], call["reason"], call["contact_id"]) == ("placed", "lead", contact_id)
    [row] = await outreach_rows(runtime, tenant)
    assert (row["kind"], row["status"], row["outcome"]) == ("call", "sent", "called")
    assert row["voice_call_id"] == call["id"]
    assert await texts_to(runtime, tenant, PHONE) == []  # a call instead of the text
    clock.advance(hours=2)
    await drive(runtime)
    assert len(fake_twilio.placed()) == 1  # once


async def test_no_call_without_consent_to_an_artificial_voice(runtime, tenant, fake_twilio):
    clock = frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant, consent=False, **first_touch("call"))
    await new_lead(tenant, PHONE)  # consent to be contacted, none to an AI voice
    clock.advance(seconds=DELAY)
    await drive(runtime)
    assert fake_twilio.placed() == []
    [call] = await voice_calls(runtime, tenant)
    assert call["status"] == "refused" and call["error"].startswith("voice_consent_missing")
    [row] = await outreach_rows(runtime, tenant)
    assert (row["status"], row["outcome"]) == ("dropped", "voice_consent_missing")
    reasons = await timeline_reasons(runtime, tenant, contact_id, "ai_outreach_dropped")
    assert reasons == ["voice_consent_missing"]


async def test_outside_calling_hours_the_call_waits_for_the_next_lawful_minute(
    runtime, tenant, fake_twilio
):
    clock = frozen(runtime, utc_hour=6)  # 22:00 or 23:00 the evening before in San Francisco
    await voice_workspace(runtime, tenant, **first_touch("call"))
    await new_lead(tenant, PHONE)
    clock.advance(seconds=DELAY)
    await drive(runtime)
    assert fake_twilio.placed() == []
    [row] = await outreach_rows(runtime, tenant)
    assert row["status"] == "queued" and row["due_at"] > clock()
    assert await voice_calls(runtime, tenant) == []  # nothing recorded while it waits
    clock.advance(seconds=(row["due_at"] - clock()).total_seconds())
    await drive(runtime)
    assert len(fake_twilio.placed()) == 1


async def test_text_then_call_calls_when_the_text_goes_unanswered(runtime, tenant, fake_twilio):
    clock = frozen(runtime)
    await voice_workspace(
        runtime, tenant, **first_touch("text_then_call"), follow_ups=["PT30M", "P1D"]
    )
    await new_lead(tenant, PHONE)
    clock.advance(seconds=DELAY)
    await drive(runtime)
    [text] = await texts_to(runtime, tenant, PHONE)
    assert text["ai_generated"] is True
    assert fake_twilio.placed() == []
    clock.advance(minutes=MINUTES - 1)
    await drive(runtime)
    assert fake_twilio.placed() == []
    clock.advance(minutes=1)
    await drive(runtime)
    assert len(fake_twilio.placed()) == 1
    rows = await outreach_rows(runtime, tenant)
    assert [(row["kind"], row["status"]) for row in rows] == [
        ("first_touch", "sent"),
        ("call", "sent"),
        ("follow_up", "queued"),  # the cadence goes on after the call
    ]
    assert rows[1]["after_message_id"] == text["id"]
    assert rows[2]["due_at"] == clock() + timedelta(minutes=30)


async def test_an_answer_to_the_text_ends_the_call_after_it(runtime, tenant, client, fake_twilio):
    clock = frozen(runtime)
    await voice_workspace(runtime, tenant, **first_touch("text_then_call"))
    await new_lead(tenant, PHONE)
    clock.advance(seconds=DELAY)
    await drive(runtime)
    assert len(await texts_to(runtime, tenant, PHONE)) == 1
    clock.advance(minutes=1)
    answered = await reply(client, PHONE, "Yes, still looking. Saturday?", base=PUBLIC_URL)
    assert answered.status_code == 200, answered.text
    await drive(runtime)
    clock.advance(minutes=MINUTES)
    await drive(runtime)
    assert fake_twilio.placed() == []
    calls = [row for row in await outreach_rows(runtime, tenant) if row["kind"] == "call"]
    assert [(row["status"], row["outcome"]) for row in calls] == [("skipped", "answered")]


async def test_a_calling_first_touch_needs_the_persona_s_voice(runtime, tenant):
    from homebase.kit.errors import AdminError
    from tests.responder_support import RESPONDER

    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant, {"personas": [{**RESPONDER, "first_touch": "call"}]})
    assert str(refused.value) == "personas[0].first_touch: 'call' places AI calls: set voice true"


async def test_a_text_then_call_campaign_calls_after_its_unanswered_text(
    runtime, tenant, fake_twilio
):
    clock = frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant, call_after_text_minutes=MINUTES)
    campaign_id = await campaign(runtime, tenant, channel="text_then_call")
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [contact_id]}
    )
    assert response.status_code == 202, response.text
    await run_campaigns(runtime)
    await drive(runtime)
    [text] = await texts_to(runtime, tenant, PHONE)
    assert fake_twilio.placed() == []
    clock.advance(minutes=MINUTES)
    await drive(runtime)
    assert len(fake_twilio.placed()) == 1
    [call] = await voice_calls(runtime, tenant)
    assert call["reason"] == "campaign"
    [enrolment] = await enrolments(runtime, campaign_id)
    assert enrolment["state"] == "reached"
    call_row = [row for row in await outreach_rows(runtime, tenant) if row["kind"] == "call"]
    assert call_row[0]["after_message_id"] == text["id"]
    assert call_row[0]["enrolment_id"] == enrolment["id"]
