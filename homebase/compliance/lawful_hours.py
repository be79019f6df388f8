"""When a proactive text may reach a number: the workspace's window, each US state's
stricter rule, and the next allowed minute (docs/messaging.md, "Lawful hours by state").

One table, STATES, read by the quiet-hours and attempt-limit gates (compliance/gates.py)
and by the AI's scheduler (ai/outreach_jobs.py), so what the gate refuses is exactly what
the scheduler waits for. The recipient's state comes from the number's area code
(compliance/area_codes.py, from phonenumbers' geocoder data), beside its time zones
(compliance/timezones.py). Pure: the caller passes the moment (an injectable clock),
nothing here reads one.

A row makes the rule stricter than the workspace's window, never wider:
- `windows`: per weekday (0 Monday ... 6 Sunday), the hours allowed; intersected with the
  workspace's window (default 08:00-20:00);
- `no_sunday`, `holidays`: days with no proactive contact at all;
- `attempts`: at most this many proactive contacts (texts and calls the service starts,
  replies not counted) per 24 hours per number on the same subject (the workspace).
"""

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

import phonenumbers

from homebase.compliance.area_codes import STATE_BY_AREA_CODE
from homebase.compliance.timezones import zones_for_number

HORIZON = timedelta(hours=24)  # a proactive text waits at most this long for its minute
ATTEMPT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class SendingWindow:
    """Local hours in which proactive texts may go out: [start, end) (the workspace's
    send policy, messaging/send_policy.py)."""

    start: time = time(8, 0)
    end: time = time(20, 0)


@dataclass(frozen=True)
class StateRule:
    code: str
    name: str
    source: str  # the law the row stands on
    windows: dict[int, tuple[time, time]] = field(default_factory=dict)
    no_sunday: bool = False
    holidays: tuple[str, ...] = ()  # HOLIDAYS' names
    attempts: int | None = None  # proactive contacts per 24 hours per number


_MON_SAT = range(6)
SUNDAY = 6
# Named holidays a row may list, each a rule for a year's date.
HOLIDAYS = (
    "new_years_day",
    "memorial_day",
    "independence_day",
    "labor_day",
    "thanksgiving",
    "christmas",
)
_STANDARD = (
    "new_years_day",
    "memorial_day",
    "independence_day",
    "labor_day",
    "thanksgiving",
    "christmas",
)

STATES: dict[str, StateRule] = {
    rule.code: rule
    for rule in (
        StateRule(
            "TX",
            "Texas",
            "Tex. Bus. & Com. Code sec. 301.051 (texts are telephone solicitation since "
            "SB 140, 2023): 9 a.m.-9 p.m. Monday to Saturday, noon-9 p.m. Sunday",
            windows={
                **{day: (time(9, 0), time(21, 0)) for day in _MON_SAT},
                SUNDAY: (time(12, 0), time(21, 0)),
            },
        ),
        StateRule(
            "FL",
            "Florida",
            "Fla. Stat. sec. 501.059(8) (Florida Telephone Solicitation Act, 2021): "
            "8 a.m.-8 p.m.; at most 3 calls or texts per 24 hours on the same subject",
            windows={day: (time(8, 0), time(20, 0)) for day in range(7)},
            attempts=3,
        ),
        StateRule(
            "OK",
            "Oklahoma",
            "Okla. Stat. tit. 15, sec. 775C.4 (Telephone Solicitation Act of 2022): "
            "8 a.m.-8 p.m.; at most 3 calls or texts per 24 hours on the same subject",
            windows={day: (time(8, 0), time(20, 0)) for day in range(7)},
            attempts=3,
        ),
        StateRule(
            "MD",
            "Maryland",
            "Md. Code, Com. Law sec. 14-4503 (Stop the Spam Calls Act of 2023): "
            "8 a.m.-8 p.m.; at most 3 calls or texts per 24 hours on the same subject",
            windows={day: (time(8, 0), time(20, 0)) for day in range(7)},
            attempts=3,
        ),
        StateRule(
            "MS",
            "Mississippi",
            "Miss. Code Ann. sec. 77-3-725: 8 a.m.-8 p.m., none on Sunday",
            windows={day: (time(8, 0), time(20, 0)) for day in _MON_SAT},
            no_sunday=True,
        ),
        StateRule(
            "LA",
            "Louisiana",
            "La. Rev. Stat. sec. 45:844.17: 8 a.m.-8 p.m., none on Sunday or a legal holiday",
            windows={day: (time(8, 0), time(20, 0)) for day in _MON_SAT},
            no_sunday=True,
            holidays=_STANDARD,
        ),
        StateRule(
            "AL",
            "Alabama",
            "Ala. Code sec. 8-19C-3 and Ala. Admin. Code r. 770-X-5-.14: 8 a.m.-8 p.m., "
            "none on Sunday or a state holiday",
            windows={day: (time(8, 0), time(20, 0)) for day in _MON_SAT},
            no_sunday=True,
            holidays=_STANDARD,
        ),
        StateRule(
            "UT",
            "Utah",
            "Utah Code sec. 13-26-5: 8 a.m.-9 p.m., none on Sunday or a legal holiday",
            windows={day: (time(8, 0), time(21, 0)) for day in _MON_SAT},
            no_sunday=True,
            holidays=_STANDARD,
        ),
    )
}


