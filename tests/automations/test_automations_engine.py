"""The engine's guarantees: each step at most once (a crash before commit leaves nothing,
a recorded step is never re-run), retries with backoff, two workers on PostgreSQL, and a
worker process killed mid-step."""

import asyncio
import sys
import textwrap

import pytest
from sqlalchemy import update

from homebase.automations import actions, engine
from homebase.db.engine import Database
from homebase.models import AutomationEnrolment
from homebase.ratelimit import MemoryLimiter
from homebase.runtime import Runtime
from tests.automations_support import (
    FULL_STEPS,
    MESSAGES,
    STEP_RUNS,
    TASKS,
    automation,
    contact,
    count,
    frozen,
    step_runs,
    tick,
)
from tests.conftest import test_settings as settings_for

TASK_THEN_STAGE = [FULL_STEPS[2], FULL_STEPS[3]]
enrolments = AutomationEnrolment.__table__


class Crash(BaseException):
    """Not an Exception: the engine must not catch it, as it cannot catch a SIGKILL."""


async def _enrol(tenant, automation_id: str, contact_id: str) -> str:
    response = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


async def _state(tenant, automation_id: str) -> dict:
    return (await tenant.get(f"/v1/automations/{automation_id}/enrolments")).json()["data"][0]


async def test_a_crash_after_the_effect_before_commit_leaves_nothing(runtime, tenant, monkeypatch):
    frozen(runtime)
    automation_id = await automation(runtime, tenant, TASK_THEN_STAGE)
    enrolment_id = await _enrol(tenant, automation_id, await contact(tenant))
    original = actions.execute

    async def crash_after_effect(*args, **kwargs):
        await original(*args, **kwargs)  # the task row is written in the transaction ...
        raise Crash()  # ... and the worker dies before the step is recorded and advanced

    monkeypatch.setattr(actions, "execute", crash_after_effect)
    with pytest.raises(Crash):
        await tick(runtime)
    assert await count(runtime, TASKS) == 0 and await count(runtime, STEP_RUNS) == 0
    assert (await _state(tenant, automation_id))["step_index"] == 0

    monkeypatch.setattr(actions, "execute", original)
    assert await tick(runtime) == 2
    assert await count(runtime, TASKS) == 1
    assert [run["step_index"] for run in await step_runs(runtime, enrolment_id)] == [0, 1]
    assert (await _state(tenant, automation_id))["status"] == "completed"


async def test_a_recorded_step_is_never_run_again(runtime, tenant):
    """Should an enrolment ever point at a step already recorded (an advance lost), the
    step_runs key makes the engine advance past it without a second effect."""
    frozen(runtime)
    automation_id = await automation(runtime, tenant, TASK_THEN_STAGE)
    enrolment_id = await _enrol(tenant, automation_id, await contact(tenant))
    assert await tick(runtime) == 2
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(enrolments)
            .where(enrolments.c.id == enrolment_id)
            .values(status="active", step_index=0, next_run_at=runtime.clock(), finished_at=None)
        )
    assert await tick(runtime) == 2
    assert await count(runtime, TASKS) == 1
    assert len(await step_runs(runtime, enrolment_id)) == 2
    assert (await _state(tenant, automation_id))["status"] == "completed"


async def test_a_failing_step_is_retried_with_backoff_then_failed(runtime, tenant, monkeypatch):
    clock = frozen(runtime)
    automation_id = await automation(runtime, tenant, TASK_THEN_STAGE)
    await _enrol(tenant, automation_id, await contact(tenant))

    original = actions.execute

    async def broken(*args, **kwargs):
        await original(*args, **kwargs)  # half-written: rolled back to the savepoint
        raise RuntimeError("provider exploded")

    monkeypatch.setattr(actions, "execute", broken)
    for attempt, wait_minutes in enumerate([1, 2, 4, 8], start=1):
        assert await tick(runtime) == 1
        state = await _state(tenant, automation_id)
        assert (state["status"], state["attempts"]) == ("active", attempt)
        assert "provider exploded" in state["last_error"]
        assert await tick(runtime) == 0  # not due until the backoff has passed
        clock.advance(minutes=wait_minutes)
    assert await tick(runtime) == 1
    state = await _state(tenant, automation_id)
    assert (state["status"], state["attempts"]) == ("failed", 5)
    assert state["finished_at"] is not None and state["next_run_at"] is None
    assert await count(runtime, TASKS) == 0 and await count(runtime, STEP_RUNS) == 0


