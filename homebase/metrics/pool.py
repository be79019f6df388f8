"""Database pool use, counted as it happens through SQLAlchemy's public pool events
(checkout, checkin), so the figure is right in every process of `serve --workers N`
(each adds its own to the live sum), not only the one a scrape lands on. The Runtime
watches its Database when it is made (runtime.py): db/ imports nothing from here."""

from sqlalchemy import event

from homebase.db.engine import Database
from homebase.metrics import DB_POOL_CAPACITY, DB_POOL_IN_USE


def _checked_out(*_args: object) -> None:
    DB_POOL_IN_USE.inc()


def _checked_in(*_args: object) -> None:
    DB_POOL_IN_USE.dec()


def watch(database: Database) -> None:
    """Counts `database`'s pools until it is disposed; a second call changes nothing."""
    if event.contains(database.engine.sync_engine, "checkout", _checked_out):
        return
    for engine in database.engines:
        event.listen(engine.sync_engine, "checkout", _checked_out)
        event.listen(engine.sync_engine, "checkin", _checked_in)
    database.on_idle = DB_POOL_IN_USE.inc  # kept between transactions: not in use
    capacity = database.pool_capacity
    DB_POOL_CAPACITY.inc(capacity)
    released = False

    def release() -> None:  # dispose may run twice; the capacity goes once
        nonlocal released
        if not released:
            released = True
            DB_POOL_CAPACITY.dec(capacity)

    database.on_dispose.append(release)
