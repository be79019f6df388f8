"""The acting half's engines, pure, on a frozen clock (docs/ai.md, "Actions"): the free
showing slots, the tools' definitions and the validation of their arguments, the claims
a reply may make, the stage and promotion rules."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from homebase.ai import action_rules, showings, tools
from homebase.ai.prompt import ToolCall
from homebase.kit.clock import FrozenClock

NEW_YORK = ZoneInfo("America/New_York")
# Friday 4 December 2026, 14:10 in New York (19:10 UTC).
CLOCK = FrozenClock(datetime(2026, 12, 4, 19, 10, tzinfo=UTC))
HOURS = showings.hours_of(None)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=NEW_YORK)


def test_free_slots_start_after_now_inside_the_hours_and_skip_sunday():
    slots = showings.free_slots(CLOCK(), NEW_YORK, HOURS, 30, [])
    assert slots[0] == at(4, 14, 30)  # the next start on the grid after 14:10
    assert slots[-1] < CLOCK() + timedelta(days=7)
    assert all(slot.astimezone(NEW_YORK).weekday() != 6 for slot in slots)
    assert all(9 <= slot.astimezone(NEW_YORK).hour < 18 for slot in slots)
    assert at(5, 17, 30) in slots and at(5, 18) not in slots  # the last ends at 18:00


def test_the_owner_s_appointments_take_their_slots():
    busy = [(at(5, 10, 15), at(5, 11))]
    slots = showings.free_slots(CLOCK(), NEW_YORK, HOURS, 30, busy)
    assert at(5, 10) not in slots and at(5, 10, 30) not in slots
    assert at(5, 9, 30) in slots and at(5, 11) in slots


def test_a_persona_s_hours_and_length():
    hours = showings.hours_of({"sat": ["10:00", "12:00"]})
    slots = showings.free_slots(CLOCK(), NEW_YORK, hours, 60, [])
    assert slots == [at(5, 10), at(5, 11)]


@pytest.mark.parametrize(
    ("start", "reason"),
    [
        (at(4, 13), "past"),
        (at(6, 11), "outside"),  # a Sunday
        (at(5, 8, 30), "outside"),
        (at(5, 11, 10), "outside"),  # off the grid
        (at(5, 17, 45), "outside"),  # would end after closing
        (at(5, 10), "taken"),
    ],
)
def test_a_slot_s_refusal(start, reason):
    busy = [(at(5, 10), at(5, 10, 30))]
    refused = showings.refusal(start, CLOCK(), NEW_YORK, HOURS, 30, busy)
    assert refused is not None and reason in refused


def test_a_free_slot_is_no_refusal_and_a_time_zone_s_offset_is_kept():
    assert showings.refusal(at(5, 11), CLOCK(), NEW_YORK, HOURS, 30, []) is None
    same = at(5, 11).astimezone(UTC)  # the same instant written in UTC
    assert showings.refusal(same, CLOCK(), NEW_YORK, HOURS, 30, []) is None
    (line, *_) = showings.describe([at(5, 11)], NEW_YORK)
    assert line == "Sat 05 Dec: 2026-12-05T11:00-05:00"


def _walk(schema):
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _walk(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _walk(item)


def test_every_definition_is_strict_mode_valid():
    definitions = tools.definitions(
        tools.TOOLS, qualification_fields=("timeline",), tags=("buyer",)
    )
    assert [item["function"]["name"] for item in definitions] == list(tools.TOOLS)
    for item in definitions:
        assert item["type"] == "function" and item["function"]["strict"] is True
        objects = list(_walk(item["function"]["parameters"]))
        assert objects, item
        for schema in objects:  # every object closed, every property required
            assert schema["additionalProperties"] is False
            assert sorted(schema["required"]) == sorted(schema["properties"])


def test_a_tool_without_values_to_offer_is_not_offered():
    offered = tools.definitions(tools.TOOLS, qualification_fields=(), tags=())
    names = {item["function"]["name"] for item in offered}
    assert tools.QUALIFY not in names and tools.TAGS not in names


def call(name, arguments):
    return ToolCall("call_1", name, arguments)


@pytest.mark.parametrize(
    ("name", "arguments", "problem"),
    [
        ("book_showing", '{"listing_id": "lst_1", "starts_at": "2026-12-05T11:00:00"}', "offset"),
        ("book_showing", '{"listing_id": "lst_1"}', "starts_at"),
        ("book_showing", '{"listing_id": 7, "starts_at": "2026-12-05T11:00:00Z"}', "listing_id"),
        ("book_showing", "{not json", "not JSON"),
        ("book_showing", '["lst_1"]', "not a JSON object"),
        ("set_stage", '{"stage": "ACTIVE_CLIENT"}', "stage"),
        ("set_stage", '{"stage": "HOT_LEAD", "why": "x"}', "why"),
        ("hand_off", '{"reason": "x", "summary": "y", "urgency": "now"}', "urgency"),
        ("delete_contact", "{}", "not a tool"),
    ],
)
def test_arguments_are_validated_in_code(name, arguments, problem):
    action, refused = tools.parsed(call(name, arguments), tools.TOOLS)
    assert action is None and problem in refused


def test_a_tool_the_persona_does_not_allow_is_refused():
    action, refused = tools.parsed(call("opt_out", "{}"), ("hand_off",))
    assert action is None and "not a tool" in refused
    action, refused = tools.parsed(call("opt_out", "{}"), ("opt_out",))
    assert isinstance(action, tools.OptOut) and refused is None


@pytest.mark.parametrize(
    ("reply", "done", "claim"),
    [
        ("I've booked your showing for Saturday at 11", set(), "booked"),
        ("You're all set for Saturday!", set(), "booked"),
        ("Confirmed: Saturday 11am", set(), "booked"),
        ("I've booked your showing for Saturday at 11", {"book_showing"}, None),
        ("Moved to 2pm.", {"book_showing"}, "moved"),
        ("Moved to 2pm, you're all set.", {"reschedule_showing"}, None),
        ("Your showing is cancelled.", set(), "cancelled"),
        ("Your showing is cancelled.", {"cancel_showing"}, None),
        ("Would Saturday at 11 work? I can book it for you.", set(), None),
        ("What's your timeline?", set(), None),
    ],
)
def test_no_claim_without_the_act(reply, done, claim):
    assert action_rules.unverified_claim(reply, done) == claim


@pytest.mark.parametrize(
    ("current", "wanted", "refused"),
    [
        ("LEAD", "HOT_LEAD", False),
        ("LEAD", "NURTURE", False),
        ("NURTURE", "HOT_LEAD", False),
        ("HOT_LEAD", "NURTURE", True),  # a demotion
        ("ACTIVE_CLIENT", "HOT_LEAD", True),
        ("PAST_CLIENT", "NURTURE", True),
        ("LEAD", "TRASH", True),
    ],
)
def test_the_ai_never_demotes_or_closes_a_contact(current, wanted, refused):
    assert (action_rules.stage_refusal(current, wanted) is not None) is refused


@pytest.mark.parametrize(
    ("stage", "booked", "values", "promoted"),
    [
        ("LEAD", True, {}, "HOT_LEAD"),
        ("NURTURE", False, {"pre_approved": True, "timeline": "0-3 months"}, "HOT_LEAD"),
        ("LEAD", False, {"pre_approved": True, "timeline": "3-6 months"}, None),
        ("LEAD", False, {"pre_approved": False, "timeline": "0-3 months"}, None),
        ("HOT_LEAD", True, {}, None),
        ("ACTIVE_CLIENT", True, {}, None),
    ],
)
def test_promotion_rules(stage, booked, values, promoted):
    assert action_rules.promotion(stage, booked=booked, qualification=values) == promoted


def test_working_with_an_agent_stops_soliciting():
    assert action_rules.stops_soliciting({"working_with_agent": True})
    assert not action_rules.stops_soliciting({"working_with_agent": False})
    assert not action_rules.stops_soliciting({})
