"""The retention job: a thin wrapper that runs service.prune at most every
HOMEBASE_RETENTION_INTERVAL_MINUTES, not every worker round (a round comes every second
when idle; old rows are no more urgent than that).

The last run is remembered per process (per Database, so each test's runtime starts
afresh): several processes each prune on their own schedule, which is safe, since their
batches skip each other's rows on PostgreSQL and are serialised on SQLite.
"""

import logging
from datetime import datetime, timedelta
from weakref import WeakKeyDictionary

from homebase.db.engine import Database
from homebase.retention import service
from homebase.runtime import Runtime

log = logging.getLogger("homebase.retention")
_last_run: WeakKeyDictionary[Database, datetime] = WeakKeyDictionary()


def due(runtime: Runtime, now: datetime) -> bool:
    last = _last_run.get(runtime.db)
    interval = timedelta(minutes=runtime.settings.retention_interval_minutes)
    # A clock set back (now < last) runs at once rather than waiting out the difference.
    return last is None or not last <= now < last + interval


async def prune(runtime: Runtime) -> int:
    now = runtime.clock()
    if not due(runtime, now):
        return 0
    # Recorded before the run, so a run that fails is retried after the interval, not
    # on every round.
    _last_run[runtime.db] = now
    counts = await service.prune(runtime.db, runtime.settings, now=now)
    total = sum(counts.values())
    if total:
        log.info(
            "retention pruned %s",
            ", ".join(f"{name}={count}" for name, count in counts.items() if count),
        )
    return total
