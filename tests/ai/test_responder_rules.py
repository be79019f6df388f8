"""The AI's rules end to end, against a real Chat Completions server on loopback
(tests/ai_support.py), through the provider callback and the worker, on SQLite and
PostgreSQL (docs/ai.md): handoffs, rules, the daily cap, retries, bursts, a worker
that dies mid-reply, and what the model is shown."""

import asyncio
import json

import pytest
from sqlalchemy import update

from homebase.models import ConsentArtifact
from tests.automations_support import PHONE, frozen
from tests.responder_support import (
    DISCLOSURE,
    TWILIO,
    ai_jobs,
    drive,
    outbound,
    responder_workspace,
    text_in,
)


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        # Long enough that a loaded machine never turns an answer into a retry; the
        # timeout's own test shortens it.
        "ai_timeout_seconds": 5,
        "ai_lease_seconds": 6,
        "ai_retry_unit_seconds": 0,
    }


def answer(reply=None, handoff=False, reason=""):
    return {"reply": reply, "handoff": handoff, "handoff_reason": reason}


async def contact(tenant, contact_id):
    return (await tenant.get(f"/v1/contacts/{contact_id}")).json()


async def tasks_of(tenant, contact_id):
    listed = (await tenant.get("/v1/tasks", params={"limit": 200})).json()["data"]
    return [task for task in listed if task["contact_id"] == contact_id]


async def handoff_entries(tenant, contact_id):
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    return [event for event in events if event["type"] == "ai_handoff"]


