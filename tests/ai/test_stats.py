"""GET /v1/ai/stats (docs/ai.md, "Its numbers"): the responder's figures over a range,
from conversations made through the provider callback, the worker and a real Chat
Completions server on loopback (tests/ai_support.py), on a frozen clock, on SQLite and
PostgreSQL; each workspace counts only its own; every bad parameter is named."""

from datetime import timedelta

import pytest

from homebase.ai.handoff import Handoff
from homebase.ai.service import withheld_by
from homebase.kit.clock import isoformat
from tests.acting_support import BOOKED_REPLY, acting_workspace, next_slot
from tests.ai_support import Answer, calls, replying
from tests.automations_support import PHONE, contact, frozen
from tests.messaging_support import add_consent, add_sender
from tests.responder_support import RESPONDER, TWILIO, drive, load, text_in

OTHER_SENDER = "+14155550111"  # the other workspace's number
# The contacts of the scenario, one number each, beside Dana (PHONE).
BELLA, CARL, DEE, EVE, FINN, GUS, HAL = (f"+1415555{n:04d}" for n in range(201, 208))


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


async def stats(tenant, **params):
    response = await tenant.get("/v1/ai/stats", params=params)
    assert response.status_code == 200, response.text
    return response.json()


async def lead(runtime, tenant, phone: str) -> str:
    await add_consent(runtime, tenant, phone)
    return await contact(tenant, phone=phone)


async def conversation(runtime, client, chat_server, sender, body, answers, *, wait=0):
    """The lead's text, `wait` seconds on the frozen clock, then the worker answers with
    `answers` from the model."""
    chat_server.respond_in_turn(*answers)
    await text_in(client, body, sender=sender)
    runtime.clock.advance(seconds=wait)
    await drive(runtime)


async def scenario(runtime, client, tenant, chat_server):
    """Hal's reply two hours before the rest; then, in the range: Dana books a showing and
    gives two qualification values (reply after 12 s), Bella and Carl get replies (40 s,
    100 s), Dee asks for a person, Eve's reply carries a link no rule allows, Finn opts
    out in words the model reads, Gus texts STOP. Returns (start of the range, persona)."""
    clock = frozen(runtime)
    clock.advance(hours=-2)
    await acting_workspace(runtime, tenant)
    for phone in (BELLA, CARL, DEE, EVE, FINN, GUS, HAL):
        await lead(runtime, tenant, phone)
    await conversation(runtime, client, chat_server, HAL, "hi", [replying("Hi Hal!")], wait=5)
    clock.advance(hours=2)
    start = clock()
    listing_id = (await tenant.get("/v1/listings")).json()["data"][0]["id"]
    values = [{"key": "intent", "value": "buy"}, {"key": "budget_max", "value": "700000"}]
    book = {"listing_id": listing_id, "starts_at": next_slot(runtime).isoformat()}
    acts = calls(("book_showing", book), ("set_qualification", {"values": values}))
    await conversation(
        runtime,
        client,
        chat_server,
        PHONE,
        "Saturday at 11?",
        [acts, replying(BOOKED_REPLY)],
        wait=12,
    )
    for phone, wait in ((BELLA, 40), (CARL, 100)):
        await conversation(
            runtime,
            client,
            chat_server,
            phone,
            "hello",
            [replying("Buying or selling?")],
            wait=wait,
        )
    await conversation(runtime, client, chat_server, DEE, "can a real person call me", [])
    link = replying("Pay the deposit at https://evil.example/pay")
    await conversation(runtime, client, chat_server, EVE, "what next?", [link])
    leave = Answer(content='{"reply": "ok", "handoff": false, "opt_out": true}')
    await conversation(
        runtime,
        client,
        chat_server,
        FINN,
        "ok we are done here, nothing more from you folks",
        [leave],
    )
    await conversation(runtime, client, chat_server, GUS, "STOP", [])
    clock.advance(minutes=1)
    persona = (await tenant.get("/v1/personas")).json()["data"][0]["id"]
    return start, persona


async def test_the_figures_of_a_range(runtime, client, tenant, chat_server):
    start, persona = await scenario(runtime, client, tenant, chat_server)
    now = runtime.clock()
    numbers = await stats(tenant, **{"from": isoformat(start), "to": isoformat(now)})
    assert numbers == {
        "from": isoformat(start),
        "to": isoformat(now),
        "persona_id": None,
        "conversations": 7,  # Dana, Bella, Carl, Dee, Eve, Finn, Gus: not Hal
        "engaged": 3,
        "replies_sent": 3,
        "reply_seconds_median": 40.0,  # of 12, 40 and 100
        "reply_seconds_p90": 100.0,
        "showings_booked": 1,
        "qualification_values_set": 2,
        "handoffs": {"asked_for_person": 1, "reply_rule": 1},
        "opt_outs": {"keyword": 1, "model": 1},
        "replies_withheld": {"link": 1},
    }
    # Two hours more take Hal's conversation and its reply (5 s) in.
    wider = await stats(tenant, **{"from": isoformat(start - timedelta(hours=3))})
    assert (wider["conversations"], wider["replies_sent"]) == (8, 4)
    assert wider["to"] == isoformat(now)  # `to` defaults to now
    assert (wider["reply_seconds_median"], wider["reply_seconds_p90"]) == (12.0, 100.0)
    # The persona's own work: Gus's STOP reached no job of it.
    own = await stats(tenant, persona_id=persona, **{"from": isoformat(start)})
    assert own["persona_id"] == persona
    assert own["conversations"] == 6
    assert own["opt_outs"] == {"keyword": 0, "model": 1}
    assert {key: own[key] for key in ("engaged", "replies_sent", "showings_booked")} == {
        "engaged": 3,
        "replies_sent": 3,
        "showings_booked": 1,
    }
    # Nothing happened in the range after the last text.
    later = await stats(tenant, **{"from": isoformat(now), "to": isoformat(now + timedelta(1))})
    assert later["conversations"] == 0 and later["reply_seconds_median"] is None
    assert later["handoffs"] == {} and later["opt_outs"] == {"keyword": 0, "model": 0}


