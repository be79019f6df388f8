"""The leased queue's guarantees (homebase/worker/queue.py), on SQLite and PostgreSQL, on a
table of the tests' own (tests/queue_support.py): claimers never share a row (SKIP LOCKED on
PostgreSQL, one writer at a time on SQLite), a SIGKILLed worker's lease expires and its row
is claimed again, a late result under a lost lease changes nothing, and the backoff
schedules. Each kind's own rules on top are tested with it: webhooks (test_webhooks_*),
sends (test_message_*), calendar pushes (test_calendar_push.py), automation steps
(test_automations_engine.py)."""

import asyncio
import collections
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from homebase.automations import engine
from homebase.kit.clock import FrozenClock
from homebase.messaging import jobs as messaging_jobs
from homebase.worker.queue import backoff
from tests.queue_support import LEASE, LEASE_SECONDS, add, claim, complete, jobs, row, sweep
from tests.support import until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def db(runtime):
    async with runtime.db.transaction() as connection:
        await connection.run_sync(jobs.metadata.drop_all)  # left by an interrupted run
        await connection.run_sync(jobs.metadata.create_all)
    yield runtime.db
    async with runtime.db.transaction() as connection:
        await connection.run_sync(jobs.metadata.drop_all)


@pytest.fixture
def clock():
    return FrozenClock()


async def _claim(db, now, limit):
    async with db.transaction() as connection:
        return await claim(connection, now, limit)


async def test_a_claimer_skips_the_rows_another_holds(backend, db, clock):
    ids = [f"job{n:02d}" for n in range(10)]
    async with db.transaction() as connection:
        await add(connection, ids, clock())
    async with db.transaction() as connection:
        first = await claim(connection, clock(), 4)
        second = asyncio.create_task(_claim(db, clock(), 10))
        if backend == "postgres":
            # The first claim is not committed: the second passes over its locked rows
            # rather than waiting for them (or, unlocked, taking them too).
            taken = await asyncio.wait_for(second, 10)
        else:
            await asyncio.sleep(0.2)
            assert not second.done()  # SQLite: claimers take turns
    if backend == "sqlite":
        taken = await asyncio.wait_for(second, 10)
    assert len(first) == 4 and len(taken) == 6
    assert set(first) | set(taken) == set(ids)


async def test_concurrent_claimers_take_each_row_once(db, clock):
    ids = [f"job{n:02d}" for n in range(40)]
    async with db.transaction() as connection:
        await add(connection, ids, clock())
    claimed: collections.Counter[str] = collections.Counter()

    async def claimer() -> None:
        while taken := await _claim(db, clock(), 3):
            claimed.update(list(taken))
            await asyncio.sleep(0)

    await asyncio.gather(*(claimer() for _ in range(4)))
    assert set(claimed) == set(ids) and set(claimed.values()) == {1}


async def test_an_expired_lease_is_claimed_again_and_its_late_result_ignored(db, clock):
    async with db.transaction() as connection:
        await add(connection, ["job"], clock())
    [lost] = (await _claim(db, clock(), 10)).values()
    clock.advance(seconds=LEASE_SECONDS - 1)
    assert await _claim(db, clock(), 10) == {}  # still leased
    clock.advance(seconds=1)
    [held] = (await _claim(db, clock(), 10)).values()
    assert held != lost
    async with db.transaction() as connection:
        assert not await complete(connection, "job", lost, "late")
        state = await row(connection, "job")
        assert (state["status"], state["lease_token"], state["attempts"]) == ("pending", held, 2)
        assert await complete(connection, "job", held, "on time")
        state = await row(connection, "job")
    assert (state["status"], state["outcome"], state["lease_token"]) == ("done", "on time", None)


async def test_a_sweep_takes_back_only_expired_leases(db, clock):
    start = clock()
    async with db.transaction() as connection:
        await add(connection, ["a", "b", "c"], start)
    [token_a] = (await _claim(db, clock(), 1)).values()
    clock.advance(seconds=LEASE_SECONDS / 2)
    [token_b] = (await _claim(db, clock(), 1)).values()
    clock.advance(seconds=LEASE_SECONDS / 2)
    async with db.transaction() as connection:
        # b's lease runs another half; c was never leased.
        assert await sweep(connection, clock()) == ["a"]
    async with db.transaction() as connection:
        assert not await complete(connection, "a", token_a, "late")
        assert (await row(connection, "a"))["status"] == "abandoned"
        assert await complete(connection, "b", token_b, "ok")


