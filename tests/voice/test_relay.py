"""The AI on the phone (docs/voice.md, "During the call" and "After the call"): a local
fake of Twilio places the call, opens ConversationRelay's WebSocket to the app served by
uvicorn on loopback with a valid signature, says scripted lines and sends the signed
callbacks; the model is the local chat-completions server or the offline stand-in. On
SQLite and PostgreSQL."""

import asyncio
import json
from datetime import datetime

import httpx
import pytest
from sqlalchemy import select
from websockets.exceptions import InvalidStatus

from homebase.ai.tools import TOOLS
from homebase.calls import revocations
from homebase.db.tenancy import TenantSession
from homebase.models import OutboxEvent, Task
from homebase.providers.signing import signature
from tests.acting_support import BOOKED_REPLY, next_slot
from tests.ai_support import calls, replying
from tests.automations_support import PHONE, frozen
from tests.responder_support import drive
from tests.voice_support import (
    ALL_WEEK,
    MODEL_SUMMARY,
    OWNER_PHONE,
    PUBLIC_URL,
    TOKEN,
    FakeTwilio,
    PhoneCall,
    Served,
    ask_for_call,
    callback_url,
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
        fake_twilio,
        ai_provider="openai",
        ai_base_url=chat_server.base_url,
        ai_timeout_seconds=5,
    )


async def placed(runtime, tenant, fake, served, **workspace) -> tuple[PhoneCall, str]:
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant, **workspace)
    await ask_for_call(runtime, tenant, contact_id)
    await drive(runtime)
    return placed_call(fake, served), contact_id


def texts(messages: list[dict]) -> list[str]:
    return [m["token"] for m in messages if m["type"] == "text"]


async def test_the_greeting_is_the_disclosure_and_the_ai_answers_a_sentence_at_a_time(
    runtime, tenant, app, fake_twilio, chat_server
):
    chat_server.respond_with(
        json_object={
            "reply": "Hi Dana! Are you looking to buy or to sell?",
            "handoff": False,
            "handoff_reason": "",
        }
    )
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        assert call.greeting.startswith("Hi, this is an automated assistant calling for Agent")
        await call.open()
        heard = await call.say("Hello, who is this?")
        assert heard == [
            {"type": "text", "token": "Hi Dana!", "last": False},
            {"type": "text", "token": "Are you looking to buy or to sell?", "last": True},
        ]
        await call.close()
    [row] = await voice_calls(runtime, tenant)
    lines = row["transcript"]
    assert lines[0] == {"speaker": "ai", "text": call.greeting}  # the disclosure first
    assert lines[1:] == [
        {"speaker": "lead", "text": "Hello, who is this?"},
        {"speaker": "ai", "text": "Hi Dana!"},
        {"speaker": "ai", "text": "Are you looking to buy or to sell?"},
    ]
    # The model saw the call as a conversation: the lead's words last.
    [request] = chat_server.recorded()
    assert "Hello, who is this?" in json.dumps(request.body["messages"])
    # The recording started after the greeting (at the first prompt), on the provider.
    recordings = [r for r in fake_twilio.requests if r.path.endswith("/Recordings.json")]
    assert len(recordings) == 1 and row["recording_sid"].startswith("RE")


async def test_a_handshake_without_a_valid_signature_is_refused(runtime, tenant, app, fake_twilio):
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        for attempt in (
            {"token": "wrong-token"},
            {"signed_url": served.local(call.relay_url)},  # not the address Twilio was given
        ):
            with pytest.raises(InvalidStatus) as refused:
                await call.open(**attempt)
            assert refused.value.response.status_code == 403
        # A call that is over takes no second conversation.
        await call.open()
        await call.close()
        await call.status("completed", duration=5)
        with pytest.raises(InvalidStatus) as over:
            await call.open()
        assert over.value.response.status_code == 403
        # A callback signed for the wrong address is refused too.
        async with httpx.AsyncClient() as client:
            response = await client.post(
                served.local(call.status_callback),
                data={"CallSid": call.sid, "CallStatus": "completed"},
                headers={"X-Twilio-Signature": "bogus"},
            )
        assert response.status_code == 403


