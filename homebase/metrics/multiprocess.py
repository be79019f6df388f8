"""prometheus-client's multiprocess mode for `homebase serve --workers N`.

Each server process writes its values to files in PROMETHEUS_MULTIPROC_DIR; /metrics,
answered by whichever process the connection reached, adds them all up
(MultiProcessCollector). The library reads the variable when it is first imported, so
`serve` sets it before uvicorn starts its processes (they inherit it). A process that shuts
down removes its live gauges (mark_process_dead, at the end of the app's lifespan: uvicorn
ends a process by re-raising SIGTERM, so atexit never runs); one that is killed (or that
uvicorn's supervisor replaces after it stopped answering) leaves them in the live sums
until the directory is cleared at the next start. Counters and histograms of a process
that is gone keep counting in the totals, as they should.
"""

import os
import shutil
import tempfile
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"


def enabled() -> bool:
    return bool(os.environ.get(ENV))


def prepare(workers: int) -> Path | None:
    """Before the server processes start. An operator's own directory is emptied (the
    library requires a clean one per run); otherwise, with several processes, a fresh
    temporary one is made and returned, for the caller to remove at the end."""
    existing = os.environ.get(ENV)
    if existing:
        directory = Path(existing)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink()
        return None
    if workers <= 1:
        return None  # one process: values in memory, the default registry
    directory = Path(tempfile.mkdtemp(prefix="homebase-metrics-"))
    os.environ[ENV] = str(directory)
    return directory


def remove(directory: Path | None) -> None:
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


def mark_dead() -> None:
    """In each server process as it shuts down: its live gauges leave the sums."""
    if enabled():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())
