"""The opt-out rule through the provider's inbound callback, on SQLite and PostgreSQL: each
text the rule reads as an opt-out suppresses its number and is answered one confirmation;
each other text is an ordinary inbound message (docs/messaging.md)."""

import pytest
from sqlalchemy import select

from homebase.models import Suppression
from tests.messaging.test_keywords import TABLE
from tests.messaging_support import SENDER, TOKEN, add_sender, freeze, reply
from tests.support import assert_error

SUPPRESS = [
    "REVOKE",
    "opt out",
    "Opt-Out",
    "OPTOUT",
    "STOP.",
    "Stop please",
    "please stop texting me",
    "Unsubscribe me",
    "stop all",
    "QUIT!!",
    "STOP 🛑",
    "ＳＴＯＰ",
    "s t o p",
]
KEEP = [
    "cancel my showing",
    "Can we end at 5?",
    "What time is the showing?",
    "Don't stop sending me listings",
    "I want to stop by the open house on Sunday afternoon",
    "don’t stop",
    "Unstoppable deals this week",
]


EVIDENCE = {text: word for text, _, word in TABLE}


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


@pytest.fixture
async def ready(runtime, tenant):
    freeze(runtime, 18)
    await add_sender(runtime, tenant)
    return tenant


def number(index: int) -> str:
    return f"+1212555{index:04d}"


async def suppressions(runtime) -> list[dict]:
    async with runtime.db.transaction() as connection:
        rows = await connection.execute(select(Suppression.__table__))
        return [dict(row) for row in rows.mappings()]


async def messages(tenant, **query) -> list[dict]:
    response = await tenant.get("/v1/messages", params={"limit": 200, **query})
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_the_http_lists_agree_with_the_table():
    kinds = {text: kind for text, kind, _ in TABLE}
    assert all(kinds[text] == "opt_out" for text in SUPPRESS)
    assert all(kinds[text] is None for text in KEEP)


async def test_opt_outs_suppress_with_one_confirmation_other_texts_stay_ordinary(
    runtime, ready, client
):
    for index, text in enumerate(SUPPRESS):
        response = await reply(client, number(index), text, sid=f"SM_out_{index}")
        assert response.status_code == 200, text
        assert response.text.count("<Message>") == 1, text
        assert "you are unsubscribed" in response.text, text
        again = await reply(client, number(index), text, sid=f"SM_out_{index}")  # a retry
        assert again.text == response.text, text
    rows = await suppressions(runtime)
    assert sorted(row["address"] for row in rows) == [number(i) for i in range(len(SUPPRESS))]
    for row in rows:
        index = int(row["address"][-4:])
        assert row["reason"] == "opt_out_reply" and row["lifted_at"] is None
        assert row["evidence"]["body"] == SUPPRESS[index]
        assert row["evidence"]["provider_message_id"] == f"SM_out_{index}"
        assert row["evidence"]["keyword"] == EVIDENCE[SUPPRESS[index]]
    replies = await messages(ready, direction="OUTBOUND")
    assert sorted(item["to"] for item in replies) == sorted(row["address"] for row in rows)
    assert all(item["provider"] == "twiml" for item in replies)
    # each number is suppressed: a send to it is refused by the opt-out gate
    refused = await ready.post(
        "/v1/messages", json={"channel": "sms", "to": number(0), "body": "Hi"}
    )
    assert assert_error(refused, 422, "compliance_blocked")["details"]["reason"] == "opted_out"

    for index, text in enumerate(KEEP, start=100):
        response = await reply(client, number(index), text)
        assert response.status_code == 200, text
        assert "<Message>" not in response.text, text
    assert len(await suppressions(runtime)) == len(SUPPRESS)
    assert len(await messages(ready, direction="OUTBOUND")) == len(replies) + 1  # + the refusal
    inbound = await messages(ready, direction="INBOUND")
    ordinary = [item for item in inbound if item["from"] >= number(100)]
    assert sorted(item["body"] for item in ordinary) == sorted(KEEP)
    assert all(item["status"] == "RECEIVED" and item["to"] == SENDER for item in ordinary)