async def test_a_conversation_books_a_showing_and_the_record_says_so(
    runtime, client, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served, acting=True)
        listing_id = (await tenant.get("/v1/listings")).json()["data"][0]["id"]
        start = next_slot(runtime)
        chat_server.respond_in_turn(
            calls(("book_showing", {"listing_id": listing_id, "starts_at": start.isoformat()})),
            replying(BOOKED_REPLY),
        )
        await call.open()
        heard = await call.say("Can I see 12 Elm tomorrow at 11?")
        assert texts(heard) == ["You're booked for a showing of 12 Elm St.", "See you then!"]
        first = chat_server.recorded()[0]
        assert [tool["function"]["name"] for tool in first.body["tools"]] == list(TOOLS)
        await call.close()
        response = await call.status("completed", duration=63)
        assert response.status_code == 204
        [row] = await voice_calls(runtime, tenant)
        assert row["status"] == "summarizing" and row["call_id"] is None  # the worker's now
        promised = "Wants: to see 12 Elm St\nLearned: nothing new\nPromised: a showing tomorrow"
        await summarized(runtime, chat_server, promised)
    booked = (await tenant.get("/v1/appointments", params={"contact_id": contact_id})).json()
    [appointment] = booked["data"]
    assert datetime.fromisoformat(appointment["starts_at"]) == start
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["handled_by"] == "ai" and record["direction"] == "outbound"
    assert record["disposition"] == "appointment_set"
    assert record["duration_seconds"] == 63
    assert record["contact_id"] == contact_id
    assert record["summary"] == promised
    [asked] = summary_requests(chat_server)
    system, *data = asked.body["messages"]
    assert (
        "How the call ended: The AI called the lead; the lead booked a showing."
        in (system["content"])
    )
    # The transcript is quoted data in the lead's role, never among the instructions.
    assert "Can I see 12 Elm tomorrow at 11?" not in system["content"]
    assert [message["role"] for message in data] == ["user", "user"]
    assert data[1]["content"].startswith("Call transcript:")
    assert '{"speaker": "lead", "text": "Can I see 12 Elm tomorrow at 11?"}' in data[1]["content"]
    assert record["transcript"].startswith("AI: Hi, this is an automated assistant")
    assert "Lead: Can I see 12 Elm tomorrow at 11?" in record["transcript"]


async def test_an_interruption_keeps_only_what_was_heard(
    runtime, tenant, app, fake_twilio, chat_server
):
    chat_server.respond_in_turn(
        replying("Great question. The home has three bedrooms and a big yard."),
        replying("Sure, what day works?"),
    )
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        await call.say("Tell me about the house")
        await call.interrupt("Great question. The home has")
        heard = await call.say("Can I see it?")
        assert texts(heard) == ["Sure, what day works?"]
        await call.close()
    [row] = await voice_calls(runtime, tenant)
    assert row["transcript"][1:] == [
        {"speaker": "lead", "text": "Tell me about the house"},
        {"speaker": "ai", "text": "Great question. The home has"},
        {"speaker": "lead", "text": "Can I see it?"},
        {"speaker": "ai", "text": "Sure, what day works?"},
    ]
    second = chat_server.recorded()[1]
    said = json.dumps(second.body["messages"])
    assert "three bedrooms" not in said and "Great question. The home has" in said


