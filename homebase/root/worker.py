"""The background worker: `homebase worker`, or in-process under `homebase serve`.

It runs every registered job in turn; a job does a bounded batch of due work and
returns how much it did. When a whole round finds nothing, the worker waits until work
is committed (runtime.wakeup: in-process, and LISTEN on PostgreSQL; worker/wakeup.py) or
HOMEBASE_WORKER_POLL_SECONDS pass, the safety net for a lost notification. Jobs are
thin: they open their own transactions and call plain functions that tests call
directly. The jobs and their order are one list: root/jobs.py.
"""

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Sequence

from homebase import tracing
from homebase.config import get_settings
from homebase.db import unavailable
from homebase.kit import collector, logs
from homebase.metrics import WORKER_JOB_DURATION, WORKER_JOB_FAILURES, WORKER_JOB_ITEMS
from homebase.root.jobs import JOBS, Job
from homebase.runtime import Runtime
from homebase.worker import turns
from homebase.worker.wakeup import listen

log = logging.getLogger("homebase.worker")


async def run_round(
    runtime: Runtime, stop: asyncio.Event | None = None, jobs: Sequence[Job] = JOBS
) -> int:
    """One pass over every job (root/jobs.py), in order; a failing job is logged and
    the others still run. Once `stop` is set no further job starts: the one running
    finishes its batch, recording every outcome, which gives its leases back."""
    done = 0
    for name, function in ((job.name, job.run) for job in jobs):
        if stop is not None and stop.is_set():
            break
        # On SQLite a job's statements run inline on the event loop: without a turn, a
        # whole round held the loop an in-process worker shares with requests.
        await turns.give()
        logs.bind(job=name)
        started = time.perf_counter()
        # One trace per run when tracing is on (a run that did nothing is not exported:
        # tracing/export.py); a no-op context otherwise.
        with tracing.job_span(name) as span:
            try:
                did = await function(runtime)
            except Exception as error:
                tracing.job_failed(span, error)
                why = unavailable.reason(error)
                if why is not None:  # the database is down: one line a round, no traceback
                    log.warning("worker job %s: %s; it will run again next round", name, why)
                else:
                    log.exception("worker job %s failed; it will run again next round", name)
                WORKER_JOB_FAILURES.labels(name).inc()
                WORKER_JOB_DURATION.labels(name, "failed").observe(time.perf_counter() - started)
                continue
            tracing.job_done(span, did)
        WORKER_JOB_DURATION.labels(name, "ok").observe(time.perf_counter() - started)
        if did:
            WORKER_JOB_ITEMS.labels(name).inc(did)
        done += did
    logs.bind(job=None)
    return done


async def drain(worker: "asyncio.Task[None]", seconds: float) -> None:
    """Waits up to `seconds` for a stopping worker to finish its batch (SIGTERM). Past
    it the batch is cancelled: its leases then expire and the sweepers take the rows back
    as after a crash (a send whose outcome is unknown ends FAILED, never sent twice)."""
    done, _ = await asyncio.wait({worker}, timeout=seconds)
    if not done:
        log.warning("worker did not stop within %.0f s; cancelling its batch", seconds)
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)


async def run_until(runtime: Runtime, stop: asyncio.Event) -> None:
    log.info(
        "worker started with jobs: %s; woken by %s, else every %s s",
        ", ".join(job.name for job in JOBS),
        "commits in this process (SQLite: not another process's)"
        if runtime.db.is_sqlite
        else "commits in this process and LISTEN homebase_work",
        runtime.settings.worker_poll_seconds,
    )
    wakeup = runtime.wakeup
    listener = (
        None if runtime.db.is_sqlite else asyncio.create_task(listen(runtime.db.url, wakeup, stop))
    )
    try:
        while not stop.is_set():
            wakeup.clear()  # before the round: work committed during it wakes the next
            if await run_round(runtime, stop) == 0:
                await wakeup.wait(runtime.settings.worker_poll_seconds, stop)
    finally:
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
    log.info("worker stopped")


def lower_priority(niceness: int) -> int:
    """Lowers this process's scheduling priority to `niceness` (HOMEBASE_WORKER_NICE), never
    raising it (a worker started under `nice` keeps its own); the niceness it now runs at.
    Before any thread starts: on Linux each thread has its own, and new threads inherit it."""
    current = os.getpriority(os.PRIO_PROCESS, 0)
    if niceness > current:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
        return niceness
    return current


async def run_worker_forever() -> None:
    settings = get_settings()
    # A standalone worker's CPU yields to the requests of a `homebase serve` beside it.
    niceness = lower_priority(settings.worker_nice)
    tracing.configure()  # OTEL_* (homebase/tracing): before the runtime makes its engine
    runtime = Runtime.from_settings(settings)
    log.info("worker runs at niceness %d (HOMEBASE_WORKER_NICE)", niceness)
    # Everything loaded so far (the modules, every job's code) lives as long as the process:
    # moved to the collector's permanent generation (gc.freeze), so its full collections,
    # which a large import's rows set off, no longer walk it each time (docs/performance.md,
    # "Bulk imports").
    collector.freeze()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    metrics = _metrics_server(runtime, stop)
    worker = asyncio.create_task(run_until(runtime, stop))
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({worker, stopping}, return_when=asyncio.FIRST_COMPLETED)
        await drain(worker, runtime.settings.shutdown_timeout_seconds)
        if not worker.cancelled():
            await worker  # a worker that crashed raises here
    finally:
        stopping.cancel()
        if metrics is not None:
            await metrics.stop()
        await runtime.close()
        if tracing.ACTIVE:
            await asyncio.to_thread(tracing.shutdown)


class _MetricsServer:
    """GET /metrics on HOMEBASE_WORKER_METRICS_PORT (root/worker_metrics.py), served in
    this loop beside the worker. If it stops by itself (SIGTERM, which it also takes, or
    a failure) the worker stops too: a worker asked to be scraped is never left unscrapable."""

    def __init__(self, runtime: Runtime, stop: asyncio.Event, port: int):
        # uvicorn and the HTTP app's pieces: loaded only by a worker asked to be scraped.
        from homebase.root import worker_metrics

        settings = runtime.settings
        listening = worker_metrics.bind(settings.worker_metrics_host, port)
        host, port = listening.getsockname()[:2]
        self.server = worker_metrics.server(runtime)
        self.task = asyncio.create_task(self.server.serve(sockets=[listening]))
        self.task.add_done_callback(lambda _: stop.set())
        log.info("worker metrics at http://%s:%s/metrics", host, port)

    async def stop(self) -> None:
        self.server.should_exit = True
        await asyncio.gather(self.task, return_exceptions=True)


def _metrics_server(runtime: Runtime, stop: asyncio.Event) -> "_MetricsServer | None":
    port = runtime.settings.worker_metrics_port
    if port is None:
        return None
    return _MetricsServer(runtime, stop, port)
