"""WAL checkpoints off the event loop.

SQLite checkpoints in the commit that takes the log past 1,000 pages, fsyncs and all, which
on the loop's thread (db/sqlite.py) stalled every request. So each process checkpoints on a
thread, once a second, on a connection of its own (PASSIVE: it never waits nor blocks);
pooled connections auto-checkpoint only as a far-off safety net (SAFETY_NET_PAGES).
"""

import asyncio
import contextlib
import logging
import sqlite3
import threading

log = logging.getLogger("homebase.db")

INTERVAL_SECONDS = 1.0
SAFETY_NET_PAGES = 50_000  # ~200 MB of log before a commit checkpoints by itself


class Checkpointer:
    def __init__(self, path: str, interval: float = INTERVAL_SECONDS):
        self.path = path
        self.interval = interval
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # a cancelled task's thread may still be running
        self._stopped = False

    def ensure_running(self) -> None:
        """Called at every transaction; starts the loop's task once."""
        loop = asyncio.get_running_loop()
        if loop is self._loop and self._task is not None and not self._task.done():
            return
        self._loop, self._stopped = loop, False
        self._task = loop.create_task(self._run(), name="homebase-wal-checkpoint")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await asyncio.to_thread(self.checkpoint)
            except Exception:  # never let a checkpoint problem end the loop
                log.exception("WAL checkpoint of %s failed", self.path)

    def checkpoint(self) -> None:
        with self._lock:
            if self._stopped:
                return
            if self._connection is None:
                self._connection = sqlite3.connect(
                    self.path, timeout=0, isolation_level=None, check_same_thread=False
                )
            try:
                self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            if task.get_loop() is asyncio.get_running_loop():
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        with self._lock:  # waits for a checkpoint still running on its thread (ms)
            self._stopped = True
            if self._connection is not None:
                self._connection.close()
                self._connection = None
