"""Lawful hours by state (compliance/lawful_hours.py, docs/messaging.md "Lawful hours by
state"): the table, the windows, the next allowed minute and the attempt limit, on moments
the test passes (the engine reads no clock), and the gates that read the same table."""

import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from homebase.compliance import lawful_hours
from homebase.compliance.gates import (
    Blocked,
    RecipientState,
    SenderState,
    WorkspaceState,
    evaluate,
)
from homebase.compliance.lawful_hours import (
    STATES,
    SendingWindow,
    attempts_free_at,
    holiday,
    next_allowed,
    over_limit,
    refusal,
    state_for_number,
    window_on,
)
from homebase.kit.clock import FrozenClock

DALLAS = "+12145550142"
MIAMI = "+13055550142"
JACKSON = "+16015550142"
SALT_LAKE = "+18015550142"
SAN_FRANCISCO = "+14155550142"
CENTRAL = ZoneInfo("America/Chicago")
MOUNTAIN = ZoneInfo("America/Denver")
CT = ("America/Chicago",)
DEFAULT = SendingWindow()
TEXAS = STATES["TX"]
FLORIDA = STATES["FL"]
# 2026-12-06 is a Sunday, 2026-12-07 a Monday.
SUNDAY = date(2026, 12, 6)


def central(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CENTRAL).astimezone(UTC)


def test_the_state_comes_from_the_number():
    assert state_for_number(DALLAS) == "TX"
    assert state_for_number(MIAMI) == "FL"
    assert state_for_number(JACKSON) == "MS"
    assert state_for_number(SALT_LAKE) == "UT"  # "Windsor North, Orem, UT"
    assert state_for_number(SAN_FRANCISCO) == "CA"  # "San Francisco, CA": no rule
    assert state_for_number("+18005550142") is None  # toll-free: no state
    assert state_for_number("+442079460958") is None  # not the US
    assert state_for_number("not a number") is None


def test_texas_is_09_to_21_monday_to_saturday_and_from_noon_on_sunday():
    monday = SUNDAY + timedelta(days=1)
    assert window_on(monday, TEXAS, SendingWindow(time(8), time(21))) == (time(9), time(21))
    assert window_on(SUNDAY, TEXAS, SendingWindow(time(8), time(21))) == (time(12), time(21))
    # intersected with the workspace's default 08:00-20:00
    assert window_on(monday, TEXAS, DEFAULT) == (time(9), time(20))
    assert window_on(SUNDAY, TEXAS, DEFAULT) == (time(12), time(20))
    assert refusal(central(monday, 8, 30), CT, TEXAS, DEFAULT) is not None
    assert refusal(central(monday, 9, 0), CT, TEXAS, DEFAULT) is None
    assert refusal(central(SUNDAY, 11, 59), CT, TEXAS, DEFAULT) is not None
    assert refusal(central(SUNDAY, 12, 0), CT, TEXAS, DEFAULT) is None
    # elsewhere the workspace's window alone
    assert refusal(central(monday, 8, 30), CT, None, DEFAULT) is None


def test_sundays_and_named_holidays():
    mississippi, utah = STATES["MS"], STATES["UT"]
    assert window_on(SUNDAY, mississippi, DEFAULT) is None
    assert window_on(SUNDAY + timedelta(days=1), mississippi, DEFAULT) == (time(8), time(20))
    christmas = date(2026, 12, 25)  # a Friday
    assert holiday(christmas) == "christmas"
    assert window_on(christmas, utah, DEFAULT) is None
    assert window_on(christmas, mississippi, DEFAULT) == (time(8), time(20))  # no holidays
    assert holiday(date(2026, 11, 26)) == "thanksgiving"
    assert holiday(date(2026, 5, 25)) == "memorial_day"
    assert holiday(date(2026, 9, 7)) == "labor_day"
    assert holiday(date(2026, 9, 14)) is None
    for rule in STATES.values():
        assert set(rule.holidays) <= set(lawful_hours.HOLIDAYS), rule.code


