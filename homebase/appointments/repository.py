"""Appointment queries. Every statement starts from the TenantSession."""

from datetime import datetime
from typing import cast

from sqlalchemy import ColumnElement

from homebase.appointments.records import AppointmentChanges, AppointmentRecord
from homebase.appointments.schemas import AppointmentFilters, AppointmentStatus
from homebase.db.tenancy import TenantSession
from homebase.kit.statements import AnySelect
from homebase.models import Appointment
from homebase.paging.listing import Listing

appointments = Appointment.__table__


async def get(session: TenantSession, appointment_id: str) -> AppointmentRecord | None:
    row = await session.fetch_one(
        session.select(appointments).where(appointments.c.id == appointment_id)
    )
    return cast("AppointmentRecord | None", row)


def _status_condition(status: AppointmentStatus) -> ColumnElement[bool]:
    outcome = appointments.c.outcome
    if status == AppointmentStatus.scheduled:
        return outcome.is_(None)
    if status == AppointmentStatus.cancelled:
        return outcome == "cancelled"
    return outcome.in_(["showed", "no_show"])


def filtered(session: TenantSession, filters: AppointmentFilters) -> AnySelect:
    """The list's select with its filters (updated_after aside: paging/changes.py)."""
    statement = session.select(appointments)
    for name in ("contact_id", "created_by", "assignee_id"):
        value = getattr(filters, name)
        if value is not None:
            statement = statement.where(appointments.c[name] == value)
    if filters.outcome is not None:
        statement = statement.where(appointments.c.outcome == filters.outcome.value)
    if filters.status is not None:
        statement = statement.where(_status_condition(filters.status))
    if filters.starts_after is not None:
        statement = statement.where(appointments.c.starts_at >= filters.starts_after)
    if filters.starts_before is not None:
        statement = statement.where(appointments.c.starts_at < filters.starts_before)
    return statement


def listing(session: TenantSession, filters: AppointmentFilters) -> Listing[AppointmentRecord]:
    """GET /v1/appointments: newest first, and its `updated_after` walk (paging/listing.py)."""
    return Listing.synced(filtered(session, filters), appointments, session.dialect)


async def insert(session: TenantSession, values: AppointmentRecord) -> None:
    await session.insert(appointments, values)


async def update(session: TenantSession, appointment_id: str, values: AppointmentChanges) -> None:
    await session.execute(
        session.update(appointments).where(appointments.c.id == appointment_id).values(**values)
    )


async def for_contact(session: TenantSession, contact_id: str) -> list[AppointmentRecord]:
    rows = await session.fetch_all(
        session.select(appointments).where(appointments.c.contact_id == contact_id)
    )
    return cast("list[AppointmentRecord]", rows)


async def scrub_for_contact(
    session: TenantSession, contact_id: str, redacted: str, now: datetime
) -> None:
    await session.execute(
        session.update(appointments)
        .where(appointments.c.contact_id == contact_id)
        .values(title=redacted, location=None, notes=None, updated_at=now)
    )
