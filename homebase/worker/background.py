"""Work a worker job starts and does not wait for: the AI's model calls (homebase/ai/jobs.py),
an import's batches (imports/jobs.py), an export's file (exports/jobs.py).

A round of the worker runs its jobs one after another (root/worker.py), so a job that
waited on a slow model or a long file would hold back webhook deliveries and sends. Such
a job instead claims what it has room for, starts each piece of work here and returns
(`claim_and_start`); `running(kind)` bounds how many run at once (HOMEBASE_AI_CONCURRENCY
for the AI). A task ends by recording its outcome in a transaction of its own. Tasks still
running when the process stops are cancelled: their leases lapse and their rows are
claimed again, as after a crash.
"""

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

log = logging.getLogger("homebase.worker")
Claimed = TypeVar("Claimed")


class Background:
    def __init__(self) -> None:
        self._tasks: dict[asyncio.Task[None], str] = {}
        self._counts: Counter[str] = Counter()

    def running(self, kind: str) -> int:
        return self._counts[kind]

    async def claim_and_start(
        self,
        kind: str,
        limit: int,
        claim: Callable[[int], Awaitable[Sequence[Claimed]]],
        work: Callable[[Claimed], Coroutine[Any, Any, None]],
    ) -> int:
        """Claims what `kind` has room for (`claim(room)`, `limit` running at once) and
        starts `work` on each claimed item: how many it started."""
        room = limit - self.running(kind)
        if room <= 0:
            return 0
        claims = await claim(room)
        for claimed in claims:
            self.start(kind, work(claimed))
        return len(claims)

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