@lru_cache(maxsize=4096)
def state_for_number(phone_e164: str | None) -> str | None:
    """The US state (its two-letter code) of a number's area code, the presumption the
    state laws make (compliance/area_codes.py); None outside the US or for an area code
    of no state (a toll-free number)."""
    if not phone_e164:
        return None
    try:
        number = phonenumbers.parse(phone_e164, None)
    except phonenumbers.NumberParseException:
        return None
    if phonenumbers.region_code_for_number(number) != "US":
        return None
    return STATE_BY_AREA_CODE.get(str(number.national_number)[:3])


def rule_for(state: str | None) -> StateRule | None:
    return STATES.get(state) if state else None


def holiday(day: date) -> str | None:
    """The named holiday `day` is (HOLIDAYS), or None."""
    if (day.month, day.day) == (1, 1):
        return "new_years_day"
    if (day.month, day.day) == (7, 4):
        return "independence_day"
    if (day.month, day.day) == (12, 25):
        return "christmas"
    if day.month == 5 and day.weekday() == 0 and (day + timedelta(days=7)).month == 6:
        return "memorial_day"
    if day.month == 9 and day.weekday() == 0 and day.day <= 7:
        return "labor_day"
    if day.month == 11 and day.weekday() == 3 and 22 <= day.day <= 28:
        return "thanksgiving"
    return None


def window_on(
    day: date, rule: StateRule | None, workspace: SendingWindow
) -> tuple[time, time] | None:
    """The hours a proactive text may go out on local `day`: the workspace's window, within
    the state's; None when the state allows none that day."""
    start, end = workspace.start, workspace.end
    if rule is not None:
        if rule.no_sunday and day.weekday() == SUNDAY:
            return None
        if (named := holiday(day)) is not None and named in rule.holidays:
            return None
        span = rule.windows.get(day.weekday())
        if span is not None:
            start, end = max(start, span[0]), min(end, span[1])
    return (start, end) if start < end else None


def refusal(
    moment: datetime, zones: tuple[str, ...], rule: StateRule | None, workspace: SendingWindow
) -> str | None:
    """Why a proactive text may not go out at `moment` (the gate's text), or None."""
    if not zones:
        return (
            "No time zone resolves for the recipient's number, so its local time is "
            "unknown; proactive texts are refused."
        )
    for name in zones:
        local = moment.astimezone(ZoneInfo(name))
        window = window_on(local.date(), rule, workspace)
        where = f"in {name}, a zone of the recipient's number"
        if window is None:
            law = f" ({rule.name}: {rule.source})" if rule is not None else ""
            return f"It is {local:%A} {where}; no proactive texts go out that day{law}."
        if not window[0] <= local.time().replace(tzinfo=None) < window[1]:
            law = f", {rule.name}'s rule included" if rule is not None else ""
            return (
                f"It is {local:%H:%M} {where}; proactive texts go out only from "
                f"{window[0]:%H:%M} to {window[1]:%H:%M} recipient local time{law}."
            )
    return None


def next_allowed(
    moment: datetime,
    zones: tuple[str, ...],
    rule: StateRule | None,
    workspace: SendingWindow,
    *,
    horizon: timedelta = HORIZON,
) -> datetime | None:
    """The first minute from `moment` at which a proactive text may go out to a number of
    these zones and state, at most `horizon` ahead; None when there is none (a number
    whose zones share no allowed minute, or none within the horizon). The earliest
    allowed moment is `moment` itself or a moment some zone's window opens."""
    if not zones:
        return None
    candidates = {moment}
    for name in zones:
        zone = ZoneInfo(name)
        today = moment.astimezone(zone).date()
        for offset in range(-1, 3):
            day = today + timedelta(days=offset)
            window = window_on(day, rule, workspace)
            if window is not None:
                opens = datetime.combine(day, window[0], tzinfo=zone).astimezone(UTC)
                candidates.add(opens)
    last = moment + horizon
    for candidate in sorted(candidates):
        if moment <= candidate <= last and refusal(candidate, zones, rule, workspace) is None:
            return candidate
    return None


def lawful(phone_e164: str) -> tuple[tuple[str, ...], StateRule | None]:
    """A number's zones and its state's rule: what the gate and the scheduler read."""
    return zones_for_number(phone_e164), rule_for(state_for_number(phone_e164))


def over_limit(rule: StateRule | None, attempts: tuple[datetime, ...]) -> bool:
    """Whether another proactive contact would break the state's attempt limit, given the
    times of those made in the last 24 hours."""
    return rule is not None and rule.attempts is not None and len(attempts) >= rule.attempts


def attempt_refusal(rule: StateRule | None, attempts: tuple[datetime, ...]) -> str | None:
    """Why the state's attempt limit refuses another proactive contact (the gate's text),
    given the times of those made in the last 24 hours, or None."""
    if rule is None or not over_limit(rule, attempts):
        return None
    return (
        f"The recipient's number is in {rule.name}, which allows at most {rule.attempts} "
        "proactive texts or calls per 24 hours on the same subject; this workspace has made "
        f"{len(attempts)} ({rule.source})."
    )


def attempts_free_at(rule: StateRule | None, attempts: tuple[datetime, ...]) -> datetime | None:
    """When the attempt limit next allows one more (the oldest counted contact ages out),
    or None when it allows one now."""
    if not over_limit(rule, attempts) or rule is None or rule.attempts is None:
        return None
    ordered = sorted(attempts)
    return ordered[len(ordered) - rule.attempts] + ATTEMPT_WINDOW