def test_the_next_allowed_minute():
    monday = SUNDAY + timedelta(days=1)
    late = central(monday, 22, 30)
    assert next_allowed(late, CT, None, DEFAULT) == central(monday + timedelta(days=1), 8)
    assert next_allowed(late, CT, TEXAS, DEFAULT) == central(monday + timedelta(days=1), 9)
    sunday_morning = central(SUNDAY, 10)
    assert next_allowed(sunday_morning, CT, TEXAS, DEFAULT) == central(SUNDAY, 12)
    now = central(monday, 10, 17)
    assert next_allowed(now, CT, TEXAS, DEFAULT) == now  # allowed now: now
    # Mississippi, Saturday 20:30: nothing until Monday 08:00, past the 24 hours
    saturday = SUNDAY - timedelta(days=1)
    assert next_allowed(central(saturday, 20, 30), CT, STATES["MS"], DEFAULT) is None
    horizon = timedelta(days=3)
    found = next_allowed(central(saturday, 20, 30), CT, STATES["MS"], DEFAULT, horizon=horizon)
    assert found == central(monday, 8)


def test_a_number_whose_zones_share_no_minute_has_none():
    apart = ("Etc/GMT+6", "Etc/GMT-6")  # twelve hours apart: 08:00-20:00 never overlaps
    moment = datetime(2026, 12, 7, 12, tzinfo=UTC)
    assert next_allowed(moment, apart, None, DEFAULT) is None
    assert next_allowed(moment, (), None, DEFAULT) is None
    assert refusal(moment, (), None, DEFAULT) is not None
    # several zones: the first minute inside every one of them
    both = ("America/Chicago", "America/Denver")
    found = next_allowed(central(SUNDAY + timedelta(days=1), 6), both, None, DEFAULT)
    assert found is not None and found.astimezone(MOUNTAIN).hour == 8


def test_the_attempt_limit_counts_24_hours():
    clock = FrozenClock(datetime(2026, 12, 7, 15, tzinfo=UTC))
    now = clock()
    two = (now - timedelta(hours=5), now - timedelta(hours=1))
    three = (now - timedelta(hours=23), *two)
    assert not over_limit(FLORIDA, two) and attempts_free_at(FLORIDA, two) is None
    assert over_limit(FLORIDA, three)
    assert attempts_free_at(FLORIDA, three) == now + timedelta(hours=1)  # the oldest ages out
    assert not over_limit(TEXAS, three)  # no limit there
    assert not over_limit(None, three)
    assert {code for code, rule in STATES.items() if rule.attempts == 3} == {"FL", "OK", "MD"}


def test_the_gates_read_the_table():
    sender = SenderState("+14155550100", "approved")
    base = {"sender": sender, "has_consent": True, "proactive": True}
    active = WorkspaceState("active")
    sunday_11 = central(SUNDAY, 11)
    decision = evaluate(active, RecipientState(DALLAS, **base), "SMS", sunday_11)
    assert isinstance(decision, Blocked) and decision.reason == "quiet_hours"
    assert "Texas" in decision.text
    assert evaluate(active, RecipientState(DALLAS, **base), "SMS", central(SUNDAY, 12)).allowed
    # a reply is held to neither
    replied = {**base, "proactive": False}
    assert evaluate(active, RecipientState(DALLAS, **replied), "SMS", sunday_11).allowed
    monday = central(SUNDAY + timedelta(days=1), 12)
    made = (monday - timedelta(hours=3), monday - timedelta(hours=2), monday - timedelta(hours=1))
    limited = evaluate(active, RecipientState(MIAMI, **base, attempts=made), "SMS", monday)
    assert isinstance(limited, Blocked) and limited.reason == "attempt_limit"
    assert limited.message.startswith("Blocked (attempt_limit): ")
    fewer = RecipientState(MIAMI, **base, attempts=made[1:])
    assert evaluate(active, fewer, "SMS", monday).allowed
    no_consent = RecipientState(MIAMI, **{**base, "has_consent": False}, attempts=made)
    assert evaluate(active, no_consent, "SMS", monday).reason == "consent_missing"
    assert evaluate(active, RecipientState(MIAMI, **replied, attempts=made), "SMS", monday).allowed


def test_docs_messaging_lists_every_row_with_its_source():
    page = (Path(__file__).parents[2] / "docs" / "messaging.md").read_text()
    section = page.split("## Lawful hours by state", 1)[1].split("\n## ", 1)[0]
    for rule in STATES.values():
        line = next((row for row in section.splitlines() if row.startswith(f"| {rule.code} ")), "")
        assert line, f"docs/messaging.md lists no row for {rule.code}"
        assert re.search(r"sec\. [0-9A-Za-z.:\-()]+", line), f"{rule.code}'s row names no source"


@pytest.mark.parametrize("code", sorted(STATES))
def test_every_row_names_its_law(code):
    rule = STATES[code]
    assert rule.source and "sec." in rule.source
