"""A queue of the leased-queue kind (homebase/worker/queue.py) on a table of the tests' own,
so its guarantees are held apart from any domain's rules: claimed the way calendar pushes
are (an expired lease is claimable again), completed under the fence, swept the way
webhook deliveries and sends are. The table is created and dropped by the test fixture
(tests/worker/test_leased_queue.py), and a worker subprocess imports this module to claim from it.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import Column, Integer, MetaData, String, Table, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.db.types import UTCDateTime
from homebase.worker import queue

LEASE_SECONDS = 60
jobs = Table(
    "leased_queue_test_jobs",
    MetaData(),
    Column("id", String(40), primary_key=True),
    Column("status", String(16), nullable=False),  # pending | done | abandoned
    Column("next_attempt_at", UTCDateTime),
    Column("attempts", Integer, nullable=False),
    Column("lease_token", String(40)),
    Column("lease_expires_at", UTCDateTime),
    Column("outcome", String(40)),
)
LEASE = queue.Lease(
    jobs, token=jobs.c.lease_token, expires=jobs.c.lease_expires_at, attempts=jobs.c.attempts
)


async def add(connection: AsyncConnection, ids: Sequence[str], due: datetime) -> None:
    await connection.execute(
        insert(jobs),
        [
            {"id": job_id, "status": "pending", "next_attempt_at": due, "attempts": 0}
            for job_id in ids
        ],
    )


async def claim(connection: AsyncConnection, now: datetime, limit: int) -> dict[str, str]:
    """Due rows, leased for LEASE_SECONDS: {id: token}."""
    claimed = await LEASE.claim(
        connection,
        select(jobs.c.id)
        .where(jobs.c.status == "pending", jobs.c.next_attempt_at <= now, LEASE.vacant(now))
        .order_by(jobs.c.id)
        .limit(limit),
        now + timedelta(seconds=LEASE_SECONDS),
    )
    return {row["id"]: token for row, token in claimed}


async def complete(connection: AsyncConnection, job_id: str, token: str, outcome: str) -> bool:
    """A holder's result; False (and nothing written) when `token` no longer holds."""
    done = await connection.execute(
        LEASE.held(update(jobs).where(jobs.c.id == job_id), token).values(
            status="done", outcome=outcome, **LEASE.released
        )
    )
    return done.rowcount == 1


async def sweep(connection: AsyncConnection, now: datetime) -> list[str]:
    """Takes back pending rows whose lease expired; the ids taken back."""
    lapsed = await LEASE.lapsed(
        connection, now, jobs.c.status == "pending", columns=(jobs.c.id, jobs.c.lease_token)
    )
    for row in lapsed:
        await connection.execute(
            LEASE.held(update(jobs).where(jobs.c.id == row["id"]), row["lease_token"]).values(
                status="abandoned", **LEASE.released
            )
        )
    return [row["id"] for row in lapsed]


async def row(connection: AsyncConnection, job_id: str) -> dict:
    return dict(
        (await connection.execute(select(jobs).where(jobs.c.id == job_id))).mappings().one()
    )