async def test_a_request_for_a_person_hands_off_without_asking_the_model(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id = await responder_workspace(
        runtime, tenant, handoff_reply="Thanks! Sam will text you shortly."
    )
    owner = (await contact(tenant, contact_id))["owner_id"]
    await text_in(client, "Can I talk to a real person please")
    await drive(runtime)
    assert chat_server.recorded() == []
    paused = await contact(tenant, contact_id)
    assert paused["ai_auto_response_paused"] is True
    assert paused["ai_auto_response_paused_reason"] == "handoff"
    (task,) = await tasks_of(tenant, contact_id)
    assert task["assignee_id"] == owner and task["source"] == "ai"
    assert "asked_for_person" in task["notes"]
    (entry,) = await handoff_entries(tenant, contact_id)
    assert entry["data"]["reason"] == "asked_for_person"
    (holding,) = await outbound(tenant)
    assert holding["ai_generated"] is True
    assert holding["body"].startswith(DISCLOSURE) and "Sam will text you" in holding["body"]
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("handed_off", "asked_for_person")
    # Paused: the next text gets nothing.
    await text_in(client, "hello?")
    await drive(runtime)
    assert len(await outbound(tenant)) == 1 and chat_server.recorded() == []


async def test_without_an_owner_the_task_goes_to_the_persona_s_assignee_and_no_holding_text(
    runtime, client, tenant, chat_server
):
    from tests.automations_support import member

    frozen(runtime)
    assignee = await member(runtime, tenant, email="desk@example.com")
    contact_id = await responder_workspace(runtime, tenant, owner=False, handoff_assignee=assignee)
    await text_in(client, "what's your commission?")
    await drive(runtime)
    (task,) = await tasks_of(tenant, contact_id)
    assert task["assignee_id"] == assignee
    assert await outbound(tenant) == []  # no handoff_reply: nothing is sent


async def test_the_model_may_hand_off(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer(handoff=True, reason="wants to negotiate"))
    await text_in(client, "we'd offer 550 if they take it")
    await drive(runtime)
    assert len(chat_server.recorded()) == 1
    assert await outbound(tenant) == []
    assert (await contact(tenant, contact_id))["ai_auto_response_paused_reason"] == "handoff"
    (entry,) = await handoff_entries(tenant, contact_id)
    assert entry["data"]["reason"] == "model"


async def test_a_reply_that_breaks_a_rule_is_not_sent(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Sure! See https://evil.example/deal"))
    await text_in(client, "any deals?")
    await drive(runtime)
    assert await outbound(tenant) == []
    (task,) = await tasks_of(tenant, contact_id)
    assert "reply_rule" in task["notes"] and "link" in task["notes"]
    (job,) = await ai_jobs(runtime, tenant)
    assert job["outcome"] == "reply_rule" and job["reply_message_id"] is None


async def test_a_plain_text_answer_is_a_reply(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(text="Happy to help! Buying or selling?")
    await text_in(client, "hey")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert "Happy to help! Buying or selling?" in sent["body"]


async def test_the_daily_cap_pauses_and_hands_off(runtime, client, tenant, chat_server):
    runtime.settings.ai_max_replies_per_day = 2
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Got it, thanks!"))
    for text in ("one", "two", "three"):
        await text_in(client, text)
        await drive(runtime)
    assert len(await outbound(tenant)) == 2
    assert len(chat_server.recorded()) == 2  # the cap is checked before the model is asked
    paused = await contact(tenant, contact_id)
    assert paused["ai_auto_response_paused_reason"] == "daily_limit"
    (entry,) = await handoff_entries(tenant, contact_id)
    assert entry["data"]["reason"] == "daily_limit"


async def test_a_model_that_times_out_is_tried_three_times_then_hands_off(
    runtime, client, tenant, chat_server
):
    runtime.settings.ai_timeout_seconds = 0.5
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(delay=3)  # past the timeout
    await text_in(client, "hello")
    await drive(runtime)
    assert len(chat_server.recorded()) == 3
    assert await outbound(tenant) == []
    (entry,) = await handoff_entries(tenant, contact_id)
    assert entry["data"]["reason"] == "provider_error"


async def test_retries_wait_one_then_four_units(runtime, client, tenant, chat_server):
    runtime.settings.ai_retry_unit_seconds = 30
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(status=500)
    await text_in(client, "hello")
    await drive(runtime)
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["attempts"]) == ("queued", 1)
    assert (job["next_attempt_at"] - clock()).total_seconds() == pytest.approx(30, abs=1)
    clock.advance(seconds=31)
    await drive(runtime)
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["next_attempt_at"] - clock()).total_seconds() == pytest.approx(120, abs=1)
    chat_server.respond_with(json_object=answer("Sorry for the wait! Buying or selling?"))
    clock.advance(seconds=121)
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert "Sorry for the wait" in sent["body"]
    assert len(chat_server.recorded()) == 3


async def test_a_late_reply_is_proactive_and_a_gate_s_refusal_hands_off(
    runtime, client, tenant, chat_server
):
    """Within 10 minutes of the lead's text a reply needs no consent; later it is
    proactive, and the consent gate refuses it once the artifact is revoked."""
    runtime.settings.ai_retry_unit_seconds = 700
    clock = frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(status=500)
    await text_in(client, "hello")
    await drive(runtime)
    table = ConsentArtifact.__table__
    async with runtime.db.transaction() as connection:
        await connection.execute(update(table).values(revoked_at=clock()))
    chat_server.respond_with(json_object=answer("Hi! Buying or selling?"))
    clock.advance(seconds=701)
    await drive(runtime)
    (refused,) = await outbound(tenant)
    assert refused["status"] == "FAILED" and refused["ai_generated"] is True
    (entry,) = await handoff_entries(tenant, contact_id)
    assert entry["data"]["reason"] == "compliance"


async def test_a_burst_of_texts_gets_one_reply(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Got all of that, thanks!"), hold=True)
    await text_in(client, "hi")
    worker = asyncio.create_task(drive(runtime))
    await asyncio.to_thread(chat_server.wait_for, 1)  # composing now, its answer held
    await asyncio.gather(text_in(client, "we want 3 beds"), text_in(client, "in Noe Valley"))
    chat_server.let_go()  # the first answer comes back after both texts, however slow they were
    await worker
    (sent,) = await outbound(tenant)
    assert "Got all of that" in sent["body"]
    requests = chat_server.recorded()
    assert len(requests) == 2  # composed again once, with every text
    last = json.dumps(requests[-1].body)
    assert "we want 3 beds" in last and "in Noe Valley" in last


async def test_a_worker_that_dies_mid_reply_loses_nothing_and_sends_once(
    runtime, client, tenant, chat_server
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Hi! Buying or selling?"), hold=True)
    await text_in(client, "hello")
    from homebase.root.worker import run_round

    await run_round(runtime)  # claims the job and starts composing
    await asyncio.to_thread(chat_server.wait_for, 1)
    await runtime.background.close()  # the worker dies mid-compose
    chat_server.let_go()  # the answer it waited for comes too late
    (job,) = await ai_jobs(runtime, tenant)
    assert job["status"] == "composing"
    await drive(runtime)  # its lease still holds: nothing happens
    assert await outbound(tenant) == []
    clock.advance(seconds=7)  # past ai_lease_seconds
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["status"] == "SENT"
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["reply_message_id"]) == ("replied", sent["id"])


async def test_the_prompt_holds_this_contact_s_conversation_only(
    runtime, client, tenant, other_tenant, chat_server
):
    from tests.automations_support import contact as new_contact
    from tests.messaging_support import add_consent

    frozen(runtime)
    await responder_workspace(runtime, tenant)
    other_phone = "+14155550177"
    await new_contact(tenant, phone=other_phone, first_name="Olive", last_name="Quint")
    await add_consent(runtime, tenant, other_phone)
    await text_in(client, "Olive's secret: budget 2 million", sender=other_phone)
    await drive(runtime)
    await responder_workspace(runtime, other_tenant)
    lead = await tenant.post(
        "/v1/leads",
        json={
            "phone": PHONE,
            "source": "Zillow",
            "skip_routing": True,
            "context": {"timeline": "3 months", "ssn": "123-45-6789", "message": "or 415-555-0199"},
        },
    )
    assert lead.status_code == 201, lead.text
    before = len(chat_server.recorded())
    await text_in(client, "Dana here, looking for a condo")
    await drive(runtime)
    # Both workspaces own the number and answer the text, in either order: each prompt
    # holds its own workspace's lead (the other workspace has none) and nothing else.
    prompts = [json.dumps(request.body) for request in chat_server.recorded()[before:]]
    assert len(prompts) == 2, prompts
    (prompt,) = [each for each in prompts if "Zillow" in each]
    (other,) = [each for each in prompts if each != prompt]
    assert "Dana" in prompt and "looking for a condo" in prompt and "3 months" in prompt
    assert "looking for a condo" in other and "3 months" not in other
    for absent in ("Reyes", "Olive", "budget 2 million", "123-45-6789", "555-0199", PHONE):
        assert absent not in prompt and absent not in other, absent


async def test_replies_handoffs_errors_and_latency_are_metrics(
    runtime, client, tenant, chat_server
):
    from tests.automations_support import contact as new_contact
    from tests.messaging_support import add_consent
    from tests.metrics_support import delta, scrape

    frozen(runtime)
    await responder_workspace(runtime, tenant)
    before = await scrape(client)
    chat_server.respond_with(json_object=answer("Hi! Buying or selling?"))
    await text_in(client, "hello")
    await drive(runtime)
    other = "+14155550177"
    await new_contact(tenant, phone=other, first_name="Olive")
    await add_consent(runtime, tenant, other)
    chat_server.respond_with(status=500)
    await text_in(client, "hello", sender=other)
    await drive(runtime)
    await text_in(client, "what's your commission?")  # Dana again: a handoff
    await drive(runtime)
    after = await scrape(client)
    outcomes = "homebase_ai_outcomes_total"
    assert delta(before, after, outcomes, outcome="replied", reason="") == 1
    assert delta(before, after, outcomes, outcome="handed_off", reason="provider_error") == 1
    assert delta(before, after, outcomes, outcome="handed_off", reason="commission") == 1
    calls = "homebase_ai_model_calls_total"
    assert delta(before, after, calls, provider="openai", outcome="answered") == 1
    assert delta(before, after, calls, provider="openai", outcome="failed") == 3
    latency = "homebase_ai_model_duration_seconds_count"
    assert delta(before, after, latency, provider="openai") == 4


async def test_log_lines_carry_ids_and_outcomes_never_a_text(
    runtime, client, tenant, chat_server, caplog
):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Lovely! The garden is 40 ft deep."))
    with caplog.at_level("INFO", logger="homebase"):
        await text_in(client, "hello, my gate code is QUINCE-7731-PLOVER")
        await drive(runtime)
        await text_in(client, "can my lawyer look at the contract")
        await drive(runtime)
    lines = [r for r in caplog.records if r.name.startswith("homebase.ai")]
    messages = {record.getMessage() for record in lines}
    assert {"ai reply", "ai handoff"} <= messages, messages
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert contact_id in logged
    # Each long and distinctive enough never to occur by chance (a bare "7731" did, inside
    # a record's float timestamp).
    for text in ("QUINCE-7731-PLOVER", "gate code", "garden is", "my lawyer", "Dana", "Reyes"):
        assert text not in logged, text
