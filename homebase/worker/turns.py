"""Turns of the event loop given back by the worker's long loops (docs/performance.md,
"Bulk imports").

`homebase serve` runs its worker on the event loop that serves requests (the default on
SQLite), and the loop runs one callback at a time: a job that computes without awaiting
anything makes every request that arrives meanwhile wait until it is done. A loop
over many rows awaits `give()` once a row. Once SLICE_SECONDS have passed since the last
turn given, `give()` gives one, and a request waits about a slice, where it waited a
whole batch.

A turn is two passes of the event loop (`asyncio.sleep(0)` twice). In the first, the
loop reads the sockets that became readable during the slice: the server parses a
request and creates its task, which the loop queues behind this one. In the second,
that task runs (to its first wait), before the job's next slice. With one pass, every
request waited for a second slice.

A slice is counted from the last turn any loop gave, so two such loops running at once
each give turns a little more often than needed (a turn costs a pass of the event loop,
microseconds). In a standalone worker (`homebase worker`) nothing else waits for the
loop; the turns cost the same and change nothing else.
"""

import asyncio
import time

SLICE_SECONDS = 0.001


class _Slice:
    """When the last turn was given (time.perf_counter)."""

    started = 0.0


_last = _Slice()


async def give() -> None:
    """A turn of the event loop, when this slice is up."""
    if time.perf_counter() - _last.started >= SLICE_SECONDS:
        await asyncio.sleep(0)  # the sockets read: a new request's task queued
        await asyncio.sleep(0)  # that task run
        _last.started = time.perf_counter()