async def test_dont_call_me_ends_politely_and_revokes_calls_with_evidence(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        heard = await call.say("Please don't call me again", ends=True)
        assert texts(heard) == ["Understood. We won't call you again. Goodbye!"]
        end = heard[-1]
        assert end["type"] == "end"
        assert json.loads(end["handoffData"])["reason"] == "opted_out"
        response = await call.connect_action(end["handoffData"])
        assert "<Hangup/>" in response.text
        await call.status("completed", duration=12)
    assert chat_server.recorded() == []  # the model never saw it
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        revoked = await revocations.revoked(session, PHONE)
    assert revoked is not None
    assert revoked["evidence"]["said"] == "Please don't call me again"
    assert revoked["evidence"]["provider_call_sid"]
    await summarized(runtime, chat_server)
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["disposition"] == "opted_out"
    again = await ask_for_call(runtime, tenant, contact_id)
    assert again["status"] == "refused" and again["error"].startswith("calls_revoked")


async def test_the_models_opt_out_ends_the_call_too(runtime, tenant, app, fake_twilio, chat_server):
    chat_server.respond_with(
        json_object={"reply": "ok", "handoff": False, "handoff_reason": "", "opt_out": True}
    )
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        heard = await call.say("I really wish you people would leave me alone forever", ends=True)
        assert json.loads(heard[-1]["handoffData"])["reason"] == "opted_out"
        assert "ok" not in texts(heard)


async def test_a_request_for_a_person_is_a_warm_transfer_inside_the_owners_hours(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served, showing_hours=ALL_WEEK)
        await call.open()
        heard = await call.say("Can I talk to a real person please", ends=True)
        assert texts(heard) == ["Let me connect you with Agent now."]
        data = json.loads(heard[-1]["handoffData"])
        assert data["reason"] == "transfer" and data["to"] == OWNER_PHONE
        response = await call.connect_action(heard[-1]["handoffData"])
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/xml")
        assert f"<Number>{OWNER_PHONE}</Number>" in response.text
        assert 'callerId="+14155550100"' in response.text  # the workspace's voice number
        await call.status("completed", duration=30)
        await summarized(runtime, chat_server)
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["disposition"] == "handoff"
    [asked] = summary_requests(chat_server)
    assert "Transferred to the owner's phone." in asked.body["messages"][0]["content"]


async def test_outside_the_owners_hours_a_person_gets_a_task(
    runtime, tenant, app, fake_twilio, chat_server
):
    closed = {"mon": ["06:00", "06:30"]}  # never open at 11:00
    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served, showing_hours=closed)
        await call.open()
        heard = await call.say("I want to speak to a human", ends=True)
        assert json.loads(heard[-1]["handoffData"])["reason"] == "handoff"
        response = await call.connect_action(heard[-1]["handoffData"])
        assert "<Hangup/>" in response.text
    table = Task.__table__
    async with runtime.db.transaction(write=False) as connection:
        tasks = (await connection.execute(select(table))).mappings().all()
    assert [task["contact_id"] for task in tasks] == [contact_id]
    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["ai_auto_response_paused_reason"] == "handoff"


async def test_a_voicemail_is_left_with_the_disclosure_and_recorded_as_such(
    runtime, tenant, app, fake_twilio, chat_server
):
    async with Served(app) as served:
        call, _ = await placed(
            runtime,
            tenant,
            fake_twilio,
            served,
            voicemail="leave",
            voicemail_text="Call us about the home you asked about.",
        )
        [row] = await voice_calls(runtime, tenant)
        machine = callback_url("/providers/voice/machine", row["id"])
        response = await call.post(machine, {"CallSid": call.sid, "AnsweredBy": "machine_end_beep"})
        assert response.status_code == 204
        [update] = fake_twilio.updates()
        said = update.form["Twiml"][0]
        assert "<Say>Hi, this is an automated assistant calling for Agent" in said
        assert "Call us about the home you asked about.</Say><Hangup/>" in said
        await call.status("completed", duration=20)
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["disposition"] == "voicemail"


async def test_a_machine_is_hung_up_on_by_default(runtime, tenant, app, fake_twilio, chat_server):
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        [row] = await voice_calls(runtime, tenant)
        machine = callback_url("/providers/voice/machine", row["id"])
        await call.post(machine, {"CallSid": call.sid, "AnsweredBy": "machine_start"})
        [update] = fake_twilio.updates()
        assert update.form == {"Status": ["completed"]}


async def test_a_silent_line_is_prompted_once_then_ended(
    runtime, tenant, app, fake_twilio, chat_server
):
    runtime.settings.voice_silence_seconds = 0.3
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        prompted = await call.listen()
        assert texts(prompted) == ["Are you still there?"]
        ended = await call.listen(ends=True)
        assert texts(ended) == ["I'll let you go for now. Goodbye!"]
        assert json.loads(ended[-1]["handoffData"])["reason"] == "silence"


async def test_the_longest_call_ends_politely(runtime, tenant, app, fake_twilio, chat_server):
    runtime.settings.voice_max_minutes = 0.01  # 0.6 seconds
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        ended = await call.listen(ends=True)
        assert texts(ended)[0].startswith("I need to let you go now.")
        assert json.loads(ended[-1]["handoffData"])["reason"] == "max_minutes"


