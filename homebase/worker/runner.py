"""The background worker: `homebase worker`, or in-process under `homebase serve`.

It runs every registered job in turn; a job does a bounded batch of due work and
returns how much it did. When a whole round finds nothing, the worker sleeps
HOMEBASE_WORKER_POLL_SECONDS. Jobs are thin: they open their own transactions and call
plain functions that tests call directly. Areas register jobs with @job.
"""

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable

from homebase.runtime import Runtime

log = logging.getLogger("homebase.worker")
Job = Callable[[Runtime], Awaitable[int]]
JOBS: dict[str, Job] = {}


def job(name: str) -> Callable[[Job], Job]:
    def register(function: Job) -> Job:
        JOBS[name] = function
        return function
    return register


async def run_round(runtime: Runtime) -> int:
    """One pass over every job; a failing job is logged and the others still run."""
    done = 0
    for name, function in list(JOBS.items()):
        try:
            done += await function(runtime)
        except Exception:
            log.exception("worker job %s failed; it will run again next round", name)
    return done


async def run_until(runtime: Runtime, stop: asyncio.Event) -> None:
    log.info("worker started with jobs: %s", ", ".join(JOBS) or "(none)")
    while not stop.is_set():
        if await run_round(runtime) == 0:
            try:
                await asyncio.wait_for(stop.wait(), runtime.settings.worker_poll_seconds)
            except TimeoutError:
                pass
    log.info("worker stopped")


async def run_worker_forever() -> None:
    import homebase.automations.tasks  # noqa: F401  (registers the engine tick)
    import homebase.calendars.tasks  # noqa: F401  (registers the calendar push job)
    import homebase.messaging.tasks  # noqa: F401  (registers the send job)
    import homebase.webhooks.tasks  # noqa: F401  (registers the webhook jobs)

    runtime = Runtime.from_settings()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await run_until(runtime, stop)
    finally:
        await runtime.close()
