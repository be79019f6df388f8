"""The AI acts through checked tools (docs/ai.md, "Actions"), against a real Chat
Completions server on loopback speaking tool calls and tool results (tests/ai_support.py),
through the provider callback and the worker, on SQLite and PostgreSQL."""

import json
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from homebase.ai import actions
from homebase.ai import jobs as ai_jobs_module
from homebase.ai import repository as ai_repository
from homebase.ai.prompt import ToolCall
from homebase.ai.tools import TOOLS
from homebase.contacts import repository as contacts_repository
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.models import AiAction, CalendarPush, OutboxEvent, Suppression
from tests.acting_support import (
    BOOKED_REPLY,
    ZONE,
    acting_workspace,
    appointments,
    contact,
    next_slot,
)
from tests.ai_support import calls, replying
from tests.automations_support import PHONE, frozen
from tests.calendar_support import connect
from tests.responder_support import (
    TWILIO,
    ai_jobs,
    drive,
    load,
    outbound,
    responder_workspace,
    text_in,
)
from tests.support import closed_port


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


async def timeline(tenant, contact_id) -> list[dict]:
    found = await tenant.get(f"/v1/contacts/{contact_id}/events", params={"limit": 200})
    return found.json()["data"]


async def logged(runtime) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        table = AiAction.__table__
        found = await connection.execute(select(table).order_by(table.c.id))
        return [dict(row) for row in found.mappings()]


async def emitted(runtime) -> list[str]:
    """The event types the outbox holds, oldest first (GET /v1/events serves them once
    settled, which a frozen clock never reaches)."""
    async with runtime.db.transaction(write=False) as connection:
        table = OutboxEvent.__table__
        found = await connection.execute(select(table.c.type).order_by(table.c.id))
        return list(found.scalars())


def tool_messages(body: dict) -> list[dict]:
    return [message for message in body["messages"] if message["role"] == "tool"]


