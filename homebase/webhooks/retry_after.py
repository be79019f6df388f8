"""The wait before a failed delivery's next attempt: the spec's backoff, moved later by a
receiver's Retry-After on 429 or 503, never past the following step (docs/webhooks.md,
"Retry-After").

After failure n (1 to 5) the schedule waits w(n) = 2**(n-1) units
(HOMEBASE_WEBHOOK_BACKOFF_UNIT_SECONDS). When that failure was a 429 or 503 whose
Retry-After asks for R seconds (delta-seconds, or an HTTP-date in any of the three forms
HTTP allows, minus now), the wait is max(w(n), R) capped at w(n+1) = 2 * w(n), the
following step's wait: a receiver can push one attempt back at most as far as the
schedule's next step would, so the six attempts never spread over more than twice the
schedule. A value that is not a non-negative integer or a date, or lies in the past,
leaves the schedule as it is.
"""

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from homebase.worker import queue

STATUSES = frozenset({429, 503})  # the answers whose Retry-After is read
_LONGEST = 64  # characters: an HTTP-date is 29; anything longer is not a value we read
_SECONDS = re.compile(r"[0-9]+")


def requested_seconds(value: str | None, now: datetime) -> float | None:
    """The delay a Retry-After value asks for, from `now`; None for no header or one that
    is neither form. Never raises: a receiver's header is untrusted input."""
    if value is None:
        return None
    text = value.strip()
    if not text or len(text) > _LONGEST:
        return None
    if _SECONDS.fullmatch(text):
        return float(int(text))  # at most 64 digits: a float holds it (the cap follows)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # asctime's form, or "-0000": HTTP's dates are all GMT
        when = when.replace(tzinfo=UTC)
    return (when - now).total_seconds()


def next_wait(failures: int, unit_seconds: float, requested: float | None) -> timedelta:
    """The wait after the `failures`-th failure of the current schedule."""
    planned = queue.backoff(failures, unit_seconds)
    if requested is None or requested <= planned.total_seconds():
        return planned
    return timedelta(seconds=min(requested, 2 * planned.total_seconds()))
