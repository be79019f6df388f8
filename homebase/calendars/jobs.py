"""The calendar push job: PUTs queued appointments to CalDAV calendars after commit.

A booking or a move writes a pending calendar_pushes row in the request's transaction
(service.enqueue_push); nothing in the request waits for the calendar. Each round the
worker claims due rows with a lease on the leased queue (worker/queue.py: concurrent
workers never claim the same row), PUTs them concurrently outside any transaction, and
records each outcome only while its lease token still holds. A failure is retried
after 1, 2, 4, ... backoff units; after the last attempt the row is failed. A worker
that dies mid-push leaves its lease to expire and the row is claimed again, no sweep
needed (a PUT of the same UID is idempotent, so a repeat is harmless).
"""

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import ColumnElement, and_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.calendars import ical
from homebase.calendars.service import open_credentials
from homebase.config import Settings
from homebase.kit import logs
from homebase.kit.sealed import SealBroken
from homebase.models import Appointment, CalendarPush, MemberCalendar
from homebase.runtime import Runtime
from homebase.worker import queue

log = logging.getLogger("homebase.calendars")

pushes = CalendarPush.__table__
appointments = Appointment.__table__
calendars = MemberCalendar.__table__
MAX_ERROR_LENGTH = 500
UNREADABLE = (
    "the calendar's credentials cannot be decrypted (HOMEBASE_SECRET_KEY "
    "changed?); connect the calendar again"
)
LEASE = queue.Lease(
    pushes,
    token=pushes.c.lease_token,
    expires=pushes.c.lease_expires_at,
    attempts=pushes.c.attempts,
)


@dataclass(frozen=True)
class Claim:
    push_id: str
    workspace_id: str
    lease_token: str
    revision: int
    attempts: int  # including this one
    calendar_id: str
    url: str
    credentials_sealed: str
    appointment: dict[str, Any]


@dataclass(frozen=True)
class PushResult:
    succeeded: bool
    status_code: int | None = None
    error: str | None = None
    permanent: bool = False  # retrying cannot help


def lease_seconds(settings: Settings) -> float:
    # Never shorter than an attempt can take, or a live push would lose its lease.
    return max(settings.calendar_push_lease_seconds, settings.calendar_push_timeout_seconds + 5)


def _due(now: datetime) -> ColumnElement[bool]:
    # An expired lease is vacant: its worker died, and the row is simply claimed again.
    return and_(pushes.c.status == "pending", pushes.c.next_attempt_at <= now, LEASE.vacant(now))


async def work_waiting(connection: AsyncConnection, now: datetime) -> bool:
    """Read-only, so an idle worker never takes SQLite's write lock to find nothing."""
    return (
        await connection.execute(select(pushes.c.id).where(_due(now)).limit(1))
    ).first() is not None


_APPOINTMENT_COLUMNS = (
    "id",
    "title",
    "location",
    "notes",
    "starts_at",
    "ends_at",
    "outcome",
    "created_at",
    "updated_at",
)


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    now = runtime.clock()
    lease_until = now + timedelta(seconds=lease_seconds(runtime.settings))
    async with runtime.db.transaction() as connection:
        due = await queue.take(
            connection,
            select(pushes.c.id)
            .where(_due(now))
            .order_by(pushes.c.next_attempt_at, pushes.c.id)
            .limit(limit),
        )
        tokens = await LEASE.grant(
            connection, [row["id"] for row in due], lease_until, updated_at=now
        )
        if not tokens:
            return []
        rows = (
            (
                await connection.execute(
                    select(
                        pushes.c.id,
                        pushes.c.workspace_id,
                        pushes.c.revision,
                        pushes.c.attempts,
                        pushes.c.calendar_id,
                        calendars.c.url,
                        calendars.c.credentials_sealed,
                        *(appointments.c[name].label(f"a_{name}") for name in _APPOINTMENT_COLUMNS),
                    )
                    .join(calendars, calendars.c.id == pushes.c.calendar_id)
                    .join(appointments, appointments.c.id == pushes.c.appointment_id)
                    .where(pushes.c.id.in_(list(tokens)))
                )
            )
            .mappings()
            .all()
        )
    return [
        Claim(
            push_id=row["id"],
            workspace_id=row["workspace_id"],
            lease_token=tokens[row["id"]],
            revision=row["revision"],
            attempts=row["attempts"],
            calendar_id=row["calendar_id"],
            url=row["url"],
            credentials_sealed=row["credentials_sealed"],
            appointment={name: row[f"a_{name}"] for name in _APPOINTMENT_COLUMNS},
        )
        for row in rows
    ]


