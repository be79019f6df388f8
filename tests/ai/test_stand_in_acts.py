"""The offline stand-in acts too (docs/ai.md, "The stand-in acts too"): with a persona
with actions it books the showing a lead names by day and time and records obvious
answers, through the same tools, checks and services as a model, on SQLite and
PostgreSQL."""

from datetime import datetime

import pytest

from homebase.ai import local
from homebase.ai.prompt import ListingFacts, Prompt, ToolRound, Turn
from tests.acting_support import (
    ZONE,
    acting_workspace,
    appointments,
    contact,
    next_slot,
)
from tests.automations_support import frozen
from tests.responder_support import TWILIO, drive, outbound, text_in


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)


async def test_the_stand_in_books_the_showing_a_lead_names(runtime, client, tenant):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    start = next_slot(runtime)
    await text_in(client, f"Can I see 12 Elm St on {start:%A} at 11am? We're buying, up to 700k")
    await drive(runtime)
    (booked,) = await appointments(tenant, contact_id)
    assert datetime.fromisoformat(booked["starts_at"]) == start
    (sent,) = await outbound(tenant)
    assert "booked" in sent["body"] and "12 Elm St" in sent["body"]
    after = await contact(tenant, contact_id)
    assert after["stage"] == "HOT_LEAD"
    assert after["custom_fields"]["intent"] == "buy"
    assert after["custom_fields"]["budget_max"] == 700000


async def test_the_stand_in_without_a_time_answers_as_before(runtime, client, tenant):
    frozen(runtime)
    contact_id, _ = await acting_workspace(runtime, tenant)
    await text_in(client, "hi there")
    await drive(runtime)
    assert await appointments(tenant, contact_id) == []
    (sent,) = await outbound(tenant)
    assert "buy or to sell" in sent["body"]


async def test_a_refused_slot_gets_a_question_not_a_claim():
    slot = datetime(2026, 12, 5, 11, tzinfo=ZONE)
    prompt = Prompt(
        instructions="",
        persona_name="Ava",
        tone="warm",
        first_name="Dana",
        stage="LEAD",
        lead_source=None,
        conversation=(Turn("lead", "Saturday at 11 please"),),
        listings=(ListingFacts("12 Elm St", "SF", None, None, None, None, id="lst_1"),),
        tools=(
            {
                "type": "function",
                "function": {
                    "name": "book_showing",
                    "description": "",
                    "strict": True,
                    "parameters": {},
                },
            },
        ),
        slots=(f"Sat 05 Dec: {slot.isoformat(timespec='minutes')}",),
    )
    first = await local.LocalResponder().answer(prompt)
    (call,) = first.tool_calls
    assert call.name == "book_showing" and slot.isoformat() in call.arguments
    refused = ToolRound(first.tool_calls, ('{"ok": false, "error": "that slot is taken"}',))
    second = await local.LocalResponder().answer(
        Prompt(**{**prompt.__dict__, "rounds": (refused,)})
    )
    assert second.tool_calls == () and "booked" not in second.reply
