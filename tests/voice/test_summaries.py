"""An AI call's summary (docs/voice.md, "After the call"): written by the model from the
transcript in the worker, never in the provider's callback; the service's own after the
AI's retries; none asked for a call without a conversation; one record and one
`call.completed` whatever crashes. A local fake of Twilio, the app under uvicorn on
loopback, the local chat-completions server; on SQLite and PostgreSQL."""

from datetime import timedelta

import pytest
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed

from homebase.ai.jobs import MAX_ATTEMPTS
from homebase.models import Call, OutboxEvent
from homebase.voice import summaries
from tests.ai_support import replying
from tests.automations_support import frozen
from tests.responder_support import drive
from tests.voice_support import (
    MODEL_SUMMARY,
    FakeTwilio,
    Served,
    ask_for_call,
    placed_call,
    settings_for,
    summarized,
    summary_requests,
    voice_calls,
    voice_workspace,
)


@pytest.fixture
def fake_twilio():
    fake = FakeTwilio().start()
    yield fake
    fake.stop()


@pytest.fixture
def settings_overrides(fake_twilio, chat_server):
    return settings_for(
        fake_twilio, ai_provider="openai", ai_base_url=chat_server.base_url, ai_timeout_seconds=5
    )


async def _talked(runtime, tenant, fake, served, chat_server):
    """A placed call the lead talked on, its status callback `completed` sent."""
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    await drive(runtime)
    call = placed_call(fake, served)
    chat_server.respond_in_turn(replying("Happy to help. Which area?"))
    await call.open()
    await call.say("I'm looking for a condo near the park")
    await call.close()
    await call.status("completed", duration=30)
    return call


async def _completed_events(runtime) -> list[dict]:
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(select(table).where(table.c.type == "call.completed"))
        return [dict(row) for row in rows.mappings()]


async def _records(runtime) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(select(Call.__table__))
        return [dict(row) for row in rows.mappings()]


async def test_a_failing_model_is_retried_then_the_services_own_summary_is_recorded(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        await _talked(runtime, tenant, fake_twilio, served, chat_server)
    clock = runtime.clock
    unit = runtime.settings.ai_retry_unit_seconds
    chat_server.respond_with(status=500)
    await drive(runtime)
    assert len(summary_requests(chat_server)) == 1
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "summarizing" and row["call_id"] is None
    assert row["error"].startswith("summary: ModelFailure")
    assert row["next_attempt_at"] == clock() + timedelta(seconds=unit)  # the AI's backoff
    await drive(runtime)
    assert len(summary_requests(chat_server)) == 1  # not due yet
    clock.advance(seconds=unit)
    await drive(runtime)
    assert len(summary_requests(chat_server)) == 2
    clock.advance(seconds=4 * unit)
    await drive(runtime)
    assert len(summary_requests(chat_server)) == MAX_ATTEMPTS
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "ended" and row["call_id"] is not None
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["summary"] == (
        "The AI called the lead; the lead talked with the AI.\n"
        "Last said by the lead: I'm looking for a condo near the park"
    )
    assert record["disposition"] == "connected" and record["duration_seconds"] == 30
    [event] = await _completed_events(runtime)
    assert event["data"]["summary"] == record["summary"]
    clock.advance(seconds=60 * unit)
    await drive(runtime)  # nothing more is asked
    assert len(summary_requests(chat_server)) == MAX_ATTEMPTS


@pytest.mark.parametrize("status", ["no-answer", "busy"])
async def test_a_call_without_a_conversation_is_recorded_at_once_without_a_model_call(
    runtime, tenant, app, fake_twilio, chat_server, status
):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    async with Served(app) as served:
        await drive(runtime)
        unanswered = placed_call(fake_twilio, served)
        response = await unanswered.status(status)
        assert response.status_code == 204
        [row] = await voice_calls(runtime, tenant)
        assert row["status"] == "ended" and row["call_id"] is not None  # in the callback
        # The lead picked up and said nothing: no conversation to summarise either.
        await ask_for_call(runtime, tenant, contact_id)
        await drive(runtime)
        silent = placed_call(fake_twilio, served)
        await silent.open()
        await silent.close()
        await silent.status("completed", duration=3)
    await drive(runtime)
    assert chat_server.recorded() == []
    rows = await voice_calls(runtime, tenant)
    assert [row["status"] for row in rows] == ["ended", "ended"]
    first = (await tenant.get(f"/v1/calls/{rows[0]['call_id']}")).json()
    assert first["disposition"] == status.replace("-", "_")
    assert first["summary"] == f"The AI called the lead; the lead {_phrase(status)}."
    assert len(await _completed_events(runtime)) == 2


async def test_a_stream_set_up_after_the_call_ended_leaves_it_ended_and_is_closed(
    runtime, tenant, app, fake_twilio, chat_server
):
    """The relay's first message handled after the status callback ended the call (the
    two race when a lead hangs up at once): the call stays ended, recorded once, no job
    is opened, no model is asked, and the relay closes."""
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    await ask_for_call(runtime, tenant, contact_id)
    async with Served(app) as served:
        await drive(runtime)
        call = placed_call(fake_twilio, served)
        await call.open(setup=False)  # the handshake, while the call is live
        assert (await call.status("completed", duration=1)).status_code == 204
        await call.setup()
        with pytest.raises(ConnectionClosed):
            await call.listen()  # closed by the service, nothing said
        await call.close()
    await drive(runtime)
    [row] = await voice_calls(runtime, tenant)
    assert (row["status"], row["ai_job_id"]) == ("ended", None)
    assert row["call_id"] is not None and not row["transcript"]
    assert chat_server.recorded() == []
    assert len(await _completed_events(runtime)) == 1


def _phrase(status: str) -> str:
    return {"no-answer": "did not answer", "busy": "was busy"}[status]


async def test_a_lapsed_lease_is_summarised_again_and_the_call_is_recorded_once(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        await _talked(runtime, tenant, fake_twilio, served, chat_server)
    clock = runtime.clock
    # A worker claims the call and dies before it writes anything.
    [dead] = await summaries.claim(runtime, 10)
    assert await summaries.claim(runtime, 10) == []  # held while its lease lasts
    clock.advance(seconds=runtime.settings.ai_lease_seconds)
    await summarized(runtime, chat_server)
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "ended" and row["attempts"] == 2
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["summary"] == MODEL_SUMMARY
    # The dead worker's late outcome changes nothing: its lease token is no longer held.
    await summaries.write(runtime, dead, summaries.Summary("Wants: a second record"))
    assert len(await _records(runtime)) == 1
    [event] = await _completed_events(runtime)
    assert event["data"]["summary"] == MODEL_SUMMARY


async def test_a_call_whose_contact_is_erased_before_its_summary_is_recorded_without_one(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        await _talked(runtime, tenant, fake_twilio, served, chat_server)
    [row] = await voice_calls(runtime, tenant)
    erased = await tenant.delete(f"/v1/contacts/{row['contact_id']}")
    assert erased.status_code in (200, 204), erased.text
    await summarized(runtime, chat_server)
    assert summary_requests(chat_server) == []  # nothing left to summarise
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["summary"] is None and record["transcript"] is None
    assert record["disposition"] == "connected"
