"""What a sync reader may serve: changes that have settled.

A write stamps `updated_at` (or an event's `occurred_at`) inside its transaction and shows
when it commits, a little later: a client walking changes in stamp order (`updated_after`
lists, GET /v1/events) past a stamp would miss one committed later. So (docs/sync.md):

- Every write transaction commits within `write_timeout` of its start, or not at all
  (Database.transaction rolls back one that ran longer: WriteTimedOut, answered 503 with
  Retry-After), and every stamp is taken inside the transaction, after it began.
- A sync reader serves only changes stamped at or before `horizon()`: `settle` seconds
  ago, more than `write_timeout` plus a margin for the COMMIT and the hosts' clocks.
  So a change is served `settle` seconds after it happens (webhooks carry it at once).
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
