"""worker/turns.give: a worker's long loop gives the event loop a turn once its slice is
up, and a request whose task was created during the slice runs in that turn."""

import asyncio
import time

from homebase.worker import turns


async def _job(order: list[str], rows: int) -> None:
    """A loop over rows that, during its first row, has a request arrive: its task is
    created by a callback, as the server creates one when it reads the request."""

    async def request() -> None:
        order.append("request")

    loop = asyncio.get_running_loop()
    for index in range(rows):
        order.append(f"row {index}")
        if index == 0:
            loop.call_soon(lambda: loop.create_task(request()))
        await turns.give()


async def test_a_request_that_arrived_during_a_slice_runs_before_the_next_row(monkeypatch):
    monkeypatch.setattr(turns, "SLICE_SECONDS", 0.0)  # every row ends a slice
    order: list[str] = []
    await _job(order, 3)
    assert order == ["row 0", "request", "row 1", "row 2"]


async def test_no_turn_is_given_before_the_slice_is_up(monkeypatch):
    monkeypatch.setattr(turns, "SLICE_SECONDS", 3600.0)
    monkeypatch.setattr(turns._last, "started", time.perf_counter())
    order: list[str] = []
    await _job(order, 3)
    for _ in range(2):  # the request's callback, then its task
        await asyncio.sleep(0)
    assert order == ["row 0", "row 1", "row 2", "request"]
