"""Work a worker job starts and does not wait for: the AI's model calls (homebase/ai/jobs.py).

A round of the worker runs its jobs one after another (worker/runner.py), so a job that
waited on a slow model would hold back webhook deliveries and sends. The AI job instead
claims what it has room for, starts each call here and returns; `running(kind)` bounds
how many run at once (HOMEBASE_AI_CONCURRENCY). A task ends by recording its outcome in
a transaction of its own. Tasks still running when the process stops are cancelled:
their leases lapse and their rows are claimed again, as after a crash.
"""

import asyncio
import logging
from collections import Counter
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger("homebase.worker")


class Background:
    def __init__(self) -> None:
        self._tasks: dict[asyncio.Task[None], str] = {}
        self._counts: Counter[str] = Counter()

    def running(self, kind: str) -> int:
        return self._counts[kind]

    def start(self, kind: str, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks[task] = kind
        self._counts[kind] += 1
        task.add_done_callback(self._finished)

    def _finished(self, task: "asyncio.Task[None]") -> None:
        kind = self._tasks.pop(task)
        self._counts[kind] -= 1
        if not task.cancelled() and task.exception() is not None:
            log.error("background %s task failed", kind, exc_info=task.exception())

    async def idle(self) -> None:
        """Until every task started so far (and any they start) has ended: for tests and
        benchmarks that drive the worker by hand."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
