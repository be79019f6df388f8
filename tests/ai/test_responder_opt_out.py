"""The AI's reading of an opt-out, and requests not to be called, against a real Chat
Completions server on loopback (tests/ai_support.py), through the provider callback and
the worker, on SQLite and PostgreSQL (docs/ai.md, "Opt-outs"; docs/messaging.md, "The
confirmation" and "Requests not to be called")."""

import asyncio

import pytest
from sqlalchemy import select

from homebase.ai import jobs as ai_jobs_module
from homebase.calls import revocations
from homebase.db.tenancy import TenantSession
from homebase.messaging import jobs as messaging_jobs
from homebase.messaging.confirmation import EXPIRED, TEXT
from homebase.messaging.keywords import NO_CALLS, classify
from homebase.models import CallRevocation, Suppression
from homebase.providers.local import RECORDED
from tests.automations_support import PHONE, frozen
from tests.messaging_support import reply
from tests.responder_support import (
    TWILIO,
    ai_jobs,
    drive,
    outbound,
    responder_workspace,
    text_in,
)

# No keyword or phrase of the rule: only the model can read it as an opt-out.
FED_UP = "ok we are done here, nothing more from you folks"
MODEL_TEXT = "No problem at all! Want listings by email instead?"
CONFIRMED = TEXT.split(": ", 1)[1]


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        "ai_timeout_seconds": 5,
        "ai_lease_seconds": 6,
        "ai_retry_unit_seconds": 0,
    }


def answer(reply=None, *, opt_out=False):
    return {"reply": reply, "handoff": False, "handoff_reason": "", "opt_out": opt_out}


async def rows(runtime, model) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        found = await connection.execute(select(model.__table__))
        return [dict(row) for row in found.mappings()]


async def contact(tenant, contact_id):
    return (await tenant.get(f"/v1/contacts/{contact_id}")).json()


async def inbound(tenant) -> list[dict]:
    listed = (await tenant.get("/v1/messages", params={"direction": "INBOUND"})).json()
    return listed["data"]


async def compose(runtime) -> None:
    """The AI job's round alone, its model call awaited: no send job runs."""
    await ai_jobs_module.respond_due(runtime)
    await runtime.background.idle()


async def test_the_model_s_opt_out_suppresses_and_sends_only_the_confirmation(
    runtime, client, tenant, chat_server
):
    assert classify(FED_UP) is None
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer(MODEL_TEXT, opt_out=True))
    await text_in(client, FED_UP)
    await drive(runtime)
    assert len(chat_server.recorded()) == 1

    [row] = await rows(runtime, Suppression)
    [text] = await inbound(tenant)
    assert (row["address"], row["reason"], row["lifted_at"]) == (PHONE, "opt_out_reply", None)
    assert row["evidence"]["ai_classified"] is True
    assert (row["evidence"]["body"], row["evidence"]["message_id"]) == (FED_UP, text["id"])
    assert "keyword" not in row["evidence"]
    [confirmation] = await outbound(tenant)
    assert confirmation["body"].endswith(": " + CONFIRMED)
    assert (confirmation["status"], confirmation["provider"]) == ("SENT", "local")
    assert confirmation["ai_generated"] is False and confirmation["contact_id"] == contact_id
    assert not [sent for sent in RECORDED if MODEL_TEXT in sent.body]
    [job] = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"], job["reply_message_id"]) == (
        "opted_out",
        "opt_out",
        None,
    )
    assert (await contact(tenant, contact_id))["ai_auto_response_paused_reason"] == "opt_out"

    # Suppressed: a later text gets nothing, and the model is not asked.
    await text_in(client, "hello?")
    await drive(runtime)
    assert len(await outbound(tenant)) == 1 and len(chat_server.recorded()) == 1
    # START lifts it and resumes the AI the opt-out paused.
    await text_in(client, "START")
    assert (await contact(tenant, contact_id))["ai_auto_response_paused"] is False
    [row] = await rows(runtime, Suppression)
    assert row["lifted_at"] is not None


async def test_the_confirmation_goes_out_within_five_minutes_or_never(
    runtime, client, tenant, chat_server
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer(MODEL_TEXT, opt_out=True))
    await text_in(client, FED_UP)
    await compose(runtime)  # the confirmation is queued ...
    [queued] = await outbound(tenant)
    assert queued["status"] == "QUEUED"
    clock.advance(seconds=301)  # ... and the send job comes after the five minutes
    sent_before = len(RECORDED)
    await messaging_jobs.send_due(runtime)
    assert len(RECORDED) == sent_before
    [late] = await outbound(tenant)
    assert (late["status"], late["failure_reason"], late["blocked_reason"]) == (
        "FAILED",
        EXPIRED,
        None,
    )
    assert len(await rows(runtime, Suppression)) == 1  # the opt-out stands


