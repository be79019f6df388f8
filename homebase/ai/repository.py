"""Queries of the AI responder: its jobs, its persona, and what a reply is built from."""

from datetime import datetime
from typing import Any

from sqlalchemy import func, text

from homebase.db.tenancy import TenantSession
from homebase.models import AiJob, Lead, Listing, Message, Persona
from homebase.models.ai_job import OPEN_WHERE

jobs = AiJob.__table__
personas = Persona.__table__
messages = Message.__table__
leads = Lead.__table__
listings = Listing.__table__

OPEN = ("queued", "composing")
# What "an AI reply" is when counting them (the daily cap, the disclosure's 30 days):
# a message an AI job sent or is sending, never a refused one.
_NOT_REFUSED = ("QUEUED", "SENDING", "SENT", "DELIVERED")


async def responder(session: TenantSession) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(personas).where(personas.c.responder.is_(True)))


async def persona(session: TenantSession, persona_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(personas).where(personas.c.id == persona_id))


async def open_job(session: TenantSession, contact_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(
        session.select(jobs).where(jobs.c.contact_id == contact_id, jobs.c.status.in_(OPEN))
    )


async def add_inbound(
    session: TenantSession, contact_id: str, message_id: str, at: datetime
) -> bool:
    """One more text for the contact's open job; False when it has none."""
    return bool(
        await session.execute(
            session.update(jobs)
            .where(jobs.c.contact_id == contact_id, jobs.c.status.in_(OPEN))
            .values(
                inbound_count=jobs.c.inbound_count + 1,
                last_inbound_id=message_id,
                last_inbound_at=at,
                updated_at=at,
            )
        )
    )


async def insert_open(session: TenantSession, row: dict[str, Any]) -> bool:
    """The contact's one open job (a partial unique index); False when another text's
    transaction opened it first."""
    return await session.insert_if_absent(
        jobs, row, conflict=("workspace_id", "contact_id"), index_where=text(OPEN_WHERE)
    )


async def get(session: TenantSession, job_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(jobs).where(jobs.c.id == job_id))


async def conversation(session: TenantSession, contact_id: str, limit: int) -> list[dict[str, Any]]:
    """The contact's last `limit` texts (SMS and WhatsApp, both ways, refused sends left
    out), oldest first."""
    rows = await session.fetch_all(
        session.select(
            messages,
            messages.c.direction,
            messages.c.body,
            messages.c.ai_generated,
            messages.c.ai_job_id,
            messages.c.status,
        )
        .where(
            messages.c.contact_id == contact_id,
            messages.c.channel.in_(("SMS", "WHATSAPP")),
            messages.c.status != "FAILED",
        )
        .order_by(messages.c.id.desc())
        .limit(limit)
    )
    return list(reversed(rows))


async def latest_lead(session: TenantSession, contact_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(
        session.select(leads, leads.c.source, leads.c.context)
        .where(leads.c.contact_id == contact_id)
        .order_by(leads.c.id.desc())
        .limit(1)
    )


async def active_listings(session: TenantSession, limit: int) -> list[dict[str, Any]]:
    return await session.fetch_all(
        session.select(listings)
        .where(listings.c.status == "active")
        .order_by(listings.c.id.desc())
        .limit(limit)
    )


async def listing_urls(session: TenantSession) -> list[str]:
    rows = await session.fetch_all(
        session.select(listings, listings.c.url).where(listings.c.url.is_not(None))
    )
    return [row["url"] for row in rows]


async def ai_replies_since(session: TenantSession, contact_id: str, since: datetime) -> int:
    row = await session.fetch_one(
        session.select(messages, func.count().label("count")).where(
            messages.c.contact_id == contact_id,
            messages.c.ai_job_id.is_not(None),
            messages.c.direction == "OUTBOUND",
            messages.c.status.in_(_NOT_REFUSED),
            messages.c.created_at > since,
        )
    )
    return int(row["count"]) if row else 0


async def update(session: TenantSession, job_id: str, values: dict[str, Any]) -> int:
    return await session.execute(session.update(jobs).where(jobs.c.id == job_id).values(**values))


async def end_open_jobs(
    session: TenantSession, contact_id: str, outcome: str, now: datetime
) -> None:
    await session.execute(
        session.update(jobs)
        .where(jobs.c.contact_id == contact_id, jobs.c.status.in_(OPEN))
        .values(status="skipped", outcome=outcome, updated_at=now, lease_token=None)
    )