async def test_the_record_has_the_models_summary_a_working_recording_link_and_call_completed(
    runtime, tenant, app, fake_twilio, chat_server
):
    chat_server.respond_with(
        json_object={"reply": "Happy to help. What area?", "handoff": False, "handoff_reason": ""}
    )
    # The model's lines, one quoting the lead's number: masked by value in the record.
    written = MODEL_SUMMARY + " at +14155550142"
    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        await call.say("I'm looking for a condo")
        await call.close()
        [row] = await voice_calls(runtime, tenant)
        await call.status("completed", duration=45)
        # The recording comes before the record: attached when the worker writes it.
        recording = callback_url("/providers/voice/recording", row["id"])
        response = await call.post(
            recording,
            {
                "CallSid": call.sid,
                "RecordingSid": row["recording_sid"],
                "RecordingStatus": "completed",
                "RecordingUrl": f"{fake_twilio.base_url}/Recordings/{row['recording_sid']}",
            },
        )
        assert response.status_code == 204
        [row] = await voice_calls(runtime, tenant)
        assert row["status"] == "summarizing" and row["call_id"] is None
        assert len(chat_server.recorded()) == 1  # the turn's: no model call in a callback
        await summarized(runtime, chat_server, written)
        [row] = await voice_calls(runtime, tenant)
        assert row["status"] == "ended"
        record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
        assert record["disposition"] == "connected"
        assert record["duration_seconds"] == 45
        lines = record["summary"].split("\n")
        assert lines[:2] == MODEL_SUMMARY.split("\n")[:2]
        assert lines[2].startswith("Promised: a call back from Agent at ")
        assert "+14155550142" not in record["summary"]
        link = record["recording_url"]
        assert link.startswith(PUBLIC_URL + "/recordings/")
        async with httpx.AsyncClient() as client:
            audio = await client.get(served.local(link))
        assert audio.status_code == 200 and audio.content[:4] == b"RIFF"
        fetched = [r for r in fake_twilio.requests if r.method == "GET"]
        assert fetched[0].path.endswith(f"/Recordings/{row['recording_sid']}.wav")
        # A repeated status callback changes nothing: one record, one call.completed.
        again = await call.status("completed", duration=45)
        assert again.status_code == 204
        await summarized(runtime, chat_server, "Wants: something else entirely")
    [asked] = summary_requests(chat_server)
    assert "I'm looking for a condo" in asked.body["messages"][2]["content"]
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        events = (
            (await connection.execute(select(table).where(table.c.type == "call.completed")))
            .mappings()
            .all()
        )
    [event] = events
    data = event["data"]
    assert data["handled_by"] == "ai" and data["disposition"] == "connected"
    assert data["summary"] == record["summary"]
    timeline = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    [entry] = [entry for entry in timeline if "AI call (outbound" in json.dumps(entry)]
    assert MODEL_SUMMARY.split("\n")[0] in json.dumps(entry)


async def test_erasure_scrubs_the_call_and_deletes_the_recording_at_the_provider(
    runtime, tenant, app, fake_twilio, chat_server
):
    chat_server.respond_with(json_object={"reply": "Sure.", "handoff": False, "handoff_reason": ""})
    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        await call.say("My name is Dana Reyes")
        await call.close()
        await call.status("completed", duration=10)
        await summarized(runtime, chat_server)
        [row] = await voice_calls(runtime, tenant)
        await call.post(
            callback_url("/providers/voice/recording", row["id"]),
            {"CallSid": call.sid, "RecordingSid": row["recording_sid"]},
        )
    erased = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert erased.status_code in (200, 204), erased.text
    stored = runtime.settings.recordings_dir / f"voice/{tenant.id}/{row['id']}.wav"
    assert stored.is_file()
    await drive(runtime)
    assert fake_twilio.deleted == [row["recording_sid"]]
    assert not stored.is_file()
    [row] = await voice_calls(runtime, tenant)
    assert row["recording_sid"] is None and row["erased_at"] is not None
    assert row["transcript"] is None and row["summary"] is None and row["to_number"] is None
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert record["transcript"] is None and record["recording_url"] is None


