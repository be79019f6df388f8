"""The automation engine: each tick runs the due step of due enrolments.

One enrolment step is one transaction: the enrolment row is claimed from the leased
queue (worker/queue.py `take`: SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL). The
row lock is the lease: other workers skip it, and a worker that dies loses its
connection, so the lock and every uncommitted write go with it; SQLite's BEGIN
IMMEDIATE serializes workers. In that
transaction the step's effect, its idempotency record (automation_step_runs, unique on
enrolment and step index) and the advance commit together. A step found already recorded
is not run again, only advanced past. A step that raises is rolled back to a savepoint
and retried with backoff (1, 2, 4, 8 minutes); after MAX_ATTEMPTS the enrolment is failed.
"""

import logging
from datetime import datetime
from typing import cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.automations import actions, repository, steps
from homebase.automations.records import (
    ClaimedEnrolment,
    EnrolmentChanges,
    EnrolmentState,
    StepRunRecord,
)
from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.clock import Clock
from homebase.kit.ids import new_id
from homebase.kit.statements import AnySelect
from homebase.runtime import Runtime
from homebase.worker import queue

enrolments = repository.enrolments
log = logging.getLogger("homebase.automations")
MAX_ATTEMPTS = 5
RETRY_BACKOFF_SECONDS = 60  # before the second attempt; doubled for each one after


def _due(now: datetime) -> AnySelect:
    return (
        select(enrolments)
        .where(enrolments.c.status == "active", enrolments.c.next_run_at <= now)
        .order_by(enrolments.c.next_run_at, enrolments.c.id)
        .limit(1)
    )


async def work_waiting(runtime: Runtime) -> bool:
    """A read-only look first, so an idle tick never takes SQLite's write lock."""
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(_due(runtime.clock()))).first() is not None


async def run_due(runtime: Runtime, limit: int) -> int:
    """Run up to `limit` due steps; the number run."""
    done = 0
    while done < limit and await run_next(runtime):
        done += 1
    return done


async def run_next(runtime: Runtime) -> bool:
    """Claim one due enrolment and run its current step; False when none is due."""
    async with runtime.db.transaction() as connection:
        due = await queue.take(connection, _due(runtime.clock()))
        if not due:
            return False
        claimed = cast(ClaimedEnrolment, dict(due[0]))  # an automation_enrolments row
        await run_step(connection, claimed, runtime.clock, runtime.settings)
    return True


async def run_step(
    connection: AsyncConnection, enrolment: ClaimedEnrolment, clock: Clock, settings: Settings
) -> None:
    session = TenantSession(
        connection,
        enrolment["workspace_id"],
        clock=clock,
        actor=f"automation:{enrolment['automation_id']}",
    )
    try:
        async with connection.begin_nested():
            await advance(session, enrolment, settings)
    except Exception as error:  # noqa: BLE001  (recorded on the enrolment, retried)
        await _record_failure(session, enrolment, f"{type(error).__name__}: {error}")


async def advance(session: TenantSession, enrolment: ClaimedEnrolment, settings: Settings) -> None:
    automation = await repository.automation(session, enrolment["automation_id"])
    contact = await repository.contact(session, enrolment["contact_id"])
    index = enrolment["step_index"]
    if automation is None:  # never: enrolments hold a foreign key to their automation
        raise LookupError(f"automation {enrolment['automation_id']} not found")
    if contact is None or contact["anonymized_at"] is not None:
        await _finish(session, enrolment, "stopped", "the contact's data was erased")
        return
    if index >= len(automation["steps"]):
        await _finish(session, enrolment, "completed")
        return
    step = steps.parse(automation["steps"][index])
    resume_at = None
    if await repository.step_run(session, enrolment["id"], index) is None:
        outcome = await actions.execute(session, step, contact, settings, enrolment=enrolment)
        if outcome.retry_at is not None:  # the step waits (a lawful minute): not run
            await _wait(session, enrolment, outcome)
            return
        step_run_id = new_id("srn")
        run: StepRunRecord = {
            "id": step_run_id,
            "enrolment_id": enrolment["id"],
            "step_index": index,
            "step_type": step.type,
            "outcome": outcome.outcome,
            "detail": outcome.detail,
            "message_id": outcome.message_id,
            "task_id": outcome.task_id,
            "created_at": session.now(),
        }
        await repository.insert(session, repository.step_runs, run)
        logs.event(
            log,
            "automation step",
            enrolment_id=enrolment["id"],
            automation_id=enrolment["automation_id"],
            workspace_id=enrolment["workspace_id"],
            step_run_id=step_run_id,
            step_index=index,
            step_type=step.type,
            outcome=outcome.outcome,
            message_id=outcome.message_id,
            task_id=outcome.task_id,
        )
        resume_at = outcome.resume_at
    await _advance_to(session, enrolment, index + 1, len(automation["steps"]), resume_at)


