"""The one source of "now", so engines and tests can move time."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import overload

import orjson

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


class FrozenClock:
    """A clock for tests: stands still until moved."""

    def __init__(self, start: datetime | None = None):
        self.now = start or datetime(2026, 1, 5, 15, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@overload
def isoformat(moment: datetime) -> str: ...
@overload
def isoformat(moment: None) -> None: ...
@overload
def isoformat(moment: datetime | None) -> str | None: ...
def isoformat(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with millisecond precision and a Z suffix; naive values are taken
    as UTC. None stays None."""
    if moment is None:
        return None
    if moment.tzinfo is not UTC and moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    # orjson formats a datetime in C, as `"YYYY-MM-DDTHH:MM:SS[.ffffff]Z"` (quotes
    # included); cutting that to milliseconds is cheaper than %-formatting the seven
    # fields (docs/performance.md, "Row reading and writing"), and this runs for every
    # timestamp of every record rendered.
    text = orjson.dumps(moment, option=_ORJSON_UTC)
    if len(text) == _WITH_MICROSECONDS:
        return (text[1:24] + b"Z").decode()
    return (text[1:20] + b".000Z").decode()


_ORJSON_UTC = orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC
_WITH_MICROSECONDS = len(b'"2026-01-05T15:00:00.123456Z"')
