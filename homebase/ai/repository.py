"""Queries of the AI responder: its jobs, its persona, and what a reply is built from."""

from datetime import datetime
from typing import cast

from sqlalchemy import BindParameter, bindparam, exists, func, or_, select, text

from homebase.ai.records import (
    ActionRecord,
    AiJobChanges,
    AiJobRecord,
    LatestLead,
    ListingFactsRow,
    Readiness,
    ShowingRow,
    Text,
    Unanswered,
)
from homebase.automations.records import PersonaRecord
from homebase.db.tenancy import WORKSPACE, TenantSession, tenant_select, tenant_update
from homebase.models import (
    AiAction,
    AiJob,
    Appointment,
    ConsentArtifact,
    Lead,
    Listing,
    Message,
    Persona,
    Suppression,
    Workspace,
)
from homebase.models.ai_job import OPEN_WHERE

jobs = AiJob.__table__
personas = Persona.__table__
messages = Message.__table__
leads = Lead.__table__
listings = Listing.__table__
appointments = Appointment.__table__
actions = AiAction.__table__

suppressions = Suppression.__table__
artifacts = ConsentArtifact.__table__
workspaces = Workspace.__table__

OPEN = ("queued", "composing")
TEXT_CHANNELS = ("SMS", "WHATSAPP")  # the channels of a conversation the AI answers
# What "an AI reply" is when counting them (the daily cap, the disclosure's 30 days):
# a message an AI job sent or is sending, never a refused one.
_NOT_REFUSED = ("QUEUED", "SENDING", "SENT", "DELIVERED")


# Whether the AI may answer a text, in one round trip: the responder persona (the row
# exists only when the workspace has one), the workspace's status, and whether the
# number is suppressed or holds valid consent (the gates' own conditions:
# messaging/repository.active_suppression, consent/service.valid_consent). Every part is
# filtered by the session's workspace (the WORKSPACE bindparam only a TenantSession
# fills). Built once: the inbound callback runs it for every text from a contact.
_own: BindParameter[str] = bindparam(WORKSPACE)
_ADDRESS: BindParameter[str] = bindparam("address")
_NOW: BindParameter[datetime] = bindparam("now")
READINESS = tenant_select(
    personas,
    personas.c.id,
    personas.c.channels,
    select(workspaces.c.status).where(workspaces.c.id == _own).scalar_subquery().label("status"),
    exists()
    .where(
        suppressions.c.workspace_id == _own,
        suppressions.c.address == _ADDRESS,
        suppressions.c.lifted_at.is_(None),
    )
    .label("suppressed"),
    exists()
    .where(
        artifacts.c.workspace_id == _own,
        artifacts.c.phone_e164 == _ADDRESS,
        artifacts.c.expires_at > _NOW,
        artifacts.c.revoked_at.is_(None),
    )
    .label("consented"),
).where(personas.c.responder.is_(True))


async def readiness(session: TenantSession, address: str) -> Readiness | None:
    """The responder's id and channels with the workspace's status and the number's
    suppression and consent; None when the workspace has no responder."""
    row = await session.fetch_one(READINESS, {"address": address, "now": session.now()})
    return cast("Readiness | None", row)


async def persona(session: TenantSession, persona_id: str) -> PersonaRecord | None:
    row = await session.fetch_one(session.select(personas).where(personas.c.id == persona_id))
    return cast("PersonaRecord | None", row)


# A text for the contact's job while it is being composed: counted (taking the row's
# lock), so that compose's reply is not sent and it composes again with every text.
_ADD_INBOUND = (
    tenant_update(jobs)
    .where(jobs.c.contact_id == bindparam("contact"), jobs.c.status == "composing")
    .values(
        inbound_count=jobs.c.inbound_count + 1,
        last_inbound_id=bindparam("message"),
        last_inbound_at=bindparam("at"),
        updated_at=bindparam("at"),
    )
    .returning(jobs.c.id)
)
# A text for a queued job changes nothing: its compose has not read the conversation yet.
# The row is share-locked on PostgreSQL (FOR SHARE; SQLite runs one writer at a time), so
# texts arriving together never wait for each other, while a claim (which skips locked
# rows) cannot start composing before they commit and so reads them all.
_QUEUED_JOB = (
    tenant_select(jobs, jobs.c.id)
    .where(jobs.c.contact_id == bindparam("contact"), jobs.c.status == "queued")
    .with_for_update(read=True)
)


