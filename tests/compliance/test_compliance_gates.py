"""The gate function, one gate at a time and in order, with a frozen clock across zones."""

from datetime import UTC, datetime, time

import pytest

from homebase.compliance.gates import (
    Allowed,
    Blocked,
    RecipientState,
    SenderState,
    SendingWindow,
    WorkspaceState,
    evaluate,
)
from homebase.compliance.timezones import zones_for_number
from homebase.kit.clock import FrozenClock

NEW_YORK = "+12125550100"
LOS_ANGELES = "+13105550100"
HONOLULU = "+18085550100"
NORTH_DAKOTA = "+17015550100"  # area code 701 spans Central and Mountain time
NO_ZONE = "+8823234567"  # an international network (+882): no geographic zone
APPROVED = SenderState("+14155550100", "approved")
ACTIVE = WorkspaceState("active")
# 2026-01-05 18:00 UTC: 13:00 New York, 10:00 Los Angeles, 08:00 Honolulu
CLOCK = FrozenClock(datetime(2026, 1, 5, 18, 0, tzinfo=UTC))


def recipient(address=NEW_YORK, **overrides):
    values = {"sender": APPROVED, "has_consent": True, "proactive": True, **overrides}
    return RecipientState(address, **values)


def reason(decision):
    return decision.reason if isinstance(decision, Blocked) else None


def test_zone_resolution():
    assert zones_for_number(NEW_YORK) == ("America/New_York",)
    assert zones_for_number(LOS_ANGELES) == ("America/Los_Angeles",)
    assert zones_for_number(HONOLULU) == ("Pacific/Honolulu",)
    assert len(zones_for_number(NORTH_DAKOTA)) == 2
    assert zones_for_number(NO_ZONE) == ()
    assert zones_for_number("not a number") == ()


def test_everything_in_order_is_allowed():
    assert evaluate(ACTIVE, recipient(), "SMS", CLOCK()) == Allowed()


def test_suspended_workspace_sends_nothing_on_any_channel():
    for channel in ("SMS", "WHATSAPP", "EMAIL"):
        decision = evaluate(WorkspaceState("suspended"), recipient(), channel, CLOCK())
        assert reason(decision) == "account_suspended"
        assert decision.message.startswith("Blocked (account_suspended): ")


def test_suppressed_recipient_is_refused_on_every_channel():
    for channel in ("SMS", "WHATSAPP", "EMAIL"):
        decision = evaluate(ACTIVE, recipient(suppression="STOP reply"), channel, CLOCK())
        assert reason(decision) == "opted_out"


@pytest.mark.parametrize(
    "sender",
    [None, SenderState("+14155550100", "pending"), SenderState("+14155550100", "rejected")],
)
def test_a2p_needs_an_approved_sender(sender):
    assert reason(evaluate(ACTIVE, recipient(sender=sender), "SMS", CLOCK())) == "a2p_not_approved"


def test_email_skips_text_gates():
    state = RecipientState("dana@example.com", has_consent=False, sender=None)
    assert evaluate(ACTIVE, state, "EMAIL", datetime(2026, 1, 5, 7, tzinfo=UTC)) == Allowed()


@pytest.mark.parametrize(
    ("utc_hour", "number", "expected"),
    [
        (18, NEW_YORK, None),  # 13:00 local
        (18, LOS_ANGELES, None),  # 10:00
        (18, HONOLULU, None),  # 08:00, the window's first minute
        (17, HONOLULU, "quiet_hours"),  # 07:00
        (1, NEW_YORK, "quiet_hours"),  # 20:00, the window's end is exclusive
        (1, LOS_ANGELES, None),  # 17:00
        (4, LOS_ANGELES, "quiet_hours"),  # 20:00
        (14, NEW_YORK, None),  # 09:00
        (14, LOS_ANGELES, "quiet_hours"),  # 06:00
    ],
)
def test_quiet_hours_in_the_recipients_zone(utc_hour, number, expected):
    now = datetime(2026, 1, 5, utc_hour, 0, tzinfo=UTC)
    assert reason(evaluate(ACTIVE, recipient(number), "SMS", now)) == expected


def test_a_number_with_several_zones_must_be_inside_hours_in_all():
    # 14:00 UTC: 08:00 Central (allowed) but 07:00 Mountain (quiet)
    assert (
        reason(
            evaluate(
                ACTIVE, recipient(NORTH_DAKOTA), "SMS", datetime(2026, 1, 5, 14, 0, tzinfo=UTC)
            )
        )
        == "quiet_hours"
    )
    assert (
        evaluate(ACTIVE, recipient(NORTH_DAKOTA), "SMS", datetime(2026, 1, 5, 15, 0, tzinfo=UTC))
        == Allowed()
    )


def test_no_resolvable_zone_fails_closed_at_any_hour():
    for hour in range(24):
        decision = evaluate(
            ACTIVE, recipient(NO_ZONE), "SMS", datetime(2026, 1, 5, hour, tzinfo=UTC)
        )
        assert reason(decision) == "quiet_hours"
        assert "No time zone" in decision.text


def test_replies_skip_quiet_hours_and_consent():
    night = datetime(2026, 1, 5, 5, 0, tzinfo=UTC)  # 00:00 New York
    state = recipient(proactive=False, has_consent=False)
    assert evaluate(ACTIVE, state, "SMS", night) == Allowed()
    assert (
        reason(evaluate(ACTIVE, recipient(proactive=True, has_consent=True), "SMS", night))
        == "quiet_hours"
    )


def test_consent_needed_for_proactive_texts():
    assert (
        reason(evaluate(ACTIVE, recipient(has_consent=False), "SMS", CLOCK())) == "consent_missing"
    )
    assert (
        reason(evaluate(ACTIVE, recipient(has_consent=False), "WHATSAPP", CLOCK()))
        == "consent_missing"
    )


def test_custom_window():
    window = SendingWindow(time(9, 0), time(17, 0))
    assert (
        reason(
            evaluate(ACTIVE, recipient(), "SMS", datetime(2026, 1, 5, 13, 30, tzinfo=UTC), window)
        )
        == "quiet_hours"
    )


def test_gate_order_first_refusal_wins():
    everything_wrong = RecipientState(
        NO_ZONE, suppression="STOP reply", sender=None, has_consent=False
    )
    night = datetime(2026, 1, 5, 5, tzinfo=UTC)
    steps = [
        (WorkspaceState("suspended"), everything_wrong, "account_suspended"),
        (ACTIVE, everything_wrong, "opted_out"),
        (ACTIVE, RecipientState(NO_ZONE, sender=None, has_consent=False), "a2p_not_approved"),
        (ACTIVE, RecipientState(NO_ZONE, sender=APPROVED, has_consent=False), "quiet_hours"),
        (ACTIVE, RecipientState(NEW_YORK, sender=APPROVED, has_consent=False), "quiet_hours"),
        (ACTIVE, RecipientState(NEW_YORK, sender=APPROVED, has_consent=False), None),
    ]
    for index, (workspace, state, expected) in enumerate(steps):
        now = CLOCK() if index == len(steps) - 1 else night
        got = reason(evaluate(workspace, state, "SMS", now))
        assert got == (expected or "consent_missing")
