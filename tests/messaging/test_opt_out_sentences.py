"""Opt-outs of any length through the provider's inbound callback, on SQLite and
PostgreSQL (docs/messaging.md, "The opt-out rule" and "The confirmation"): each sentence
the rule reads suppresses its number, is confirmed once, pauses the contact's AI and
never reaches it, while ordinary texts are answered by the AI; the one confirmation
passes every gate but the opt-out gate and says nothing else."""

import pytest
from sqlalchemy import select

from homebase.messaging.confirmation import TEXT
from homebase.messaging.keywords import OPT_OUT, classify
from homebase.models import Suppression
from tests.automations_support import contact as new_contact
from tests.automations_support import frozen
from tests.messaging_support import SENDER, add_consent, add_sender, freeze, reply
from tests.responder_support import TWILIO, ai_jobs, drive, outbound, responder_workspace

# The reported misses, each followed by an AI text before.
MISSED = [
    "STOP!!! wrong number, I never signed up for this",
    "Please stop texting me, I am not interested anymore.",
    "I want to opt out of all of these texts please",
    "Please end these texts",
    "remove me from your list",
    "Not interested. Don't text me again",
    "Basta, no me manden más mensajes",
]
ORDINARY = [
    "I want to stop by the open house",
    "Don't stop sending me listings",
    "Can we end at 5?",
    "Cancel my showing",
    "Cancel my 3pm",
    "End of month works?",
    "Not interested in Elm, text me others",
    "What time is the showing?",
    "Is it still for sale?",
]
CONFIRMED = TEXT.split(": ", 1)[1]  # after the workspace's name


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)


def number(index: int) -> str:
    return f"+1415555{150 + index:04d}"


async def suppressions(runtime) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(select(Suppression.__table__))
        return [dict(row) for row in rows.mappings()]


async def contacts(tenant) -> dict[str, dict]:
    listed = (await tenant.get("/v1/contacts", params={"limit": 200})).json()["data"]
    return {item["phone"]: item for item in listed}


async def test_sentences_suppress_once_confirmed_and_never_reach_the_ai(runtime, client, tenant):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    texts = MISSED + ORDINARY
    for index in range(len(texts)):
        await new_contact(tenant, phone=number(index))
        await add_consent(runtime, tenant, number(index))
    for index, text in enumerate(texts):
        response = await reply(client, number(index), text, sid=f"SM_sentence_{index}")
        assert response.status_code == 200, text
        if index < len(MISSED):
            assert response.text.count("<Message>") == 1, text
            assert CONFIRMED in response.text, text
        else:
            assert "<Message>" not in response.text, text
    await drive(runtime)

    rows = await suppressions(runtime)
    assert sorted(row["address"] for row in rows) == [number(i) for i in range(len(MISSED))]
    for row in rows:
        index = int(row["address"][-4:]) - 150
        assert (row["reason"], row["lifted_at"]) == ("opt_out_reply", None)
        assert row["evidence"]["body"] == MISSED[index]
        assert row["evidence"]["keyword"] == classify(MISSED[index]).word
        assert row["evidence"]["provider_message_id"] == f"SM_sentence_{index}"
        assert "ai_classified" not in row["evidence"]

    sent = await outbound(tenant)
    by_number: dict[str, list[dict]] = {}
    for item in sent:
        by_number.setdefault(item["to"], []).append(item)
    for index in range(len(MISSED)):  # the confirmation and nothing else
        [confirmation] = by_number[number(index)]
        assert confirmation["body"].endswith(": " + CONFIRMED)
        assert (confirmation["status"], confirmation["provider"]) == ("SENT", "twiml")
        assert confirmation["ai_generated"] is False and confirmation["from"] == SENDER
    for index in range(len(MISSED), len(texts)):  # the AI answered every ordinary text
        [answer] = by_number[number(index)]
        assert answer["ai_generated"] is True and answer["status"] == "SENT"

    people = await contacts(tenant)
    jobs = {job["contact_id"] for job in await ai_jobs(runtime, tenant)}
    for index in range(len(MISSED)):
        person = people[number(index)]
        assert person["id"] not in jobs
        assert person["ai_auto_response_paused_reason"] == "opt_out"
    assert {people[number(i)]["id"] for i in range(len(MISSED), len(texts))} <= jobs


async def test_one_confirmation_per_opt_out_a_retry_answers_it_again(runtime, client, tenant):
    freeze(runtime, 18)
    await add_sender(runtime, tenant)
    caller = number(0)
    first = await reply(client, caller, "Please stop texting me", sid="SM_first")
    assert first.text.count("<Message>") == 1
    retried = await reply(client, caller, "Please stop texting me", sid="SM_first")
    assert retried.text == first.text  # the provider never got the first answer
    second = await reply(client, caller, "STOP", sid="SM_second")
    assert second.status_code == 200 and "<Message>" not in second.text
    assert (await reply(client, caller, "STOP", sid="SM_second")).text == second.text
    [confirmation] = await outbound(tenant)
    assert confirmation["body"].endswith(": " + CONFIRMED)
    [row] = await suppressions(runtime)
    assert row["evidence"]["provider_message_id"] == "SM_first"
    # START lifts it; a new opt-out is a new suppression, confirmed once again
    assert "resubscribed" in (await reply(client, caller, "START")).text
    assert "<Message>" in (await reply(client, caller, "remove me from your list")).text
    assert len(await suppressions(runtime)) == 2
    confirmations = [m for m in await outbound(tenant) if m["body"].endswith(CONFIRMED)]
    assert len(confirmations) == 2


async def test_the_confirmation_passes_every_gate_but_the_opt_out_gate(runtime, client, tenant):
    # At night in New York, with no consent on file: it answers the text just received,
    # so quiet hours and consent do not hold it.
    freeze(runtime, 6)
    await add_sender(runtime, tenant)
    night = await reply(client, "+12125550142", "Take me off your list, please")
    assert night.text.count("<Message>") == 1 and CONFIRMED in night.text
    # From a number whose carrier registration is pending: the A2P gate refuses it, the
    # refusal is recorded as every refusal is, and the opt-out stands.
    pending = "+14155550111"
    await add_sender(runtime, tenant, number=pending, a2p_status="pending")
    refused = await reply(client, "+12125550143", "please stop texting me", to=pending)
    assert refused.status_code == 200 and "<Message>" not in refused.text
    failed = [m for m in await outbound(tenant) if m["status"] == "FAILED"]
    assert [(m["to"], m["from"], m["blocked_reason"]) for m in failed] == [
        ("+12125550143", pending, "a2p_not_approved")
    ]
    assert failed[0]["body"].endswith(": " + CONFIRMED)
    assert {row["address"] for row in await suppressions(runtime)} == {
        "+12125550142",
        "+12125550143",
    }
    # a repeated opt-out from there is not confirmed again: the refusal was the one
    again = await reply(client, "+12125550143", "STOP", to=pending)
    assert "<Message>" not in again.text
    assert len(await outbound(tenant)) == 2


def test_the_sentences_here_are_read_as_the_table_says():
    assert all(classify(text).kind == OPT_OUT for text in MISSED)
    assert all(classify(text) is None for text in ORDINARY)
