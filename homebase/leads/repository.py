"""Lead queries. Every statement starts from the TenantSession."""

from datetime import datetime
from typing import Any

from sqlalchemy import or_
from sqlalchemy.sql import Select

from homebase.db.tenancy import TenantSession
from homebase.kit.pagination import keyset
from homebase.leads.schemas import LeadFilters
from homebase.models import Contact, Lead

leads = Lead.__table__
contacts = Contact.__table__
_MATCH_BATCH = 10


async def get(session: TenantSession, lead_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(leads).where(leads.c.id == lead_id))


async def insert(session: TenantSession, row: dict[str, Any]) -> None:
    await session.insert(leads, row)


async def update(session: TenantSession, lead_id: str, values: dict[str, Any]) -> None:
    await session.execute(session.update(leads).where(leads.c.id == lead_id).values(**values))


def list_statement(session: TenantSession, filters: LeadFilters, *, after_id: str | None,
                   limit: int) -> Select:
    statement = session.select(leads)
    if filters.contact_id is not None:
        statement = statement.where(leads.c.contact_id == filters.contact_id)
    if filters.unlinked_only == "true":
        statement = statement.where(leads.c.contact_id.is_(None))
    return keyset(statement, leads.c.id, after_id, limit)


async def matching_contact(session: TenantSession, phone_e164: str | None,
                           email_lower: str | None) -> dict[str, Any] | None:
    """The contact a lead belongs to: one with the same E.164 number, else one with the
    same email. Anonymized contacts have neither, so they never match. No ORDER BY: a
    number shared by many contacts must not cost a sort (any of them is a valid link).
    Usually one query; a second only when many contacts share the email."""
    conditions = [column == value for column, value in ((contacts.c.phone_e164, phone_e164),
                                                        (contacts.c.email_lower, email_lower))
                  if value]
    if not conditions:
        return None
    rows = await session.fetch_all(session.select(contacts).where(or_(*conditions))
                                   .limit(_MATCH_BATCH))
    by_phone = [row for row in rows if phone_e164 and row["phone_e164"] == phone_e164]
    if by_phone or len(rows) < _MATCH_BATCH or not phone_e164:
        return (by_phone or rows or [None])[0]
    return await session.fetch_one(session.select(contacts)
                                   .where(contacts.c.phone_e164 == phone_e164).limit(1)) \
        or rows[0]


async def attach_consent(session: TenantSession, phone_e164: str, consent_id: str,
                         expires_at: datetime) -> None:
    """Consent captured for a number now covers the earlier leads of that number too."""
    await session.execute(
        session.update(leads)
        .where(leads.c.phone_e164 == phone_e164,
               or_(leads.c.consent_expires_at.is_(None), leads.c.consent_expires_at < expires_at))
        .values(consent_id=consent_id, consent_expires_at=expires_at))
