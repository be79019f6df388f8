"""Campaign enrolment queries, through the TenantSession: enrolling, the campaign job's
reads and writes, the list of a campaign's contacts and its counts.

What a contact did after a campaign reached it is read, never stored: its first inbound
message, its first appointment booked and its first suppression (STOP, an unsubscribe)
created at or after `reached_at` (correlated subqueries on the indexes of messages by
contact, appointments by contact and suppressions by address)."""

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, func, or_, select

from homebase.automations.records import (
    CampaignCountRow,
    CampaignEnrolmentRecord,
    DncRegistrationRecord,
)
from homebase.db.tenancy import TenantSession
from homebase.kit.statements import AnySelect
from homebase.models import (
    Appointment,
    Campaign,
    CampaignEnrolment,
    Contact,
    DncRegistration,
    Message,
    Suppression,
)
from homebase.paging.listing import Listing

campaigns = Campaign.__table__
enrolments = CampaignEnrolment.__table__
contacts = Contact.__table__
messages = Message.__table__
appointments = Appointment.__table__
suppressions = Suppression.__table__
dnc = DncRegistration.__table__
RECENT = timedelta(hours=24)  # a conversation this recent keeps a campaign away


def _first(column: Any, *where: ColumnElement[bool]) -> Any:
    """The earliest `column` of the rows matching `where`, as a correlated subquery."""
    return select(func.min(column)).where(*where).correlate(enrolments).scalar_subquery()


def replied_at() -> Any:
    return _first(
        messages.c.created_at,
        messages.c.workspace_id == enrolments.c.workspace_id,
        messages.c.contact_id == enrolments.c.contact_id,
        messages.c.direction == "INBOUND",
        messages.c.created_at >= enrolments.c.reached_at,
    )


def booked_at() -> Any:
    return _first(
        appointments.c.created_at,
        appointments.c.workspace_id == enrolments.c.workspace_id,
        appointments.c.contact_id == enrolments.c.contact_id,
        appointments.c.created_at >= enrolments.c.reached_at,
    )


def _address(column: Any) -> Any:
    return (
        select(column)
        .where(contacts.c.workspace_id == enrolments.c.workspace_id)
        .where(contacts.c.id == enrolments.c.contact_id)
        .correlate(enrolments)
        .scalar_subquery()
    )


def opted_out_at() -> Any:
    return _first(
        suppressions.c.created_at,
        suppressions.c.workspace_id == enrolments.c.workspace_id,
        or_(
            suppressions.c.address == _address(contacts.c.phone_e164),
            suppressions.c.address == _address(contacts.c.email_lower),
        ),
        suppressions.c.created_at >= enrolments.c.reached_at,
    )


def contacts_listing(session: TenantSession, campaign_id: str) -> Listing[Any]:
    """GET /v1/campaigns/{id}/contacts: newest enrolment first, each with what the
    contact did after the reach (CampaignContactRow)."""
    statement = session.select(
        enrolments,
        *(column for column in enrolments.c if column.key != "workspace_id"),
        replied_at().label("replied_at"),
        booked_at().label("booked_at"),
        opted_out_at().label("opted_out_at"),
    ).where(enrolments.c.campaign_id == campaign_id)
    return Listing.newest(statement, enrolments)


async def counts(session: TenantSession, campaign_id: str) -> list[CampaignCountRow]:
    """The campaign's enrolments counted by state and skip reason, with how many of
    each replied, booked and opted out after the reach."""
    statement = (
        session.select(
            enrolments,
            enrolments.c.state,
            enrolments.c.skip_reason,
            func.count().label("total"),
            func.count(replied_at()).label("replied"),
            func.count(booked_at()).label("booked"),
            func.count(opted_out_at()).label("opted_out"),
        )
        .where(enrolments.c.campaign_id == campaign_id)
        .group_by(enrolments.c.state, enrolments.c.skip_reason)
    )
    return cast("list[CampaignCountRow]", await session.fetch_all(statement))


async def contacts_named(
    session: TenantSession, contact_ids: Collection[str]
) -> dict[str, datetime | None]:
    """Each of `contact_ids` that is this workspace's, by when it was erased (None: not)."""
    rows = await session.fetch_all(
        session.select(contacts, contacts.c.id, contacts.c.anonymized_at).where(
            contacts.c.id.in_(list(contact_ids))
        )
    )
    return {row["id"]: row["anonymized_at"] for row in rows}


async def enrolled_among(
    session: TenantSession, campaign_id: str, contact_ids: Collection[str]
) -> set[str]:
    rows = await session.fetch_all(
        session.select(enrolments, enrolments.c.contact_id).where(
            enrolments.c.campaign_id == campaign_id,
            enrolments.c.contact_id.in_(list(contact_ids)),
        )
    )
    return {row["contact_id"] for row in rows}