async def test_a_model_that_reads_it_after_five_minutes_suppresses_without_confirming(
    runtime, client, tenant, chat_server
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer(MODEL_TEXT, opt_out=True))
    await text_in(client, FED_UP)
    clock.advance(seconds=301)  # the model answers late (a slow retry)
    await drive(runtime)
    assert await outbound(tenant) == []
    [row] = await rows(runtime, Suppression)
    assert row["evidence"]["ai_classified"] is True


async def test_the_model_can_add_an_opt_out_never_cancel_one(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Great, talk soon!"), hold=True)
    await text_in(client, "hi there")
    worker = asyncio.create_task(drive(runtime))
    await asyncio.to_thread(chat_server.wait_for, 1)  # composing, its answer held
    stop = await reply(client, PHONE, "Please stop texting me")
    assert CONFIRMED in stop.text
    chat_server.let_go()  # the model saw no opt-out and answers with a reply
    await worker
    [confirmation] = await outbound(tenant)  # and the reply is not sent
    assert confirmation["body"].endswith(": " + CONFIRMED)
    assert len(chat_server.recorded()) == 1  # the opt-out never reached the model
    [row] = await rows(runtime, Suppression)
    assert row["lifted_at"] is None and row["evidence"]["keyword"] == "STOP"
    [job] = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("skipped", "paused")
    assert (await contact(tenant, contact_id))["ai_auto_response_paused_reason"] == "opt_out"


async def test_an_opt_out_read_by_both_is_confirmed_once(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer(MODEL_TEXT, opt_out=True), hold=True)
    await text_in(client, FED_UP)
    worker = asyncio.create_task(drive(runtime))
    await asyncio.to_thread(chat_server.wait_for, 1)
    assert CONFIRMED in (await reply(client, PHONE, "STOP")).text
    chat_server.let_go()  # the model's opt-out of the same number comes after the keyword's
    await worker
    [confirmation] = await outbound(tenant)
    assert confirmation["provider"] == "twiml"
    [row] = await rows(runtime, Suppression)  # the keyword's, first, stands
    assert row["evidence"]["keyword"] == "STOP" and "ai_classified" not in row["evidence"]
    [job] = await ai_jobs(runtime, tenant)
    assert job["status"] == "opted_out"


async def test_a_call_only_phrase_pauses_hands_off_and_later_texts_still_go_out(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    text = "Please don't call me, I'm at work all day"
    assert classify(text).kind == NO_CALLS
    response = await reply(client, PHONE, text, sid="SM_no_calls")
    assert response.status_code == 200 and "<Message>" not in response.text
    await drive(runtime)
    assert chat_server.recorded() == [] and await ai_jobs(runtime, tenant) == []
    assert await outbound(tenant) == [] and await rows(runtime, Suppression) == []
    person = await contact(tenant, contact_id)
    assert person["ai_auto_response_paused_reason"] == "handoff"
    tasks = (await tenant.get("/v1/tasks")).json()["data"]
    [task] = [task for task in tasks if task["contact_id"] == contact_id]
    assert task["title"] == "Call Dana Reyes: asked not to be called"
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    [handoff] = [event for event in events if event["type"] == "ai_handoff"]
    assert (handoff["data"]["reason"], handoff["data"]["task_id"]) == ("no_calls", task["id"])

    [revocation] = await rows(runtime, CallRevocation)
    [received] = await inbound(tenant)
    assert (revocation["address"], revocation["contact_id"]) == (PHONE, contact_id)
    assert revocation["phrase"] == "DONT CALL ME"
    assert revocation["evidence"]["body"] == text
    assert revocation["evidence"]["message_id"] == received["id"]
    assert revocation["evidence"]["provider_message_id"] == "SM_no_calls"
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        assert (await revocations.revoked(session, PHONE))["id"] == revocation["id"]
        assert await revocations.revoked(session, "+14155550177") is None
    # one per number: a second request keeps the first's evidence
    await reply(client, PHONE, "stop calling")
    assert [row["id"] for row in await rows(runtime, CallRevocation)] == [revocation["id"]]

    # Texts still go out: a person's text to the contact is queued and sent.
    sent = await tenant.post(
        "/v1/messages", json={"channel": "sms", "contact_id": contact_id, "body": "Texting only!"}
    )
    assert sent.status_code == 201, sent.text
    await drive(runtime)
    [delivered] = await outbound(tenant)
    assert (delivered["body"], delivered["status"]) == ("Texting only!", "SENT")


async def test_an_opt_out_that_names_calls_records_both(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    response = await reply(client, PHONE, "Stop calling and texting me every single day")
    assert CONFIRMED in response.text
    [suppression] = await rows(runtime, Suppression)
    [revocation] = await rows(runtime, CallRevocation)
    assert suppression["evidence"]["keyword"] == "STOP CALLING AND TEXTING"
    assert revocation["phrase"] == "STOP CALLING"
