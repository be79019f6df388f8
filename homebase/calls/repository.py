"""Call queries. Every statement starts from the TenantSession."""

from collections.abc import Collection
from typing import cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.calls.records import CallRecord
from homebase.calls.schemas import CallDirection, CallFilters
from homebase.db.tenancy import TenantSession
from homebase.models import Call, Contact, SenderNumber, Workspace
from homebase.paging.listing import Listing

calls = Call.__table__
contacts = Contact.__table__
sender_numbers = SenderNumber.__table__
workspaces = Workspace.__table__


async def get(session: TenantSession, call_id: str) -> CallRecord | None:
    row = await session.fetch_one(session.select(calls).where(calls.c.id == call_id))
    return cast("CallRecord | None", row)


async def get_by_provider_id(session: TenantSession, provider_call_id: str) -> CallRecord | None:
    row = await session.fetch_one(
        session.select(calls).where(calls.c.provider_call_id == provider_call_id)
    )
    return cast("CallRecord | None", row)


def listing(session: TenantSession, filters: CallFilters) -> Listing[CallRecord]:
    """GET /v1/calls: newest first."""
    statement = session.select(calls)
    if filters.contact_id is not None:
        statement = statement.where(calls.c.contact_id == filters.contact_id)
    if filters.direction is not None:
        statement = statement.where(calls.c.direction == filters.direction.value)
    if filters.handled_by is not None:
        statement = statement.where(calls.c.handled_by == filters.handled_by.value)
    if filters.disposition is not None:
        statement = statement.where(calls.c.disposition == filters.disposition)
    if filters.started_after is not None:
        statement = statement.where(calls.c.started_at >= filters.started_after)
    if filters.started_before is not None:
        statement = statement.where(calls.c.started_at < filters.started_before)
    return Listing.newest(statement, calls)


async def recorded_among(session: TenantSession, call_ids: Collection[str]) -> set[str]:
    """Which of `call_ids` have a recording (one query; a page of a contact's timeline
    names its calls by id)."""
    if not call_ids:
        return set()
    rows = await session.fetch_all(
        session.select(calls, calls.c.id).where(
            calls.c.id.in_(sorted(call_ids)), calls.c.recording_key.is_not(None)
        )
    )
    return {row["id"] for row in rows}


async def insert(session: TenantSession, values: CallRecord) -> None:
    await session.insert(calls, values)


async def contact_by_phone(session: TenantSession, e164: str) -> str | None:
    """The newest live contact with this number."""
    row = await session.fetch_one(
        session.select(contacts, contacts.c.id)
        .where(contacts.c.phone_e164 == e164, contacts.c.anonymized_at.is_(None))
        .order_by(contacts.c.id.desc())
        .limit(1)
    )
    return row["id"] if row else None


async def scrub_for_contact(session: TenantSession, contact_id: str) -> None:
    """Transcript, summary, the recording and the other party's number go; the call stays."""
    for direction, number in (
        (CallDirection.inbound, "from_number"),
        (CallDirection.outbound, "to_number"),
    ):
        await session.execute(
            session.update(calls)
            .where(calls.c.contact_id == contact_id, calls.c.direction == direction.value)
            .values(transcript=None, summary=None, recording_key=None, **{number: None})
        )


# Workspace resolution for provider callbacks happens before there is a tenant, so these
# two read across workspaces on purpose; everything after uses a TenantSession.
async def workspaces_owning(connection: AsyncConnection, e164: str) -> list[str]:
    rows = await connection.execute(
        select(sender_numbers.c.workspace_id).distinct().where(sender_numbers.c.number == e164)
    )
    return [row[0] for row in rows]


async def workspace_exists(connection: AsyncConnection, workspace_id: str) -> bool:
    row = await connection.execute(select(workspaces.c.id).where(workspaces.c.id == workspace_id))
    return row.first() is not None