async def test_another_workspace_s_conversations_are_never_counted(
    runtime, client, tenant, other_tenant, chat_server
):
    clock = frozen(runtime)
    start = clock()
    for workspace, number in ((tenant, "+14155550100"), (other_tenant, OTHER_SENDER)):
        await add_sender(runtime, workspace, number=number)
        await add_consent(runtime, workspace, PHONE)
        await load(runtime, workspace, {"personas": [RESPONDER]})
        await contact(workspace)
    chat_server.respond_with(json_object={"reply": "Hi there!"})
    for _ in range(2):  # two texts to the other workspace, one reply each
        await text_in(client, "hi", to=OTHER_SENDER)
        clock.advance(seconds=30)
        await drive(runtime)
    await text_in(client, "STOP", to=OTHER_SENDER)
    clock.advance(minutes=1)
    window = {"from": isoformat(start)}
    mine, theirs = await stats(tenant, **window), await stats(other_tenant, **window)
    assert (theirs["conversations"], theirs["replies_sent"]) == (1, 2)
    assert theirs["opt_outs"] == {"keyword": 1, "model": 0}
    assert (mine["conversations"], mine["replies_sent"], mine["engaged"]) == (0, 0, 0)
    assert mine["opt_outs"] == {"keyword": 0, "model": 0}
    # The other workspace's persona is no persona here.
    other_persona = (await other_tenant.get("/v1/personas")).json()["data"][0]["id"]
    refused = await tenant.get("/v1/ai/stats", params={"persona_id": other_persona})
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["error"]["details"]["errors"]] == ["persona_id"]


def fields_named(response) -> list[str]:
    assert response.status_code == 400, response.text
    return sorted(error["field"] for error in response.json()["error"]["details"]["errors"])


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"from": "2026-11-20T00:00:00Z", "to": "2026-11-19T00:00:00Z"}, ["from"]),
        ({"from": "2026-11-20T00:00:00Z", "to": "2026-11-20T00:00:00Z"}, ["from"]),
        ({"from": "2026-08-01T00:00:00Z", "to": "2026-11-20T00:00:00Z"}, ["to"]),
        ({"from": "2026-11-20"}, ["from"]),
        ({"to": "yesterday"}, ["to"]),
        ({"from": "1700000000", "to": "2026-11-20T00:00:00"}, ["from", "to"]),
        ({"persona_id": "per_unknown"}, ["persona_id"]),
        (
            {"from": "2026-11-21T00:00:00Z", "to": "2026-11-20T00:00:00Z", "persona_id": "x"},
            ["from", "persona_id"],
        ),
    ],
)
async def test_each_bad_parameter_is_named(tenant, params, named):
    assert fields_named(await tenant.get("/v1/ai/stats", params=params)) == named


async def test_the_longest_range_and_the_default(runtime, tenant):
    clock = frozen(runtime)
    longest = {"from": "2026-08-20T00:00:00Z", "to": "2026-11-20T00:00:00+00:00"}  # 92 days
    assert (await stats(tenant, **longest))["from"] == "2026-08-20T00:00:00.000Z"
    default = await stats(tenant)
    assert default["to"] == isoformat(clock())
    assert default["from"] == isoformat(clock() - timedelta(days=30))


async def test_it_needs_automations_read(make):
    reader = await make(["automations:read"])
    assert (await reader.get("/v1/ai/stats")).status_code == 200
    other = await make(["contacts:read", "messages:read"])
    refused = await other.get("/v1/ai/stats")
    assert refused.status_code == 403
    assert refused.json()["error"]["details"]["missing_scope"] == "automations:read"


def test_a_withheld_reply_is_counted_by_the_rule_it_broke():
    assert withheld_by(Handoff("reply_rule", "phone")) == "phone"
    said = Handoff("unverified_commitment", "the reply said booked")
    assert withheld_by(said) == "unverified_commitment"
    assert withheld_by(Handoff("working_with_agent")) == "working_with_agent"
    for reason in ("asked_for_person", "model", "compliance", "daily_limit", "no_calls"):
        assert withheld_by(Handoff(reason, "detail")) is None
