"""Waking the worker when work is committed, instead of waiting out its poll.

A transaction that writes work (an outbox event, a queued message, an enrolment) is
announced when it commits (db/work.py):

- in-process: Database calls `Wakeup.notify` of its Runtime, so the worker running
  inside `homebase serve` starts its next round at once;
- on PostgreSQL, also across processes: after the commit, the process's Notifier sends
  `pg_notify('homebase_work', '')` (db/notifier.py), and every worker (`homebase worker`,
  or the one inside `serve`) holds a dedicated asyncpg connection LISTENing on that
  channel (`listen`).

The poll (HOMEBASE_WORKER_POLL_SECONDS) stays as the safety net: a notification lost
while the listener reconnects, or work whose time comes later (a retry's backoff), is
found by the next poll round. On SQLite there is no cross-process signal: a separate
`homebase worker` process finds work made by `serve` at its poll (docs/webhooks.md).
"""

import asyncio
import logging

import asyncpg

from homebase.db.notifier import asyncpg_dsn
from homebase.db.work import CHANNEL

log = logging.getLogger("homebase.worker")
LISTENER_NAME = "homebase worker listener"  # application_name, in pg_stat_activity
FIRST_RETRY_SECONDS = 0.1
MAX_RETRY_SECONDS = 10.0


class Wakeup:
    """Set by `notify` (work committed); the worker clears it before each round and waits
    on it between rounds, so a notification during a round is never lost."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()

    def clear(self) -> None:
        self._event.clear()

    def is_set(self) -> bool:
        return self._event.is_set()

    async def wait(self, poll_seconds: float, stop: asyncio.Event) -> None:
        """Until notified, `stop` is set, or `poll_seconds` pass."""
        if not (self._event.is_set() or stop.is_set()):
            await _first(self._event, stop, seconds=poll_seconds)


async def listen(database_url: str, wakeup: Wakeup, stop: asyncio.Event) -> None:
    """LISTEN on CHANNEL until `stop`, reconnecting with backoff when the connection drops
    or cannot be made (the poll finds the work meanwhile)."""
    dsn = asyncpg_dsn(database_url)
    delay = FIRST_RETRY_SECONDS
    while not stop.is_set():
        if await _listen_once(dsn, wakeup, stop):
            delay = FIRST_RETRY_SECONDS
        if stop.is_set():
            return
        await _first(stop, seconds=delay)
        delay = min(delay * 2, MAX_RETRY_SECONDS)


async def _listen_once(dsn: str, wakeup: Wakeup, stop: asyncio.Event) -> bool:
    """One listening connection, until it drops or `stop`; False if none was made.
    Each connection wakes the worker once: a notification sent while nobody listened is
    lost, and that round finds its work anyway."""
    try:
        connection = await asyncpg.connect(dsn, server_settings={"application_name": LISTENER_NAME})
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        log.warning("worker listener: cannot connect (%s); the poll stands in", error)
        return False
    lost = asyncio.Event()
    try:
        connection.add_termination_listener(lambda _connection: lost.set())
        await connection.add_listener(CHANNEL, lambda *_notification: wakeup.notify())
        wakeup.notify()
        await _first(lost, stop)
        if not stop.is_set():
            log.warning("worker listener: connection lost; reconnecting")
    except (OSError, asyncpg.PostgresError) as error:
        log.warning("worker listener: %s; reconnecting", error)
    finally:
        if not connection.is_closed():
            connection.terminate()  # no round trip needed: LISTEN ends with the session
    return True


async def _first(*events: asyncio.Event, seconds: float | None = None) -> None:
    """Until one of `events` is set, or `seconds` pass."""
    waiters = {asyncio.ensure_future(event.wait()) for event in events}
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