async def test_due_enrolments_run_oldest_first_and_waits_hold(runtime, tenant):
    clock = frozen(runtime)
    automation_id = await automation(
        runtime, tenant, [{"type": "wait", "minutes": 10}, FULL_STEPS[3]]
    )
    first = await _enrol(tenant, automation_id, await contact(tenant))
    clock.advance(minutes=5)
    second = await _enrol(tenant, automation_id, await contact(tenant))
    assert await tick(runtime) == 2
    clock.advance(minutes=10)
    assert await engine.run_due(runtime, 1) == 1  # both are due: the older goes first
    first_runs, second_runs = (await step_runs(runtime, first), await step_runs(runtime, second))
    assert len(first_runs) == 2 and len(second_runs) == 1
    assert await tick(runtime) == 1
    assert len(await step_runs(runtime, second)) == 2


async def test_two_workers_on_postgresql_run_each_step_once(backend, runtime, tenant, database_url):
    if backend != "postgres":
        pytest.skip("two concurrent workers need PostgreSQL's row locks (SQLite serializes)")
    email = {
        "type": "send_message",
        "persona": "ava",
        "channel": "EMAIL",
        "subject": "Hello",
        "template": "Hi {first_name}",
    }
    automation_id = await automation(runtime, tenant, [FULL_STEPS[2], email, FULL_STEPS[3]])
    contact_ids = [await contact(tenant) for _ in range(24)]
    enrolment_ids = [await _enrol(tenant, automation_id, contact_id) for contact_id in contact_ids]
    settings = settings_for(database_url)
    workers = [
        Runtime(settings=settings, db=Database(database_url, pool_size=2), limiter=MemoryLimiter())
        for _ in range(2)
    ]

    async def loop(worker: Runtime) -> int:
        done = 0
        while await engine.run_next(worker):
            done += 1
            await asyncio.sleep(0)
        return done

    try:
        done = await asyncio.gather(*(loop(worker) for worker in workers))
    finally:
        for worker in workers:
            await worker.close()
    assert sum(done) == 72 and min(done) > 0, done
    for enrolment_id in enrolment_ids:
        assert [run["step_index"] for run in await step_runs(runtime, enrolment_id)] == [0, 1, 2]
    assert await count(runtime, TASKS) == 24 and await count(runtime, MESSAGES) == 24
    listed = await tenant.get(f"/v1/automations/{automation_id}/enrolments?limit=200")
    assert {item["status"] for item in listed.json()["data"]} == {"completed"}


WORKER = textwrap.dedent("""
    import asyncio, sys
    from homebase.automations import actions, engine
    from homebase.config import Settings
    from homebase.runtime import Runtime

    original = actions.execute

    async def stall_after_effect(*args, **kwargs):
        outcome = await original(*args, **kwargs)
        print("EFFECT", flush=True)  # the step's writes are made, not committed
        await asyncio.sleep(3600)
        return outcome

    actions.execute = stall_after_effect
    runtime = Runtime.from_settings(Settings(env="test", database_url=sys.argv[1],
                                             secret_key="test-secret-key"))
    asyncio.run(engine.run_next(runtime))
""")


async def test_a_worker_killed_mid_step_does_not_repeat_it(runtime, tenant, database_url):
    automation_id = await automation(runtime, tenant, TASK_THEN_STAGE)
    enrolment_id = await _enrol(tenant, automation_id, await contact(tenant))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WORKER,
        database_url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        assert line.strip() == b"EFFECT", (line, await process.stderr.read())
    finally:
        process.kill()  # SIGKILL: no cleanup, no rollback from the worker's side
        await process.wait()
    assert await tick(runtime) == 2
    assert await count(runtime, TASKS) == 1
    assert [run["step_index"] for run in await step_runs(runtime, enrolment_id)] == [0, 1]
    state = await _state(tenant, automation_id)
    assert state["status"] == "completed" and state["attempts"] == 0
