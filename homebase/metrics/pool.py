"""Database pool use, counted as it happens through SQLAlchemy's public pool events
(checkout, checkin), so the figure is right in every process of `serve --workers N`
(each adds its own to the live sum), not only the one a scrape lands on."""

from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from homebase.metrics import DB_POOL_CAPACITY, DB_POOL_IN_USE


def _checked_out(*_args: object) -> None:
    DB_POOL_IN_USE.inc()


def _checked_in(*_args: object) -> None:
    DB_POOL_IN_USE.dec()


def watch(engine: AsyncEngine, capacity: int) -> Callable[[], None]:
    """Counts `engine`'s pool; returns what to call when the engine is disposed."""
    event.listen(engine.sync_engine, "checkout", _checked_out)
    event.listen(engine.sync_engine, "checkin", _checked_in)
    DB_POOL_CAPACITY.inc(capacity)
    released = False

    def unwatch() -> None:  # dispose may run twice; the capacity goes once
        nonlocal released
        if not released:
            released = True
            DB_POOL_CAPACITY.dec(capacity)

    return unwatch