WORKER = textwrap.dedent("""
    import asyncio, sys
    from datetime import datetime
    from homebase.db.engine import Database
    from tests import queue_support

    async def main(url, now, committed):
        db = Database(url)
        async with db.transaction() as connection:
            [token] = (await queue_support.claim(connection, now, 1)).values()
            if not committed:
                print("CLAIMING", token, flush=True)
                await asyncio.sleep(3600)  # SIGKILLed before the claim commits
        print("CLAIMED", token, flush=True)
        await asyncio.sleep(3600)  # SIGKILLed while working on the row

    asyncio.run(main(sys.argv[1], datetime.fromisoformat(sys.argv[2]), sys.argv[3] == "1"))
""")


async def _killed_worker(database_url: str, now, *, committed: bool) -> str:
    """A worker process that claims the one row and is SIGKILLed; the token it held."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WORKER,
        database_url,
        now.isoformat(),
        "1" if committed else "0",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line.split()[:1] == [b"CLAIMED" if committed else b"CLAIMING"], (
            line,
            await process.stderr.read(),
        )
    finally:
        process.kill()  # SIGKILL: no cleanup, nothing given back
        await process.wait()
    return line.split()[1].decode()


async def test_a_sigkilled_workers_lease_expires(db, clock, database_url):
    async with db.transaction() as connection:
        await add(connection, ["job"], clock())
    dead = await _killed_worker(database_url, clock(), committed=True)
    assert await _claim(db, clock(), 10) == {}  # its lease outlives it...
    clock.advance(seconds=LEASE_SECONDS)
    [token] = (await _claim(db, clock(), 10)).values()  # ...until it expires
    async with db.transaction() as connection:
        assert token != dead and (await row(connection, "job"))["attempts"] == 2
        assert not await complete(connection, "job", dead, "never")


async def test_a_worker_sigkilled_inside_its_claim_leaves_the_row_due(db, clock, database_url):
    async with db.transaction() as connection:
        await add(connection, ["job"], clock())
    await _killed_worker(database_url, clock(), committed=False)
    # Its lock and its uncommitted lease went with it; PostgreSQL ends the dead session
    # once it sees the connection close, which may take a moment.
    taken = await until(lambda: _claim(db, clock(), 10), 60, every=0.1)
    assert list(taken) == ["job"]
    async with db.transaction() as connection:
        assert (await row(connection, "job"))["attempts"] == 1


def test_backoff_doubles_from_one_unit():
    # The spec's webhook schedule: 1, 2, 4, 8, 16 minutes (the unit's default is 60 s).
    assert [backoff(n, 60) for n in range(1, 6)] == [timedelta(minutes=m) for m in (1, 2, 4, 8, 16)]
    assert backoff(3, 0.5) == timedelta(seconds=2)
    # Sends that never reached the provider: 30 s doubling; automation steps: minutes.
    sends = [backoff(n, messaging_jobs.RETRY_BACKOFF_SECONDS) for n in range(1, 5)]
    assert sends == [timedelta(seconds=s) for s in (30, 60, 120, 240)]
    steps = [backoff(n, engine.RETRY_BACKOFF_SECONDS) for n in range(1, 5)]
    assert steps == [timedelta(minutes=m) for m in (1, 2, 4, 8)]


async def test_a_claim_leases_only_what_its_choice_keeps(db, clock):
    """Lease.claim: the rows `choose` returns are leased, in order, each with its own
    token; the others are left as they were (and free for the next claim)."""
    async with db.transaction() as connection:
        await add(connection, ["a", "b", "c", "d"], clock())
    seen: list[str] = []

    async def every_other(taken):
        seen.extend(row["id"] for row in taken)
        return taken[::2]

    async with db.transaction() as connection:
        claimed = await LEASE.claim(
            connection,
            select(jobs.c.id).where(jobs.c.status == "pending").order_by(jobs.c.id),
            clock() + timedelta(seconds=LEASE_SECONDS),
            choose=every_other,
            outcome="leased",
        )
    assert seen == ["a", "b", "c", "d"]
    assert [row["id"] for row, _ in claimed] == ["a", "c"]
    assert len({token for _, token in claimed}) == 2
    async with db.transaction() as connection:
        stored = {
            found["id"]: (found["lease_token"], found["attempts"], found["outcome"])
            for found in (await connection.execute(select(jobs))).mappings()
        }
    tokens = dict((row["id"], token) for row, token in claimed)
    assert stored == {
        "a": (tokens["a"], 1, "leased"),
        "b": (None, 0, None),
        "c": (tokens["c"], 1, "leased"),
        "d": (None, 0, None),
    }
    assert set(await _claim(db, clock(), 10)) == {"b", "d"}