async def add_inbound(
    session: TenantSession, contact_id: str, message_id: str, at: datetime
) -> str | None:
    """Adds a text to the contact's open job: its id, or None when it has none (or it
    was claimed between the two statements: the caller tries again). Never a lock
    upgraded from shared to exclusive, so two texts cannot deadlock."""
    queued = await session.fetch_one(_QUEUED_JOB, {"contact": contact_id})
    if queued is not None:  # share-locked until this text commits
        return str(queued["id"])
    params = {"contact": contact_id, "message": message_id, "at": at}
    composing = await session.fetch_one(_ADD_INBOUND, params)
    return str(composing["id"]) if composing is not None else None


async def insert_open(session: TenantSession, row: AiJobRecord) -> bool:
    """The contact's one open job (a partial unique index); False when another text's
    transaction opened it first."""
    return await session.insert_if_absent(
        jobs, row, conflict=("workspace_id", "contact_id"), index_where=text(OPEN_WHERE)
    )


async def get(session: TenantSession, job_id: str) -> AiJobRecord | None:
    row = await session.fetch_one(session.select(jobs).where(jobs.c.id == job_id))
    return cast("AiJobRecord | None", row)


async def latest_inbound_at(session: TenantSession, contact_id: str) -> datetime | None:
    """When the contact's latest text (SMS or WhatsApp) arrived: the last of the texts
    their open job answers (it reads the conversation when it composes); None when none
    did."""
    row = await session.fetch_one(
        session.select(messages, messages.c.created_at)
        .where(
            messages.c.contact_id == contact_id,
            messages.c.channel.in_(TEXT_CHANNELS),
            messages.c.direction == "INBOUND",
        )
        .order_by(messages.c.id.desc())
        .limit(1)
    )
    return None if row is None else cast("datetime", row["created_at"])


async def conversation(session: TenantSession, contact_id: str, limit: int) -> list[Text]:
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
            messages.c.channel.in_(TEXT_CHANNELS),
            messages.c.status != "FAILED",
        )
        .order_by(messages.c.id.desc())
        .limit(limit)
    )
    return cast("list[Text]", list(reversed(rows)))


async def unanswered(
    session: TenantSession, contact_id: str, last_id: str, limit: int = 20
) -> list[Unanswered]:
    """The contact's texts up to `last_id` since the last message to them (at most
    `limit`), oldest first: what a reply to `last_id` answers."""
    rows = await session.fetch_all(
        session.select(messages, messages.c.id, messages.c.direction, messages.c.body)
        .where(
            messages.c.contact_id == contact_id,
            messages.c.channel.in_(TEXT_CHANNELS),
            messages.c.status != "FAILED",
            messages.c.id <= last_id,
        )
        .order_by(messages.c.id.desc())
        .limit(limit)
    )
    texts: list[Unanswered] = []
    for row in cast("list[Unanswered]", rows):
        if row["direction"] != "INBOUND":
            break
        texts.append(row)
    return list(reversed(texts))


async def latest_lead(session: TenantSession, contact_id: str) -> LatestLead | None:
    row = await session.fetch_one(
        session.select(leads, leads.c.source, leads.c.context)
        .where(leads.c.contact_id == contact_id)
        .order_by(leads.c.id.desc())
        .limit(1)
    )
    return cast("LatestLead | None", row)


_LISTING_FACTS = (
    listings.c.id,
    listings.c.address,
    listings.c.city,
    listings.c.status,
    listings.c.price_cents,
    listings.c.beds,
    listings.c.baths,
    listings.c.url,
)


async def active_listings(session: TenantSession, limit: int) -> list[ListingFactsRow]:
    rows = await session.fetch_all(
        session.select(listings, *_LISTING_FACTS)
        .where(listings.c.status == "active")
        .order_by(listings.c.id.desc())
        .limit(limit)
    )
    return cast("list[ListingFactsRow]", rows)