def event_url(claimed: Claim) -> str:
    return f"{claimed.url}{ical.uid(claimed.appointment['id'])}.ics"


async def push_one(runtime: Runtime, claimed: Claim, client: httpx.AsyncClient) -> PushResult:
    try:
        credentials = open_credentials(
            runtime.settings.keys, claimed.calendar_id, sealed=claimed.credentials_sealed
        )
    except SealBroken:
        return PushResult(succeeded=False, error=UNREADABLE, permanent=True)
    body = ical.calendar_object(claimed.appointment, sequence=claimed.revision, now=runtime.clock())
    try:
        response = await client.put(
            event_url(claimed),
            content=body,
            auth=httpx.BasicAuth(credentials.username, credentials.password),
            headers={"Content-Type": "text/calendar; charset=utf-8"},
        )
    except httpx.HTTPError as error:
        return PushResult(
            succeeded=False, error=f"{type(error).__name__}: {error}"[:MAX_ERROR_LENGTH]
        )
    if 200 <= response.status_code < 300:
        return PushResult(succeeded=True, status_code=response.status_code)
    return PushResult(
        succeeded=False,
        status_code=response.status_code,
        error=f"the calendar answered HTTP {response.status_code}",
    )


def _outcome(
    claimed: Claim, result: PushResult, now: datetime, settings: Settings
) -> dict[str, Any]:
    recorded = {
        "last_status_code": result.status_code,
        "last_error": result.error,
        "updated_at": now,
    }
    if result.succeeded:
        return {**recorded, "status": "succeeded", "completed_at": now, "next_attempt_at": None}
    if result.permanent or claimed.attempts >= settings.calendar_push_max_attempts:
        return {**recorded, "status": "failed", "completed_at": now, "next_attempt_at": None}
    return {
        **recorded,
        "status": "pending",
        "next_attempt_at": now
        + queue.backoff(claimed.attempts, settings.calendar_push_backoff_unit_seconds),
    }


async def record(runtime: Runtime, outcomes: list[tuple[Claim, PushResult]]) -> None:
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        for claimed, result in outcomes:
            fenced = LEASE.held(
                update(pushes).where(pushes.c.id == claimed.push_id), claimed.lease_token
            )
            done = await connection.execute(
                fenced.where(pushes.c.revision == claimed.revision).values(
                    **_outcome(claimed, result, now, runtime.settings), **LEASE.released
                )
            )
            if done.rowcount == 0:
                # The appointment changed while this push was in flight: the newer
                # revision is already pending and due; just give the lease back.
                await connection.execute(fenced.values(**LEASE.released, updated_at=now))


async def push_due(runtime: Runtime) -> int:
    claims = await claim(runtime, runtime.settings.calendar_push_batch)
    if not claims:
        return 0
    timeout = httpx.Timeout(runtime.settings.calendar_push_timeout_seconds)
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
        results = await asyncio.gather(*(push_one(runtime, claimed, client) for claimed in claims))
    await record(runtime, list(zip(claims, results, strict=True)))
    for claimed, result in zip(claims, results, strict=True):
        logs.event(
            log,
            "calendar push",
            level=logging.INFO if result.succeeded else logging.WARNING,
            push_id=claimed.push_id,
            workspace_id=claimed.workspace_id,
            calendar_id=claimed.calendar_id,
            appointment_id=claimed.appointment.get("id"),
            attempt=claimed.attempts,
            outcome="succeeded" if result.succeeded else "failed",
            status_code=result.status_code,
            permanent=result.permanent,
        )
    return len(claims)


async def run(runtime: Runtime) -> int:
    async with runtime.db.transaction(write=False) as connection:
        if not await work_waiting(connection, runtime.clock()):
            return 0
    return await push_due(runtime)
