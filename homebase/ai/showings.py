"""When a showing may be booked (docs/ai.md, "Showing slots"): pure, no I/O, any clock.

A persona's `showing_hours` maps a weekday (`mon` ... `sun`) to its opening and closing
time in the workspace's time zone (`["09:00", "18:00"]`); a day it leaves out has no
showings. Unset: Monday to Saturday, 09:00 to 18:00. A showing lasts `showing_minutes`
(default 30) and starts on a multiple of it from the opening time. A slot is free when
it starts after `now`, lies inside the day's hours, and overlaps none of the owner's
Homebase appointments (the calendars Homebase pushes to are not read).
"""

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_HOURS: dict[str, list[str]] = {day: ["09:00", "18:00"] for day in DAYS[:6]}
DEFAULT_MINUTES = 30
HORIZON_DAYS = 7

Busy = Sequence[tuple[datetime, datetime]]


def hours_of(stored: Mapping[str, Sequence[str]] | None) -> dict[str, tuple[time, time]]:
    """A persona's hours as times (DEFAULT_HOURS when unset); fixtures validate them."""
    source = DEFAULT_HOURS if stored is None else stored
    return {
        day: (time.fromisoformat(span[0]), time.fromisoformat(span[1]))
        for day, span in source.items()
        if day in DAYS and len(span) == 2
    }


def _day_starts(
    day: date, zone: ZoneInfo, hours: Mapping[str, tuple[time, time]], minutes: int
) -> Iterable[datetime]:
    span = hours.get(DAYS[day.weekday()])
    if span is None:
        return
    opens = datetime.combine(day, span[0], tzinfo=zone)
    closes = datetime.combine(day, span[1], tzinfo=zone)
    step = timedelta(minutes=minutes)
    start = opens
    while start + step <= closes:
        yield start
        start += step


def _overlaps(start: datetime, end: datetime, busy: Busy) -> bool:
    return any(start < other_end and other_start < end for other_start, other_end in busy)


def free_slots(
    now: datetime,
    zone: ZoneInfo,
    hours: Mapping[str, tuple[time, time]],
    minutes: int,
    busy: Busy,
    *,
    days: int = HORIZON_DAYS,
) -> list[datetime]:
    """Every free slot's start from `now` through the next `days` days, in order."""
    step = timedelta(minutes=minutes)
    today = now.astimezone(zone).date()
    return [
        start
        for offset in range(days + 1)
        for start in _day_starts(today + timedelta(days=offset), zone, hours, minutes)
        if start > now and start < now + timedelta(days=days)
        if not _overlaps(start, start + step, busy)
    ]


def refusal(
    start: datetime,
    now: datetime,
    zone: ZoneInfo,
    hours: Mapping[str, tuple[time, time]],
    minutes: int,
    busy: Busy,
) -> str | None:
    """Why a showing cannot start at `start`, or None: in the past, outside the showing
    hours (or off the slot grid), or overlapping another of the owner's appointments."""
    if start <= now:
        return "that time is in the past"
    local = start.astimezone(zone)
    if local not in set(_day_starts(local.date(), zone, hours, minutes)):
        return "that time is outside the showing hours; pick one of the free slots"
    if _overlaps(start, start + timedelta(minutes=minutes), busy):
        return "that slot is taken; pick one of the free slots"
    return None


def describe(slots: Sequence[datetime], zone: ZoneInfo) -> list[str]:
    """Slots as the model reads them: a line per day with its start times, each start
    also given in full (with the offset) so the model can pass it back."""
    by_day: dict[date, list[datetime]] = {}
    for slot in slots:
        by_day.setdefault(slot.astimezone(zone).date(), []).append(slot.astimezone(zone))
    return [
        f"{day:%a %d %b}: " + ", ".join(start.isoformat(timespec="minutes") for start in starts)
        for day, starts in by_day.items()
    ]


HANDOFF_MINUTES = 15  # a persona's handoff_minutes when unset
SEARCH_DAYS = 14  # how far ahead a due time is looked for


def due_within_hours(
    now: datetime, zone: ZoneInfo, hours: Mapping[str, tuple[time, time]], minutes: int
) -> datetime:
    """`minutes` of the persona's hours counted from `now`: a handoff's task's due time.
    Inside the hours it is `now + minutes`; at 22:00 (or a day without hours) the count
    starts at the next opening, so 15 minutes are due at 09:15 the next working day. A
    persona with no hours on any day counts plain minutes."""
    left = timedelta(minutes=minutes)
    today = now.astimezone(zone).date()
    for offset in range(SEARCH_DAYS + 1):
        day = today + timedelta(days=offset)
        span = hours.get(DAYS[day.weekday()])
        if span is None:
            continue
        opens = datetime.combine(day, span[0], tzinfo=zone)
        closes = datetime.combine(day, span[1], tzinfo=zone)
        start = max(now, opens)
        if start >= closes:
            continue
        if start + left <= closes:
            return start + left
        left -= closes - start
    return now + timedelta(minutes=minutes)


def describe_one(moment: datetime, zone: ZoneInfo) -> str:
    """A time as a person reads it in the workspace's zone: `Sat 14 Nov 11:00`."""
    return f"{moment.astimezone(zone):%a %d %b %H:%M}"
