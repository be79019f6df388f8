"""The AI's quiet window end to end, against a real Chat Completions server on loopback
(tests/ai_support.py), through the provider callback and the worker, on SQLite and
PostgreSQL (docs/ai.md, "The quiet window"): the reply waits until the lead has been quiet
for HOMEBASE_AI_QUIET_SECONDS, at most HOMEBASE_AI_MAX_WAIT_SECONDS after the first text,
then answers every text at once. Time moves only on the injectable clock."""

import asyncio
import json

import pytest

from homebase.ai.jobs import respond_due
from homebase.config import Settings
from tests.automations_support import frozen
from tests.responder_support import TWILIO, ai_jobs, drive, outbound, responder_workspace, text_in

QUIET = Settings.model_fields["ai_quiet_seconds"].default
LONGEST = Settings.model_fields["ai_max_wait_seconds"].default
APART = 0.1  # seconds between the texts of a burst


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        "ai_timeout_seconds": 5,
        "ai_lease_seconds": 6,
        "ai_retry_unit_seconds": 0,
        # the default window (tests/conftest.py turns it off for every other test)
        "ai_quiet_seconds": QUIET,
        "ai_max_wait_seconds": LONGEST,
    }


def answer(reply):
    return {"reply": reply, "handoff": False, "handoff_reason": ""}


async def nothing_due(runtime, chat_server) -> None:
    """A worker round finds no AI job due, and the model was never asked."""
    await drive(runtime)
    assert await respond_due(runtime) == 0
    assert chat_server.recorded() == []


def asked_with(request, *texts: str) -> bool:
    body = json.dumps(request.body)
    return all(text in body for text in texts)


async def test_a_burst_gets_one_reply_once_the_lead_is_quiet(
    runtime, client, tenant, chat_server, caplog
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Got all of that, thanks!"))
    burst = ("hi, is Sanchez St still for sale", "we want 3 beds", "in Noe Valley")
    for number, body in enumerate(burst):
        if number:
            clock.advance(seconds=APART)
        await text_in(client, body)
    (job,) = await ai_jobs(runtime, tenant)
    assert job["status"] == "queued"
    # The callback only records the texts that join the job: its due time is the first's.
    assert (job["next_attempt_at"] - job["created_at"]).total_seconds() == pytest.approx(QUIET)
    assert job["updated_at"] == job["created_at"]
    await nothing_due(runtime, chat_server)
    clock.advance(seconds=QUIET - APART)  # not yet quiet long enough
    with caplog.at_level("INFO", logger="homebase.ai"):
        await nothing_due(runtime, chat_server)
    # The worker found the job due too early, and put it back until the lead is quiet:
    # neither an attempt nor an outcome.
    assert [record for record in caplog.records if record.name == "homebase.ai"] == []
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["attempts"]) == ("queued", 0)
    assert (job["next_attempt_at"] - job["created_at"]).total_seconds() == pytest.approx(
        2 * APART + QUIET
    )
    clock.advance(seconds=APART)
    await drive(runtime)
    (request,) = chat_server.recorded()
    assert asked_with(request, *burst)
    (sent,) = await outbound(tenant)
    assert "Got all of that" in sent["body"]
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["reply_message_id"]) == ("replied", sent["id"])


async def test_a_steady_stream_is_answered_at_the_longest_wait(
    runtime, client, tenant, chat_server
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Happy to help with all of it."))
    first = clock()
    step = QUIET / 2  # never quiet long enough
    sent_texts = []
    while (clock() - first).total_seconds() < LONGEST:
        body = f"one more thing, number {len(sent_texts) + 1}"
        await text_in(client, body)
        sent_texts.append(body)
        await nothing_due(runtime, chat_server)
        clock.advance(seconds=step)
    # The lead never paused for the quiet window; the cap has come.
    assert (clock() - first).total_seconds() == pytest.approx(LONGEST)
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["next_attempt_at"] - job["created_at"]).total_seconds() == pytest.approx(LONGEST)
    await drive(runtime)
    (request,) = chat_server.recorded()
    assert len(sent_texts) > 1 and asked_with(request, *sent_texts)
    (sent,) = await outbound(tenant)
    assert "Happy to help" in sent["body"]


async def test_a_text_after_the_reply_starts_a_new_turn(runtime, client, tenant, chat_server):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Hi! Buying or selling?"))
    await text_in(client, "hello")
    clock.advance(seconds=QUIET)
    await drive(runtime)
    (first,) = await outbound(tenant)
    chat_server.respond_with(json_object=answer("Great, Saturday works."))
    clock.advance(seconds=APART)
    await text_in(client, "buying, can we see it Saturday")
    jobs = await ai_jobs(runtime, tenant)
    assert [job["status"] for job in jobs] == ["replied", "queued"]
    assert len(chat_server.recorded()) == 1
    await drive(runtime)
    assert len(chat_server.recorded()) == 1  # its own quiet window
    clock.advance(seconds=QUIET)
    await drive(runtime)
    first_request, second_request = chat_server.recorded()
    assert asked_with(second_request, "buying, can we see it Saturday")
    assert [message["id"] for message in await outbound(tenant)][0] == first["id"]
    assert len(await outbound(tenant)) == 2
    assert [job["status"] for job in await ai_jobs(runtime, tenant)] == ["replied", "replied"]


async def test_a_text_while_composing_waits_for_quiet_before_composing_again(
    runtime, client, tenant, chat_server
):
    clock = frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object=answer("Got all of that, thanks!"), hold=True)
    await text_in(client, "hi")
    clock.advance(seconds=QUIET)
    worker = asyncio.create_task(drive(runtime))
    await asyncio.to_thread(chat_server.wait_for, 1)  # composing now, its answer held
    await text_in(client, "we want 3 beds")
    chat_server.let_go()
    await worker
    assert await outbound(tenant) == []  # the first compose's reply is not sent
    (job,) = await ai_jobs(runtime, tenant)
    assert job["status"] == "queued"
    assert len(chat_server.recorded()) == 1
    clock.advance(seconds=QUIET)
    await drive(runtime)
    first_request, second_request = chat_server.recorded()
    assert asked_with(second_request, "hi", "we want 3 beds")
    (sent,) = await outbound(tenant)
    assert "Got all of that" in sent["body"]