async def insert_if_absent(session: TenantSession, row: CampaignEnrolmentRecord) -> bool:
    """True when inserted; False when the contact is already enrolled (the unique index
    decides, so concurrent enrols of one contact make one enrolment)."""
    return await session.insert_if_absent(
        enrolments, row, conflict=["workspace_id", "campaign_id", "contact_id"]
    )


def due_enrolments(session: TenantSession, campaign_id: str, now: datetime) -> AnySelect:
    return (
        session.select(enrolments)
        .where(
            enrolments.c.campaign_id == campaign_id,
            enrolments.c.state == "pending",
            enrolments.c.due_at <= now,
        )
        .order_by(enrolments.c.due_at, enrolments.c.id)
    )


async def pending(
    session: TenantSession, campaign_id: str, now: datetime, limit: int
) -> list[CampaignEnrolmentRecord]:
    rows = await session.fetch_all(due_enrolments(session, campaign_id, now).limit(limit))
    return cast("list[CampaignEnrolmentRecord]", rows)


async def goal_of_enrolment(session: TenantSession, enrolment_id: str) -> str | None:
    """The goal of the campaign the enrolment belongs to (the AI's text is about it)."""
    goal = await _of_campaign(session, enrolment_id, campaigns.c.goal)
    return str(goal) if goal else None


async def channel_of_enrolment(session: TenantSession, enrolment_id: str) -> str | None:
    """The channel of the campaign the enrolment belongs to (text, call, text_then_call)."""
    channel = await _of_campaign(session, enrolment_id, campaigns.c.channel)
    return str(channel) if channel is not None else None


async def _of_campaign(session: TenantSession, enrolment_id: str, column: Any) -> Any:
    row = await session.fetch_one(
        session.select(campaigns, column)
        .join(enrolments, enrolments.c.campaign_id == campaigns.c.id)
        .where(enrolments.c.id == enrolment_id)
    )
    return row[column.name] if row is not None else None


async def not_reached(session: TenantSession, enrolment_id: str, reason: str) -> None:
    """A reached enrolment whose text was given up before it went out: skipped, `reason`
    a CampaignSkipReason value (campaign_rules.skip_for_outcome)."""
    now = session.now()
    await session.execute(
        session.update(enrolments)
        .where(enrolments.c.id == enrolment_id, enrolments.c.state == "reached")
        .values(
            state="skipped", skip_reason=reason, reached_at=None, skipped_at=now, updated_at=now
        )
    )


async def update_enrolment(session: TenantSession, enrolment_id: str, **values: Any) -> None:
    # `values`: columns of campaign_enrolments (state, skip_reason, times, reference)
    await session.execute(
        session.update(enrolments).where(enrolments.c.id == enrolment_id).values(**values)
    )


async def set_pace(session: TenantSession, campaign_id: str, next_reach_at: datetime) -> None:
    await session.execute(
        session.update(campaigns)
        .where(campaigns.c.id == campaign_id)
        .values(next_reach_at=next_reach_at)
    )


async def conversation_since(
    session: TenantSession, contact_id: str, phone: str | None, since: datetime
) -> bool:
    """A message to or from the contact (by its id, or its number) created after `since`."""
    who = messages.c.contact_id == contact_id
    if phone:
        who = or_(who, messages.c.counterpart == phone)
    row = await session.fetch_one(
        session.select(messages, messages.c.id).where(who, messages.c.created_at > since).limit(1)
    )
    return row is not None


async def dnc_registration(session: TenantSession, phone: str) -> DncRegistrationRecord | None:
    row = await session.fetch_one(
        session.select(dnc, dnc.c.id, dnc.c.phone_e164, dnc.c.registered_at, dnc.c.loaded_at).where(
            dnc.c.phone_e164 == phone
        )
    )
    return cast("DncRegistrationRecord | None", row)


async def upsert_dnc(session: TenantSession, row: DncRegistrationRecord) -> None:
    """A number loaded again takes the extract's newest registration date."""
    await session.upsert(
        dnc,
        row,
        conflict=["workspace_id", "phone_e164"],
        set_={"registered_at": row["registered_at"], "loaded_at": row["loaded_at"]},
    )


async def skip_pending_of_contact(session: TenantSession, contact_id: str, now: datetime) -> None:
    """An erased contact's pending enrolments, in every campaign: skipped (erased)."""
    await session.execute(
        session.update(enrolments)
        .where(enrolments.c.contact_id == contact_id, enrolments.c.state == "pending")
        .values(state="skipped", skip_reason="erased", skipped_at=now, updated_at=now)
    )
