"""The one source of "now", so engines and tests can move time."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

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


def isoformat(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z suffix; naive values are taken as UTC."""
    if moment is None:
        return None
    if moment.tzinfo is UTC:  # the usual case, and astimezone is the slow part
        moment = moment.replace(tzinfo=None)
    elif moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="milliseconds") + "Z"
