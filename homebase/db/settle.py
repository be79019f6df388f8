"""What a sync reader may serve: changes that have settled (docs/sync.md).

A write's stamps (`updated_at`, an event's `occurred_at`) are taken inside its transaction
and show when it commits, a little later, so a client walking changes past a stamp could
miss one committed later. So every write commits within `write_timeout` of its start or
not at all (WriteTimedOut, 503), and a sync reader serves only changes stamped at or before
`horizon()`: `settle` seconds ago, more than `write_timeout` plus a margin.
"""

from datetime import datetime, timedelta

from homebase.kit.errors import ServiceUnavailable

# The least margin between the two settings (config.py checks it): time for the COMMIT
# to finish after the check and for the hosts' clocks to disagree.
MARGIN_SECONDS = 1.0
RETRY_AFTER_SECONDS = 1


def horizon(now: datetime, settle_seconds: float) -> datetime:
    """The latest stamp a sync reader may serve at `now`."""
    return now - timedelta(seconds=settle_seconds)


class WriteTimedOut(ServiceUnavailable):
    message = "The write took too long and was rolled back; nothing was changed. Retry it."

    def __init__(self) -> None:
        super().__init__(self.message, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