async def test_an_inbound_call_is_answered_by_the_ai_with_the_same_disclosure(
    runtime, tenant, app, fake_twilio, chat_server
):
    from tests.messaging_support import SENDER

    chat_server.respond_with(
        json_object={"reply": "Hi! How can I help?", "handoff": False, "handoff_reason": ""}
    )
    frozen(runtime)
    await voice_workspace(runtime, tenant, consent=False)  # the caller's call is consent
    async with Served(app) as served:
        inbound = f"{PUBLIC_URL}/providers/voice/inbound"
        form = {"CallSid": "CA" + "1" * 32, "From": PHONE, "To": SENDER, "Direction": "inbound"}
        async with httpx.AsyncClient() as client:
            answered = await client.post(
                served.local(inbound),
                data=form,
                headers={"X-Twilio-Signature": signature(TOKEN, inbound, form.items())},
            )
        assert answered.status_code == 200, answered.text
        call = PhoneCall(served, answered.text, sid=form["CallSid"], status_callback=None)
        assert call.greeting.startswith("Thanks for calling ")
        assert "automated assistant for Agent" in call.greeting
        assert "This call is recorded." in call.greeting
        await call.open()
        heard = await call.say("Hi, I saw your sign on Elm street")
        assert texts(heard) == ["Hi!", "How can I help?"]
        await call.close()
    [row] = await voice_calls(runtime, tenant)
    assert row["direction"] == "inbound" and row["from_number"] == PHONE


async def test_a_shutdown_drains_live_calls_politely_and_starts_no_new_one(
    runtime, tenant, app, fake_twilio, chat_server
):
    from homebase.voice import endpoints as voice_endpoints

    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        drained = asyncio.create_task(voice_endpoints.drain(within=0.5))
        try:
            heard = await call.listen(ends=True)
            assert texts(heard) == [voice_endpoints.GOODBYE_SHUTDOWN]
            assert json.loads(heard[-1]["handoffData"]) == {
                "reason": "handoff",
                "detail": "shutdown",
                "to": None,
            }
            await call.close()
            assert await drained == 1
            # No new call: the worker places none, the relay refuses a handshake.
            await ask_for_call(runtime, tenant, contact_id)
            await drive(runtime)
            assert len(fake_twilio.placed()) == 1
            with pytest.raises(InvalidStatus):
                await call.open()
        finally:
            voice_endpoints.DRAINING.on = False


async def test_stop_texting_and_calling_me_suppresses_texts_too(
    runtime, tenant, app, fake_twilio, chat_server
):
    from homebase.messaging import repository as messaging_repository

    async with Served(app) as served:
        call, contact_id = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        heard = await call.say("Stop texting and calling me", ends=True)
        assert json.loads(heard[-1]["handoffData"])["reason"] == "opted_out"
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        suppressed = await messaging_repository.active_suppression(session, PHONE)
        revoked = await revocations.revoked(session, PHONE)
    assert suppressed is not None and suppressed["reason"] == "opt_out_reply"
    assert suppressed["evidence"]["said"] == "Stop texting and calling me"
    assert revoked is not None
    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["ai_auto_response_paused_reason"] == "opt_out"


async def test_a_caller_hanging_up_mid_turn_still_leaves_the_record(
    runtime, tenant, app, fake_twilio, chat_server
):
    from tests.support import until

    chat_server.respond_with(
        json_object={"reply": "One moment. Let me check.", "handoff": False, "handoff_reason": ""},
        delay=0.3,
    )
    async with Served(app) as served:
        call, _ = await placed(runtime, tenant, fake_twilio, served)
        await call.open()
        await call.send({"type": "prompt", "voicePrompt": "What's the price?", "last": True})
        await call.close()  # gone before the AI answers

        async def said() -> bool:
            [row] = await voice_calls(runtime, tenant)
            return len(row["transcript"] or []) >= 2

        await until(said, 10, what="the turn's transcript")
        response = await call.status("completed", duration=4)
        assert response.status_code == 204
        await summarized(runtime, chat_server)
    [row] = await voice_calls(runtime, tenant)
    record = (await tenant.get(f"/v1/calls/{row['call_id']}")).json()
    assert "Lead: What's the price?" in record["transcript"]
