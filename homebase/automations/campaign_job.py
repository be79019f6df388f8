"""The campaign job: reaches each active campaign's pending contacts at its pace.

One campaign turn is one transaction. The campaign's row is claimed from the leased
queue (worker/queue.py `take`: SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL): the row
lock is the lease, as the automation engine's is (engine.py). Other workers skip the
campaign; a worker that dies loses its connection, so the lock and every uncommitted
write go with it and the campaign is due again at once. SQLite's BEGIN IMMEDIATE
serializes workers. In that transaction the job takes the campaign's due pending
enrolments (oldest first), skips by rule those it must (recording the reason), and hands
the first that passes to `reach.reach` (the seam to the first-touch path): its durable
work, the enrolment's `reached` state, the `automation.run` event and the campaign's
next slot commit together. So an enrolment is never lost and no contact is reached
twice. A sender that raises is rolled back to a savepoint: its writes are undone and the
enrolment is taken again after RETRY.

The pace: at most `rate_per_hour` contacts an hour, spread evenly. After each reach
the campaign's `next_reach_at` is now + 3600 / rate_per_hour seconds, and the campaign
is not claimed before it. Skips use no slot. Time is the runtime's clock (a FrozenClock
in tests)."""

import logging
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.automations import campaign_repository as repository
from homebase.automations import reach
from homebase.automations.campaign_rules import skip_reason
from homebase.automations.campaign_schemas import CampaignSkipReason
from homebase.automations.records import (
    CampaignEnrolmentRecord,
    ClaimedCampaign,
)
from homebase.automations.render import AutomationRun
from homebase.automations.repository import automation
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.clock import Clock, isoformat
from homebase.kit.statements import AnySelect
from homebase.outbox.service import emit
from homebase.runtime import Runtime
from homebase.worker import queue

campaigns, enrolments = repository.campaigns, repository.enrolments
log = logging.getLogger("homebase.campaigns")
PER_TURN = 100  # enrolments one turn looks at: skipped ones, then at most one reached
RETRY = timedelta(minutes=5)  # after a sender that raised


def _due(now: datetime) -> AnySelect:
    """An active campaign whose slot has come (or whose end passed) with a contact due."""
    waiting = exists().where(
        enrolments.c.campaign_id == campaigns.c.id,
        enrolments.c.state == "pending",
        enrolments.c.due_at <= now,
    )
    return (
        select(campaigns)
        .where(
            campaigns.c.status == "active",
            or_(
                campaigns.c.next_reach_at.is_(None),
                campaigns.c.next_reach_at <= now,
                and_(campaigns.c.ends_at.is_not(None), campaigns.c.ends_at <= now),
            ),
            waiting,
        )
        .order_by(campaigns.c.id)
        .limit(1)
    )


async def work_waiting(runtime: Runtime) -> bool:
    """A read-only look first, so an idle round never takes SQLite's write lock."""
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(_due(runtime.clock()))).first() is not None


async def run_due(runtime: Runtime, limit: int) -> int:
    """Up to `limit` campaign turns; the number taken."""
    done = 0
    while done < limit and await run_next(runtime):
        done += 1
    return done


async def run_next(runtime: Runtime) -> bool:
    """Claim one due campaign and take its turn; False when none is due."""
    async with runtime.db.transaction() as connection:
        due = await queue.take(connection, _due(runtime.clock()))
        if not due:
            return False
        await turn(connection, cast(ClaimedCampaign, dict(due[0])), runtime.clock)
    return True


async def turn(connection: AsyncConnection, campaign: ClaimedCampaign, clock: Clock) -> None:
    session = TenantSession(
        connection, campaign["workspace_id"], clock=clock, actor=f"campaign:{campaign['id']}"
    )
    now = session.now()
    ended = campaign["ends_at"] is not None and campaign["ends_at"] <= now
    for enrolment in await repository.pending(session, campaign["id"], now, PER_TURN):
        reason = CampaignSkipReason.campaign_ended if ended else None
        reason = reason or await skip_reason(session, enrolment, campaign)
        if reason is not None:
            await _skip(session, enrolment, reason)
            continue
        try:
            async with connection.begin_nested():  # a failing sender's writes go with it
                outcome = await reach.reach(session, enrolment, campaign)
        except Exception as error:  # noqa: BLE001  (the enrolment is retried, logged)
            await _retry_later(session, enrolment, error)
            return
        if isinstance(outcome, reach.Refused):
            await _skip(session, enrolment, outcome.reason)
        elif isinstance(outcome, reach.Deferred):
            await repository.update_enrolment(
                session, enrolment["id"], due_at=outcome.until, updated_at=now
            )
        else:
            await _reached(session, enrolment, campaign, outcome.reference)
            return


async def _retry_later(
    session: TenantSession, enrolment: CampaignEnrolmentRecord, error: Exception
) -> None:
    """A sender that raised: the enrolment stays pending, taken again after RETRY (the
    skips this turn recorded stay); the error's type only, as its text may quote values."""
    now = session.now()
    await repository.update_enrolment(session, enrolment["id"], due_at=now + RETRY, updated_at=now)
    logs.event(
        log,
        "campaign reach failed",
        level=logging.WARNING,
        enrolment_id=enrolment["id"],
        campaign_id=enrolment["campaign_id"],
        workspace_id=session.workspace_id,
        error=type(error).__name__,
    )


async def _skip(
    session: TenantSession, enrolment: CampaignEnrolmentRecord, reason: CampaignSkipReason
) -> None:
    now = session.now()
    await repository.update_enrolment(
        session,
        enrolment["id"],
        state="skipped",
        skip_reason=reason.value,
        skipped_at=now,
        updated_at=now,
    )
    logs.event(
        log,
        "campaign contact skipped",
        enrolment_id=enrolment["id"],
        campaign_id=enrolment["campaign_id"],
        workspace_id=session.workspace_id,
        reason=reason.value,
    )


async def _reached(
    session: TenantSession,
    enrolment: CampaignEnrolmentRecord,
    campaign: ClaimedCampaign,
    reference: str | None,
) -> None:
    now = session.now()
    await repository.update_enrolment(
        session,
        enrolment["id"],
        state="reached",
        reached_at=now,
        reference=reference,
        updated_at=now,
    )
    await repository.set_pace(
        session, campaign["id"], now + timedelta(seconds=3600 / campaign["rate_per_hour"])
    )
    flow = (
        await automation(session, campaign["automation_id"]) if campaign["automation_id"] else None
    )
    run: AutomationRun = {
        "id": enrolment["id"],
        "automation_id": campaign["automation_id"],
        "automation_name": flow["name"] if flow else None,
        "campaign_id": campaign["id"],
        "contact_id": enrolment["contact_id"],
        "status": "reached",
        "steps": len(flow["steps"]) if flow else 0,
        "enrolled_at": isoformat(enrolment["created_at"]),
    }
    await emit(session, "automation.run", data=run)
    logs.event(
        log,
        "campaign contact reached",
        enrolment_id=enrolment["id"],
        campaign_id=campaign["id"],
        workspace_id=session.workspace_id,
        reference=reference,
    )
