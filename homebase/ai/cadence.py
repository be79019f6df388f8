"""The AI's follow-ups, as pure rules (docs/ai.md, "First touch and follow-ups").

A persona's `follow_ups` are ISO 8601 durations (`PT10M`, `P1D`, `P3D`, ...), each
measured from the AI's previous outbound text the lead has not answered. The cadence
stops for good on what STOP_REASONS names (an opt-out, a pause, a handoff, a showing
booked, a closing stage, another agent's client) or at the end of the list; an answer
from the lead stops the pending step, and the AI's next unanswered text starts the list
again. Only texts sent since the persona turned follow-ups on (`follow_ups_since`)
count. No I/O and no clock of its own: the caller passes the times.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

# Days, hours, minutes and seconds (and weeks): a month or a year has no fixed length.
_DURATION = re.compile(
    r"^P(?!$)(?:(?P<weeks>\d+)W)?(?:(?P<days>\d+)D)?"
    r"(?:T(?=\d)(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+)S)?)?$"
)
LONGEST = timedelta(days=366)
CLOSED_STAGES = frozenset({"ACTIVE_CLIENT", "PAST_CLIENT", "TRASH"})
# Why a cadence stops for good, in the order they are checked.
STOP_REASONS = (
    "erased",
    "opted_out",
    "paused",
    "handed_off",
    "showing_booked",
    "stage",
    "working_with_agent",
    "end_of_list",
    "follow_ups_off",
)


def duration(text: str) -> timedelta:
    """An ISO 8601 duration of weeks, days, hours, minutes and seconds; ValueError else."""
    found = _DURATION.match(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise ValueError(
            f"'{str(text)[:40]}' is not an ISO 8601 duration of days, hours, minutes or "
            "seconds (e.g. PT10M, P1D)"
        )
    parts = {name: int(value) for name, value in found.groupdict().items() if value}
    total = timedelta(**parts)
    if not timedelta(0) < total <= LONGEST:
        raise ValueError(f"'{text}' must be more than nothing and at most 366 days")
    return total


@dataclass(frozen=True)
class Step:
    number: int  # 1 for the first follow-up
    due: datetime


def next_step(follow_ups: list[str] | None, *, done: int, anchor_at: datetime) -> Step | None:
    """The follow-up after `done` steps, measured from the AI's unanswered text sent at
    `anchor_at`; None at the end of the list (or with none)."""
    steps = follow_ups or []
    if done >= len(steps):
        return None
    return Step(done + 1, anchor_at + duration(steps[done]))


def counts(anchor_at: datetime, since: datetime | None) -> bool:
    """Whether an AI text sent at `anchor_at` starts a cadence: only texts sent once the
    persona turned follow-ups on."""
    return since is not None and anchor_at >= since


@dataclass(frozen=True)
class Standing:
    """What the cadence's stop rules read of the contact at a step's time."""

    erased: bool
    suppressed: bool
    paused_reason: str | None  # the AI's pause (handoff is a pause of its own)
    showing_booked: bool
    stage: str
    working_with_agent: bool


def stop_reason(standing: Standing) -> str | None:
    """Why the cadence stops for good now, or None (end_of_list is `next_step`'s)."""
    if standing.erased:
        return "erased"
    if standing.suppressed or standing.paused_reason == "opt_out":
        return "opted_out"
    if standing.paused_reason in ("handoff", "daily_limit"):
        return "handed_off"
    if standing.paused_reason is not None:
        return "paused"
    if standing.showing_booked:
        return "showing_booked"
    if standing.stage in CLOSED_STAGES:
        return "stage"
    if standing.working_with_agent:
        return "working_with_agent"
    return None
