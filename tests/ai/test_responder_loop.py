"""The AI answers a lead's text: when, how, and only once (docs/ai.md), through the
provider's inbound callback and the worker, on SQLite and PostgreSQL."""

import asyncio

import pytest

from tests.automations_support import frozen
from tests.messaging_support import set_status
from tests.responder_support import (
    DISCLOSURE,
    SIGNATURE,
    TWILIO,
    ai_jobs,
    drive,
    outbound,
    responder_workspace,
    text_in,
)


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)


async def test_a_lead_s_text_gets_one_ai_reply_with_the_disclosure(runtime, client, tenant):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    await text_in(client, "hi there")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["ai_generated"] is True
    assert sent["contact_id"] == contact_id
    assert sent["status"] == "SENT"
    assert sent["body"].startswith(DISCLOSURE + " ")
    assert sent["body"].endswith("\n" + SIGNATURE)
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("replied", "replied")
    timeline = await tenant.get(f"/v1/contacts/{contact_id}/events")
    kinds = [event["type"] for event in timeline.json()["data"]]
    assert "message.sent" in kinds and "message.received" in kinds, kinds


async def test_the_second_reply_has_no_disclosure(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await text_in(client, "hi there")
    await drive(runtime)
    await text_in(client, "we are looking in Noe Valley")
    await drive(runtime)
    first, second = await outbound(tenant)
    assert first["body"].startswith(DISCLOSURE)
    assert not second["body"].startswith(DISCLOSURE)


async def test_no_consent_no_reply(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant, consent=False)
    await text_in(client, "hi there")
    await drive(runtime)
    assert await outbound(tenant) == []
    assert await ai_jobs(runtime, tenant) == []


async def test_an_opt_out_is_answered_as_always_and_never_reaches_the_ai(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await text_in(client, "STOP")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["ai_generated"] is False and "unsubscribed" in sent["body"]
    assert await ai_jobs(runtime, tenant) == []


async def test_a_suspended_workspace_gets_no_ai_reply(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await set_status(runtime, tenant, "suspended")
    await text_in(client, "hi there")
    await drive(runtime)
    assert await outbound(tenant) == []
    assert await ai_jobs(runtime, tenant) == []


async def test_a_note_pauses_the_ai_and_resume_starts_it_again(runtime, client, tenant):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    note = await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "I'll call her"})
    assert note.status_code == 201
    await text_in(client, "hi there")
    await drive(runtime)
    assert await outbound(tenant) == []
    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["ai_auto_response_paused_reason"] == "note"
    resumed = await tenant.post(f"/v1/contacts/{contact_id}/ai/resume")
    assert resumed.status_code == 200, resumed.text
    await text_in(client, "hello?")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["ai_generated"] is True


async def test_a_text_from_an_unknown_number_gets_no_reply(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await text_in(client, "hi there", sender="+14155550199")
    await drive(runtime)
    assert await outbound(tenant) == []


async def test_an_erased_contact_s_open_job_ends(runtime, client, tenant):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    await text_in(client, "hi there")
    erased = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert erased.status_code == 200
    await drive(runtime)
    assert await outbound(tenant) == []
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("skipped", "erased")


async def test_texts_at_once_open_one_job(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await asyncio.gather(*(text_in(client, f"text {n}") for n in range(8)))
    (job,) = await ai_jobs(runtime, tenant)
    assert job["status"] == "queued"
    await drive(runtime)
    assert len(await outbound(tenant)) == 1


async def test_a_person_s_message_pauses_the_ai(runtime, client, tenant):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    await text_in(client, "hi there")
    await drive(runtime)
    sent = await tenant.post(
        "/v1/messages", json={"channel": "SMS", "contact_id": contact_id, "body": "Sam here!"}
    )
    assert sent.status_code == 201, sent.text
    await text_in(client, "great, when can we talk?")
    await drive(runtime)
    ai_texts = [m for m in await outbound(tenant) if m["ai_generated"]]
    assert len(ai_texts) == 1  # the first text's reply only
    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["ai_auto_response_paused_reason"] == "human_message"
