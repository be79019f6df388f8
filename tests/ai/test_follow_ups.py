"""The AI's follow-ups to its unanswered texts (docs/ai.md, "First touch and follow-ups"):
the cadence, each stop condition, the restart after the lead's answer; the rules pure
(ai/cadence.py), then end to end through POST /v1/leads and the worker on SQLite and
PostgreSQL. Time moves only on the injectable clock."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from homebase.ai import cadence
from homebase.kit.clock import FrozenClock
from tests.outreach_support import (
    DELAY,
    DEMO_FOLLOW_UPS,
    at,
    new_lead,
    outreach_rows,
    texting_workspace,
    texts_to,
    timeline_reasons,
)
from tests.responder_support import DISCLOSURE, TWILIO, drive, text_in

SAN_FRANCISCO = "+14155550142"
PACIFIC = ZoneInfo("America/Los_Angeles")
STEPS = [cadence.duration(text) for text in DEMO_FOLLOW_UPS]


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)


# --- the rules, pure -------------------------------------------------------------------


def test_durations_are_iso_8601_days_to_seconds():
    assert cadence.duration("PT10M") == timedelta(minutes=10)
    assert cadence.duration("P1D") == timedelta(days=1)
    assert cadence.duration("P1DT2H30M5S") == timedelta(days=1, hours=2, minutes=30, seconds=5)
    assert cadence.duration("P2W") == timedelta(days=14)
    for bad in ("P1M", "P1Y", "PT", "P", "10m", "PT0S", "P400D", ""):
        with pytest.raises(ValueError):
            cadence.duration(bad)


def test_each_step_is_measured_from_the_previous_text():
    clock = FrozenClock(datetime(2026, 12, 2, 19, tzinfo=UTC))
    sent = clock()
    first = cadence.next_step(DEMO_FOLLOW_UPS, done=0, anchor_at=sent)
    assert first == cadence.Step(1, sent + timedelta(minutes=10))
    clock.advance(hours=3)  # the first follow-up went out late (lawful hours): from it
    second = cadence.next_step(DEMO_FOLLOW_UPS, done=1, anchor_at=clock())
    assert second == cadence.Step(2, clock() + timedelta(days=1))
    assert cadence.next_step(DEMO_FOLLOW_UPS, done=5, anchor_at=clock()) is None  # the end
    assert cadence.next_step(None, done=0, anchor_at=clock()) is None


def test_only_texts_since_follow_ups_were_turned_on_count():
    on = datetime(2026, 12, 2, 19, tzinfo=UTC)
    assert cadence.counts(on, on) and cadence.counts(on + timedelta(seconds=1), on)
    assert not cadence.counts(on - timedelta(seconds=1), on)
    assert not cadence.counts(on, None)


def test_the_stop_rules_in_order():
    clear = cadence.Standing(False, False, None, False, "LEAD", False)
    assert cadence.stop_reason(clear) is None
    cases = {
        "erased": {"erased": True},
        "opted_out": {"suppressed": True},
        "handed_off": {"paused_reason": "handoff"},
        "paused": {"paused_reason": "manual"},
        "showing_booked": {"showing_booked": True},
        "stage": {"stage": "ACTIVE_CLIENT"},
        "working_with_agent": {"working_with_agent": True},
    }
    for reason, change in cases.items():
        standing = cadence.Standing(**{**clear.__dict__, **change})
        assert cadence.stop_reason(standing) == reason, change
    assert cadence.stop_reason(cadence.Standing(**{**clear.__dict__, "paused_reason": "opt_out"}))
    for stage in ("PAST_CLIENT", "TRASH"):
        assert cadence.stop_reason(cadence.Standing(**{**clear.__dict__, "stage": stage}))
    assert cadence.stop_reason(cadence.Standing(**{**clear.__dict__, "stage": "HOT_LEAD"})) is None


# --- end to end -----------------------------------------------------------------------


def wednesday_11() -> datetime:
    day = datetime.now(PACIFIC).date() + timedelta(days=2)
    while day.weekday() != 2:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, 11, 0, tzinfo=PACIFIC)


async def first_touch_sent(runtime, tenant, **persona) -> tuple[FrozenClock, dict]:
    clock = at(runtime, wednesday_11())
    await texting_workspace(runtime, tenant, follow_ups=DEMO_FOLLOW_UPS, **persona)
    lead = await new_lead(tenant, SAN_FRANCISCO)
    clock.advance(seconds=DELAY)
    await drive(runtime)
    assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == 1
    return clock, lead


async def test_the_cadence_runs_to_the_end_of_the_list(runtime, tenant):
    clock, lead = await first_touch_sent(runtime, tenant)
    for number, step in enumerate(STEPS, start=1):
        clock.advance(seconds=step.total_seconds() - 1)
        await drive(runtime)
        assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == number, number
        clock.advance(seconds=1)
        await drive(runtime)
        assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == number + 1, number
    sent = await texts_to(runtime, tenant, SAN_FRANCISCO)
    bodies = [m["body"] for m in sent]
    assert len(set(bodies)) == len(bodies)  # never the same words twice
    assert all(m["ai_generated"] for m in sent)
    assert bodies[0].startswith(DISCLOSURE) and not bodies[1].startswith(DISCLOSURE)
    assert all("Reply STOP to opt out." in body for body in bodies)
    clock.advance(days=60)
    await drive(runtime)
    assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == 1 + len(
        STEPS
    )  # the end of the list
    steps = [
        (row["kind"], row["step"], row["status"]) for row in await outreach_rows(runtime, tenant)
    ]
    assert steps == [("first_touch", 0, "sent")] + [
        ("follow_up", number, "sent") for number in range(1, len(STEPS) + 1)
    ]
    stopped = await timeline_reasons(runtime, tenant, lead["contact_id"], "ai_follow_ups_stopped")
    assert stopped == ["end_of_list"]


async def stop_by_opt_out(runtime, client, tenant, lead):
    await text_in(client, "STOP", sender=SAN_FRANCISCO)


async def stop_by_pause(runtime, client, tenant, lead):
    paused = await tenant.post(f"/v1/contacts/{lead['contact_id']}/ai/pause")
    assert paused.status_code == 200, paused.text


async def stop_by_handoff(runtime, client, tenant, lead):
    await text_in(client, "can I talk to a real person please", sender=SAN_FRANCISCO)
    await drive(runtime)


async def stop_by_showing(runtime, client, tenant, lead):
    starts = runtime.clock() + timedelta(days=2)
    booked = await tenant.post(
        "/v1/appointments",
        json={
            "contact_id": lead["contact_id"],
            "title": "Showing: 1421 Sanchez St",
            "starts_at": starts.isoformat(),
            "ends_at": (starts + timedelta(minutes=30)).isoformat(),
        },
    )
    assert booked.status_code == 201, booked.text


async def stop_by_stage(runtime, client, tenant, lead):
    changed = await tenant.patch(
        f"/v1/contacts/{lead['contact_id']}", json={"stage": "ACTIVE_CLIENT"}
    )
    assert changed.status_code == 200, changed.text


async def stop_by_other_agent(runtime, client, tenant, lead):
    field = {"object": "contacts", "key": "working_with_agent", "label": "Agent", "type": "boolean"}
    assert (await tenant.post("/v1/custom-fields", json=field)).status_code == 201
    changed = await tenant.patch(
        f"/v1/contacts/{lead['contact_id']}", json={"custom_fields": {"working_with_agent": True}}
    )
    assert changed.status_code == 200, changed.text


@pytest.mark.parametrize(
    ("stop", "reason"),
    [
        (stop_by_opt_out, "opted_out"),
        (stop_by_pause, "paused"),
        (stop_by_handoff, "handed_off"),
        (stop_by_showing, "showing_booked"),
        (stop_by_stage, "stage"),
        (stop_by_other_agent, "working_with_agent"),
    ],
)
async def test_the_cadence_stops_for_good(runtime, client, tenant, stop, reason):
    clock, lead = await first_touch_sent(runtime, tenant)
    await stop(runtime, client, tenant, lead)
    before = len(await texts_to(runtime, tenant, SAN_FRANCISCO))
    clock.advance(minutes=10)
    await drive(runtime)
    clock.advance(days=40)
    await drive(runtime)
    ai_texts = [
        m for m in await texts_to(runtime, tenant, SAN_FRANCISCO) if "Reply STOP" in m["body"]
    ]
    assert len(ai_texts) == 1  # the first touch only
    assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == before
    follow_ups = [row for row in await outreach_rows(runtime, tenant) if row["step"] > 0]
    assert [(row["status"], row["outcome"]) for row in follow_ups] == [("stopped", reason)]
    stopped = await timeline_reasons(runtime, tenant, lead["contact_id"], "ai_follow_ups_stopped")
    assert stopped == [reason]


async def test_an_answer_stops_the_step_and_the_next_ai_text_starts_again(runtime, client, tenant):
    clock, _ = await first_touch_sent(runtime, tenant)
    clock.advance(minutes=10)
    await drive(runtime)
    assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == 2  # the first follow-up
    clock.advance(hours=2)
    await text_in(client, "we want 3 beds in Noe Valley", sender=SAN_FRANCISCO)
    await drive(runtime)  # the AI answers
    sent = await texts_to(runtime, tenant, SAN_FRANCISCO)
    assert len(sent) == 3 and "Reply STOP" not in sent[-1]["body"]
    rows = await outreach_rows(runtime, tenant)
    assert [(row["step"], row["status"], row["outcome"]) for row in rows[:3]] == [
        (0, "sent", "sent"),
        (1, "sent", "sent"),
        (2, "skipped", "answered"),
    ]
    restarted = rows[3]
    assert (restarted["step"], restarted["status"]) == (1, "queued")
    assert restarted["after_message_id"] == sent[-1]["id"]
    clock.advance(minutes=10)
    await drive(runtime)
    again = await texts_to(runtime, tenant, SAN_FRANCISCO)
    assert len(again) == 4 and "Reply STOP" in again[-1]["body"]
    assert len({m["body"] for m in again}) == 4