async def test_a_persona_without_actions_is_offered_no_tools_and_answers_as_before(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_with(json_object={"reply": "Hi Dana! Buying or selling?"})
    await text_in(client, "hi there")
    await drive(runtime)
    (request,) = chat_server.recorded()
    assert not {"tools", "tool_choice", "parallel_tool_calls"} & set(request.body)
    system = request.body["messages"][0]["content"]
    assert '"opt_out": true when the lead asks' in system
    assert "Free showing slots" not in system
    (sent,) = await outbound(tenant)
    assert "Buying or selling?" in sent["body"]
    (job,) = await ai_jobs(runtime, tenant)
    assert job["outcome"] == "replied"
    assert await logged(runtime) == []


async def test_a_booked_showing_end_to_end(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant)
    owner = (await contact(tenant, contact_id))["owner_id"]
    await connect(runtime, tenant, owner, f"http://127.0.0.1:{closed_port()}/cal/")
    start = next_slot(runtime)
    chat_server.respond_in_turn(
        calls(("book_showing", {"listing_id": listing_id, "starts_at": start.isoformat()})),
        replying(BOOKED_REPLY),
    )
    await text_in(client, "Great, 11 works. Book it please")
    await drive(runtime)

    first, second = chat_server.recorded()
    assert first.body["parallel_tool_calls"] is False
    assert first.body["tool_choice"] == "auto"
    names = [tool["function"]["name"] for tool in first.body["tools"]]
    assert names == list(TOOLS)
    for tool in first.body["tools"]:
        assert tool["function"]["strict"] is True
        assert tool["function"]["parameters"]["additionalProperties"] is False
    system = first.body["messages"][0]["content"]
    assert start.isoformat(timespec="minutes") in system
    assert f"id {listing_id}" in system and ZONE.key in system
    asked = [m for m in second.body["messages"] if m.get("tool_calls")]
    (result,) = tool_messages(second.body)
    assert result["tool_call_id"] == asked[0]["tool_calls"][0]["id"]
    assert json.loads(result["content"])["ok"] is True

    (booked,) = await appointments(tenant, contact_id)
    assert datetime.fromisoformat(booked["starts_at"]) == start
    assert booked["assignee_id"] == owner and booked["created_by"] == owner
    kinds = [entry["type"] for entry in await timeline(tenant, contact_id)]
    assert "appointment_booked" in kinds and "stage_changed" in kinds
    types = set(await emitted(runtime))
    assert {"appointment.booked", "contact.stage_changed"} <= types, types
    async with runtime.db.transaction(write=False) as connection:
        pushes = (await connection.execute(select(CalendarPush.__table__))).mappings().all()
    assert [push["appointment_id"] for push in pushes] == [booked["id"]]
    (sent,) = await outbound(tenant)
    assert "booked" in sent["body"] and sent["ai_generated"] is True
    assert (await contact(tenant, contact_id))["stage"] == "HOT_LEAD"  # booked: promoted
    assert [(row["tool"], row["outcome"]) for row in await logged(runtime)] == [
        ("book_showing", "performed"),
        ("set_stage", "performed"),
    ]


async def test_a_refused_slot_is_answered_as_a_tool_result_and_a_second_round_books(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant)
    night, start = next_slot(runtime, hour=3), next_slot(runtime)
    chat_server.respond_in_turn(
        calls(("book_showing", {"listing_id": listing_id, "starts_at": night.isoformat()})),
        calls(("book_showing", {"listing_id": listing_id, "starts_at": start.isoformat()})),
        replying(BOOKED_REPLY),
    )
    await text_in(client, "book me for the showing")
    await drive(runtime)
    requests = chat_server.recorded()
    assert len(requests) == 3
    refused = json.loads(tool_messages(requests[1].body)[0]["content"])
    assert refused["ok"] is False and "showing hours" in refused["error"]
    assert requests[2].body["tool_choice"] == "none"  # the last round: no more calls
    assert len(tool_messages(requests[2].body)) == 2
    (booked,) = await appointments(tenant, contact_id)
    assert datetime.fromisoformat(booked["starts_at"]) == start
    assert len(await outbound(tenant)) == 1


async def test_a_job_composed_twice_books_once(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant)
    book = calls(
        ("book_showing", {"listing_id": listing_id, "starts_at": next_slot(runtime).isoformat()})
    )
    chat_server.respond_in_turn(book, replying(BOOKED_REPLY), book, replying(BOOKED_REPLY))
    await text_in(client, "book it please")
    await drive(runtime)
    await text_in(client, "so it's booked, right?")
    await drive(runtime)
    assert len(await appointments(tenant, contact_id)) == 1
    again = json.loads(tool_messages(chat_server.recorded()[3].body)[0]["content"])
    assert again["ok"] is True and "already booked" in again["would"]
    assert "book_showing" in chat_server.recorded()[2].body["messages"][0]["content"]
    outcomes = [(row["tool"], row["outcome"]) for row in await logged(runtime)]
    assert outcomes.count(("book_showing", "performed")) == 1
    assert ("book_showing", "already_done") in outcomes
    assert len(await outbound(tenant)) == 2  # the second claim is true: it was booked


async def test_a_claimed_booking_without_the_act_is_not_sent(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    chat_server.respond_with(json_object={"reply": "I've booked your showing for Saturday at 11"})
    await text_in(client, "Great, Saturday 11 works. Book it please")
    await drive(runtime)
    assert await outbound(tenant) == []
    assert await appointments(tenant, contact_id) == []
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("handed_off", "unverified_commitment")
    tasks = (await tenant.get("/v1/tasks", params={"contact_id": contact_id})).json()["data"]
    assert any("unverified_commitment" in (task["notes"] or "") for task in tasks)


async def test_qualification_is_written_and_hot_lead_reached(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    values = [
        {"key": "pre_approved", "value": "true"},
        {"key": "timeline", "value": "0-3 months"},
        {"key": "budget_max", "value": "750000"},
    ]
    chat_server.respond_in_turn(
        calls(("set_qualification", {"values": values})),
        replying("Thanks! Which area are you looking in?"),
    )
    await text_in(client, "we want to move within 2 months, our budget is up to 750k")
    await drive(runtime)
    after = await contact(tenant, contact_id)
    assert after["custom_fields"]["pre_approved"] is True
    assert after["custom_fields"]["timeline"] == "0-3 months"
    assert after["custom_fields"]["budget_max"] == 750000
    assert after["stage"] == "HOT_LEAD"
    entries = await timeline(tenant, contact_id)
    (action,) = [entry for entry in entries if entry["type"] == "ai_action"]
    changes = {change["key"]: change for change in action["data"]["changes"]}
    assert changes["timeline"] == {"key": "timeline", "from": None, "to": "0-3 months"}
    assert {"contact.updated", "contact.stage_changed"} <= set(await emitted(runtime))
    assert len(await outbound(tenant)) == 1


async def test_a_value_its_field_refuses_is_answered_and_not_written(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    chat_server.respond_in_turn(
        calls(("set_qualification", {"values": [{"key": "timeline", "value": "soonish"}]})),
        replying("Thanks! When would you like to move?"),
    )
    await text_in(client, "soonish")
    await drive(runtime)
    refused = json.loads(tool_messages(chat_server.recorded()[1].body)[0]["content"])
    assert refused["ok"] is False and "choices" in refused["error"]
    assert "timeline" not in (await contact(tenant, contact_id))["custom_fields"]


@pytest.mark.parametrize(
    ("stage", "wanted"), [("HOT_LEAD", "NURTURE"), ("ACTIVE_CLIENT", "HOT_LEAD")]
)
async def test_never_a_demotion(runtime, client, tenant, chat_server, stage, wanted):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    patched = await tenant.patch(f"/v1/contacts/{contact_id}", json={"stage": stage})
    assert patched.status_code == 200, patched.text
    chat_server.respond_in_turn(
        calls(("set_stage", {"stage": wanted})), replying("Thanks, talk soon!")
    )
    await text_in(client, "not in a hurry anymore")
    await drive(runtime)
    refused = json.loads(tool_messages(chat_server.recorded()[1].body)[0]["content"])
    assert refused["ok"] is False
    assert (await contact(tenant, contact_id))["stage"] == stage


async def test_tags_outside_the_persona_s_list_are_refused(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    chat_server.respond_in_turn(
        calls(("add_tags", {"tags": ["vip"]})),
        calls(("add_tags", {"tags": ["buyer"]})),
        replying("Got it!"),
    )
    await text_in(client, "we are buying")
    await drive(runtime)
    refused = json.loads(tool_messages(chat_server.recorded()[1].body)[0]["content"])
    assert refused["ok"] is False and "vip" in refused["error"]
    assert (await contact(tenant, contact_id))["tags"] == ["buyer"]


@pytest.mark.parametrize(
    "arguments",
    ["not json", "[1]", {"listing_id": "lst_x"}, {"listing_id": "x", "starts_at": "x", "y": 1}],
)
async def test_arguments_are_validated_in_code(runtime, client, tenant, chat_server, arguments):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    chat_server.respond_in_turn(
        calls(("book_showing", arguments)), replying("Which day suits you?")
    )
    await text_in(client, "can I see it")
    await drive(runtime)
    refused = json.loads(tool_messages(chat_server.recorded()[1].body)[0]["content"])
    assert refused["ok"] is False
    assert await appointments(tenant, contact_id) == []


async def test_a_tool_the_persona_does_not_allow_is_refused(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant, actions=["hand_off"])
    start = next_slot(runtime).isoformat()
    chat_server.respond_in_turn(
        calls(("book_showing", {"listing_id": listing_id, "starts_at": start})),
        replying("Which day suits you?"),
    )
    await text_in(client, "book it")
    await drive(runtime)
    first, second = chat_server.recorded()
    assert [tool["function"]["name"] for tool in first.body["tools"]] == ["hand_off"]
    refused = json.loads(tool_messages(second.body)[0]["content"])
    assert refused["ok"] is False and "not a tool" in refused["error"]
    assert await appointments(tenant, contact_id) == []


async def test_working_with_an_agent_hands_off(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    chat_server.respond_in_turn(
        calls(("set_qualification", {"values": [{"key": "working_with_agent", "value": "yes"}]})),
        replying("Great, want to see more homes?"),
    )
    await text_in(client, "we already have an agent")
    await drive(runtime)
    (job,) = await ai_jobs(runtime, tenant)
    assert job["outcome"] == "working_with_agent", (job, await outbound(tenant))
    assert await outbound(tenant) == []
    assert (await contact(tenant, contact_id))["custom_fields"]["working_with_agent"] is True


async def test_the_opt_out_tool_suppresses_with_its_evidence(runtime, client, tenant, chat_server):
    frozen(runtime)
    await acting_workspace(runtime, tenant)
    chat_server.respond_in_turn(calls(("opt_out", {})), replying("Sorry to see you go"))
    await text_in(client, "ok we are done here, nothing more from you folks")
    await drive(runtime)
    assert len(chat_server.recorded()) == 1  # a decision ends the rounds
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("opted_out", "opt_out")
    (confirmation,) = await outbound(tenant)
    assert "Sorry to see you go" not in confirmation["body"]
    async with runtime.db.transaction(write=False) as connection:
        found = await connection.execute(select(Suppression.__table__))
        (row,) = found.mappings().all()
    assert row["address"] == PHONE and row["reason"] == "opt_out_reply"
    assert row["evidence"]["ai_classified"] is True
    assert row["evidence"]["ai_job_id"] == job["id"]


async def test_rescheduling_and_cancelling_go_through_the_appointment_rules(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant)
    start, later = next_slot(runtime), next_slot(runtime, hour=14)
    chat_server.respond_in_turn(
        calls(("book_showing", {"listing_id": listing_id, "starts_at": start.isoformat()})),
        replying(BOOKED_REPLY),
    )
    await text_in(client, "book it")
    await drive(runtime)
    (booked,) = await appointments(tenant, contact_id)
    move = {"appointment_id": booked["id"], "starts_at": later.isoformat()}
    chat_server.respond_in_turn(
        calls(("reschedule_showing", move)), replying("Done, I've moved it to 2pm.")
    )
    await text_in(client, "can we do 2pm instead")
    await drive(runtime)
    (moved,) = await appointments(tenant, contact_id)
    assert datetime.fromisoformat(moved["starts_at"]) == later
    chat_server.respond_in_turn(
        calls(("cancel_showing", {"appointment_id": booked["id"]})),
        replying("OK, it's cancelled."),
    )
    await text_in(client, "actually please cancel")
    await drive(runtime)
    (cancelled,) = await appointments(tenant, contact_id)
    assert cancelled["outcome"] == "cancelled"
    types = await emitted(runtime)
    assert "appointment.rescheduled" in types and "appointment.outcome" in types
    assert len(await outbound(tenant)) == 3


async def test_every_tool_call_id_gets_its_result_even_two_at_once(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    due = (runtime.clock() + timedelta(days=2)).isoformat()
    chat_server.respond_in_turn(
        calls(
            ("add_tags", {"tags": ["relocating"]}),
            ("create_follow_up_task", {"due_at": due, "note": "Send commute and transit info"}),
        ),
        replying("Thanks! I'll have Sam send commute info."),
    )
    # (schools would hand off before the model is asked: docs/ai.md, "What a reply may say")
    await text_in(client, "we're relocating for work, what about the commute?")
    await drive(runtime)
    second = chat_server.recorded()[1].body
    (asked,) = [m for m in second["messages"] if m.get("tool_calls")]
    ids = [call["id"] for call in asked["tool_calls"]]
    assert [m["tool_call_id"] for m in tool_messages(second)] == ids
    assert (await contact(tenant, contact_id))["tags"] == ["relocating"]
    tasks = (await tenant.get("/v1/tasks", params={"contact_id": contact_id})).json()["data"]
    (task,) = [task for task in tasks if task["title"].startswith("AI follow-up")]
    assert "commute and transit" in task["title"] and task["assignee_id"] is not None


async def test_a_model_that_calls_tools_past_the_last_round_is_handed_off(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    await acting_workspace(runtime, tenant)
    chat_server.respond_with(json_object={"reply": "unused"})
    chat_server.respond_in_turn(*(calls(("add_tags", {"tags": ["buyer"]})) for _ in range(3)))
    await text_in(client, "we are buying")
    await drive(runtime)
    assert len(chat_server.recorded()) == 3  # at most three model calls
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"]) == ("handed_off", "model")
    assert await outbound(tenant) == []


async def test_a_contact_without_an_owner_or_assignee_is_offered_no_slot(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id, listing_id = await acting_workspace(runtime, tenant, owner=False)
    start = next_slot(runtime).isoformat()
    chat_server.respond_in_turn(
        calls(("book_showing", {"listing_id": listing_id, "starts_at": start})),
        replying("Let me get an agent to set that up."),
    )
    await text_in(client, "book it please")
    await drive(runtime)
    first, second = chat_server.recorded()
    assert "none in the next 7 days" in first.body["messages"][0]["content"]
    refused = json.loads(tool_messages(second.body)[0]["content"])
    assert refused["ok"] is False and "hand off" in refused["error"]
    assert await appointments(tenant, contact_id) == []


async def test_each_tool_round_renews_the_lease_and_a_lost_lease_stops(runtime, client, tenant):
    clock = frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    await text_in(client, "we are buying")
    (claimed,) = await ai_jobs_module.claim(runtime, 1)
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        persona = await ai_repository.persona(
            session, (await ai_jobs(runtime, tenant))[0]["persona_id"]
        )
        person = await contacts_repository.get(session, contact_id)
        desk = await actions.desk(session, claimed.job_id, person, persona)
    lease = runtime.settings.ai_lease_seconds
    renewed_at = clock.advance(seconds=lease * 0.9)
    tags = ToolCall("call_1", "add_tags", json.dumps({"tags": ["buyer"]}))
    results, accepted = await ai_jobs_module.tool_round(runtime, claimed, desk, (tags,))
    assert json.loads(results[0])["ok"] is True and len(accepted) == 1
    (job,) = await ai_jobs(runtime, tenant)
    assert job["lease_expires_at"] == renewed_at + timedelta(seconds=lease)
    lost = replace(claimed, token="not-the-lease")
    assert await ai_jobs_module.tool_round(runtime, lost, desk, (tags,)) is None


async def test_the_persona_shows_what_it_may_do_and_a_fixture_is_checked(runtime, tenant):
    await acting_workspace(runtime, tenant, actions=["book_showing", "hand_off"])
    (persona,) = (await tenant.get("/v1/personas")).json()["data"]
    assert persona["actions"] == ["book_showing", "hand_off"]
    assert (
        persona["showing_hours"]["sat"] == ["09:00", "18:00"]
        and "sun" not in persona["showing_hours"]
    )
    assert (persona["showing_minutes"], persona["tags"]) == (30, ["buyer", "relocating"])
    bad = {"name": "Bo", "tone": "brief", "channels": ["EMAIL"]}
    for extra, problem in [
        ({"actions": ["delete_everything"]}, "not a tool"),
        ({"showing_hours": {"mon": ["18:00", "09:00"]}}, "not before"),
    ]:
        with pytest.raises(AdminError, match=problem):
            await load(runtime, tenant, {"personas": [{**bad, **extra}]})