async def _wait(
    session: TenantSession, enrolment: ClaimedEnrolment, outcome: actions.Outcome
) -> None:
    """The current step runs again at `outcome.retry_at`; the first wait sets how long
    it may wait at most (actions.WAITS_AT_MOST)."""
    now = session.now()
    latest = enrolment["step_wait_until"] or now + actions.WAITS_AT_MOST
    logs.event(
        log,
        "automation step waiting",
        enrolment_id=enrolment["id"],
        automation_id=enrolment["automation_id"],
        workspace_id=enrolment["workspace_id"],
        step_index=enrolment["step_index"],
        detail=(outcome.detail or "")[:200],
    )
    await repository.update_enrolment(
        session,
        enrolment["id"],
        {"next_run_at": outcome.retry_at, "step_wait_until": latest, "updated_at": now},
    )


async def _advance_to(
    session: TenantSession,
    enrolment: ClaimedEnrolment,
    index: int,
    total: int,
    resume_at: datetime | None,
) -> None:
    if index >= total and resume_at is None:
        await _finish(session, enrolment, "completed", step_index=index)
        return
    now = session.now()
    await repository.update_enrolment(
        session,
        enrolment["id"],
        {
            "step_index": index,
            "next_run_at": resume_at or now,
            "attempts": 0,
            "last_error": None,
            "step_wait_until": None,
            "updated_at": now,
        },
    )


async def _finish(
    session: TenantSession,
    enrolment: ClaimedEnrolment,
    status: EnrolmentState,
    error: str | None = None,
    *,
    step_index: int | None = None,
    attempts: int | None = None,
) -> None:
    logs.event(
        log,
        "automation enrolment finished",
        enrolment_id=enrolment["id"],
        automation_id=enrolment["automation_id"],
        workspace_id=enrolment["workspace_id"],
        status=status,
    )
    now = session.now()
    changes: EnrolmentChanges = {
        "status": status,
        "next_run_at": None,
        "finished_at": now,
        "last_error": error,
        "step_wait_until": None,
        "updated_at": now,
    }
    if step_index is not None:
        changes["step_index"] = step_index
    if attempts is not None:
        changes["attempts"] = attempts
    await repository.update_enrolment(session, enrolment["id"], changes)


async def _record_failure(session: TenantSession, enrolment: ClaimedEnrolment, error: str) -> None:
    attempts = enrolment["attempts"] + 1
    # The exception's type only: its text may quote the statement's values.
    logs.event(
        log,
        "automation step failed",
        level=logging.WARNING,
        enrolment_id=enrolment["id"],
        automation_id=enrolment["automation_id"],
        workspace_id=enrolment["workspace_id"],
        step_index=enrolment["step_index"],
        attempts=attempts,
        error=error.split(":")[0],
    )
    if attempts >= MAX_ATTEMPTS:
        await _finish(session, enrolment, "failed", error[:2000], attempts=attempts)
        return
    now = session.now()
    await repository.update_enrolment(
        session,
        enrolment["id"],
        {
            "attempts": attempts,
            "last_error": error[:2000],
            "updated_at": now,
            "next_run_at": now + queue.backoff(attempts, RETRY_BACKOFF_SECONDS),
        },
    )