async def listing_urls(session: TenantSession) -> list[str]:
    rows = await session.fetch_all(
        session.select(listings, listings.c.url).where(listings.c.url.is_not(None))
    )
    return [row["url"] for row in rows]


async def listing_prices(session: TenantSession) -> list[int]:
    """Every stored listing price of the workspace, in cents."""
    rows = await session.fetch_all(
        session.select(listings, listings.c.price_cents).where(listings.c.price_cents.is_not(None))
    )
    return [int(row["price_cents"]) for row in rows]


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


async def update(session: TenantSession, job_id: str, values: AiJobChanges) -> int:
    return await session.execute(session.update(jobs).where(jobs.c.id == job_id).values(**values))


async def end_open_jobs(
    session: TenantSession, contact_id: str, outcome: str, now: datetime
) -> None:
    await session.execute(
        session.update(jobs)
        .where(jobs.c.contact_id == contact_id, jobs.c.status.in_(OPEN))
        .values(status="skipped", outcome=outcome, updated_at=now, lease_token=None)
    )


async def listing(session: TenantSession, listing_id: str) -> ListingFactsRow | None:
    row = await session.fetch_one(
        session.select(listings, *_LISTING_FACTS).where(listings.c.id == listing_id)
    )
    return cast("ListingFactsRow | None", row)


async def busy(
    session: TenantSession, member_id: str, since: datetime, until: datetime
) -> list[tuple[datetime, datetime, str]]:
    """The member's appointments (not cancelled) overlapping [since, until): start, end, id."""
    rows = await session.fetch_all(
        session.select(
            appointments, appointments.c.id, appointments.c.starts_at, appointments.c.ends_at
        ).where(
            appointments.c.assignee_id == member_id,
            or_(appointments.c.outcome.is_(None), appointments.c.outcome != "cancelled"),
            appointments.c.starts_at < until,
            appointments.c.ends_at > since,
        )
    )
    return [(row["starts_at"], row["ends_at"], row["id"]) for row in rows]


_SHOWING = (
    appointments.c.id,
    appointments.c.contact_id,
    appointments.c.title,
    appointments.c.starts_at,
    appointments.c.ends_at,
    appointments.c.outcome,
)


async def upcoming(session: TenantSession, contact_id: str, now: datetime) -> list[ShowingRow]:
    """The contact's scheduled appointments from now on, soonest first (at most 10)."""
    rows = await session.fetch_all(
        session.select(appointments, *_SHOWING)
        .where(
            appointments.c.contact_id == contact_id,
            appointments.c.outcome.is_(None),
            appointments.c.ends_at > now,
        )
        .order_by(appointments.c.starts_at)
        .limit(10)
    )
    return cast("list[ShowingRow]", rows)


async def appointment(session: TenantSession, appointment_id: str) -> ShowingRow | None:
    row = await session.fetch_one(
        session.select(appointments, *_SHOWING).where(appointments.c.id == appointment_id)
    )
    return cast("ShowingRow | None", row)


async def log_action(session: TenantSession, row: ActionRecord) -> None:
    await session.insert(actions, row)


async def actions_done(
    session: TenantSession, contact_id: str, limit: int = 20
) -> list[ActionRecord]:
    """The contact's latest actions the AI performed, oldest first."""
    rows = await session.fetch_all(
        session.select(actions)
        .where(actions.c.contact_id == contact_id, actions.c.outcome == "performed")
        .order_by(actions.c.id.desc())
        .limit(limit)
    )
    return cast("list[ActionRecord]", list(reversed(rows)))


async def previous_outcome(session: TenantSession, contact_id: str, job_id: str) -> str | None:
    """The outcome of the contact's job before `job_id` (None when there is none): two
    answers in a row with neither a reply nor a handoff hand the lead off (ai/jobs.py)."""
    row = await session.fetch_one(
        session.select(jobs, jobs.c.outcome)
        .where(jobs.c.contact_id == contact_id, jobs.c.id < job_id)
        .order_by(jobs.c.id.desc())
        .limit(1)
    )
    return None if row is None else row["outcome"]
