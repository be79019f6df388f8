"""Lead queries. Every statement starts from the TenantSession."""

from datetime import datetime
from typing import Any, cast

from sqlalchemy import bindparam

from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession, tenant_select, tenant_update
from homebase.kit.masking import mask_phone
from homebase.kit.statements import AnySelect
from homebase.leads.records import LeadChanges, LeadErasure, LeadRecord
from homebase.leads.schemas import LeadFilters
from homebase.models import Contact, Lead
from homebase.paging.listing import Listing

leads = Lead.__table__
contacts = Contact.__table__


async def get(session: TenantSession, lead_id: str) -> LeadRecord | None:
    row = await session.fetch_one(session.select(leads).where(leads.c.id == lead_id))
    return cast("LeadRecord | None", row)


async def insert(session: TenantSession, row: LeadRecord) -> None:
    await session.insert(leads, row)


async def update(session: TenantSession, lead_id: str, values: LeadChanges) -> None:
    await session.execute(session.update(leads).where(leads.c.id == lead_id).values(**values))


def filtered(session: TenantSession, filters: LeadFilters) -> AnySelect:
    """The list's select with its filters (updated_after aside: paging/changes.py)."""
    statement = session.select(leads)
    if filters.contact_id is not None:
        statement = statement.where(leads.c.contact_id == filters.contact_id)
    if filters.unlinked_only == "true":
        statement = statement.where(leads.c.contact_id.is_(None))
    return statement


def listing(session: TenantSession, filters: LeadFilters) -> Listing[LeadRecord]:
    """GET /v1/leads: newest first, and its `updated_after` walk (paging/listing.py)."""
    return Listing.synced(filtered(session, filters), leads, session.dialect)


_BY_PHONE = tenant_select(contacts).where(contacts.c.phone_e164 == bindparam("match")).limit(1)
_BY_EMAIL = tenant_select(contacts).where(contacts.c.email_lower == bindparam("match")).limit(1)


async def matching_contact(
    session: TenantSession, phone_e164: str | None, email_lower: str | None
) -> ContactRecord | None:
    """The contact a lead belongs to: one with the same E.164 number, else one with the
    same email. Anonymized contacts have neither, so they never match. Each lookup is one
    index seek with LIMIT 1 and no ORDER BY (any of several contacts sharing a number is
    a valid link): an OR of the two conditions made SQLite gather and de-duplicate every
    contact matching either before applying the LIMIT, which grew with the contacts
    sharing a number (docs/performance.md, "Search and lists at 1,000,000 contacts")."""
    if phone_e164:
        row = await session.fetch_one(_BY_PHONE, {"match": phone_e164})
        if row is not None:
            return cast("ContactRecord", row)
    if email_lower:
        return cast(
            "ContactRecord | None", await session.fetch_one(_BY_EMAIL, {"match": email_lower})
        )
    return None


# Consent captured for a number covers the earlier leads of that number with no consent
# and those whose consent ends sooner: two statements, each a seek on
# ix_leads_phone_consent (with `IS NULL OR <` in one WHERE, SQLite used only the index's
# first two columns and read every lead of the number; migration 0010). Their rows are
# disjoint, and the first moves none into the second's WHERE (NULL becomes the new
# expiry, not sooner than it).
_EXPIRES = bindparam("new_expires_at", type_=leads.c.consent_expires_at.type)
_CONSENT = {
    "consent_id": bindparam("new_consent_id"),
    "consent_expires_at": _EXPIRES,
    # A lead's consent is part of what it shows: the change is served to `updated_after`.
    "updated_at": bindparam("now", type_=leads.c.updated_at.type),
}
_ATTACH_CONSENT = tuple(
    tenant_update(leads).where(leads.c.phone_e164 == bindparam("b_phone"), sooner).values(_CONSENT)
    for sooner in (leads.c.consent_expires_at.is_(None), leads.c.consent_expires_at < _EXPIRES)
)


async def attach_consent(
    session: TenantSession, phone_e164: str, consent_id: str, expires_at: datetime
) -> None:
    """Consent captured for a number now covers the earlier leads of that number too."""
    params = {
        "b_phone": phone_e164,
        "new_consent_id": consent_id,
        "new_expires_at": expires_at,
        "now": session.now(),
    }
    no_consent, sooner = _ATTACH_CONSENT
    await session.execute(no_consent, params)
    await session.execute(sooner, params)


ROUTING_CONTEXT = ("zip", "city", "price", "tags", "stage", "office_id", "team_id")


async def lead_rows_of(session: TenantSession, contact_id: str) -> list[LeadErasure]:
    rows = await session.fetch_all(
        session.select(leads, leads.c.id, leads.c.phone, leads.c.context).where(
            leads.c.contact_id == contact_id
        )
    )
    return cast("list[LeadErasure]", rows)


async def erase(session: TenantSession, rows: list[LeadErasure]) -> None:
    """Leads of an erased contact (`rows` from lead_rows_of) keep their rows, routing and
    dates; they lose names, email, consent, the number (kept masked: the column is
    required) and every context member but those routing reads."""
    now = session.now()
    for row in rows:
        context = {
            key: value for key, value in (row["context"] or {}).items() if key in ROUTING_CONTEXT
        }
        await session.execute(
            session.update(leads)
            .where(leads.c.id == row["id"])
            .values(
                first_name=None,
                last_name=None,
                email=None,
                phone=mask_phone(row["phone"]) or "",
                phone_e164=None,
                context=context,
                consent_id=None,
                consent_expires_at=None,
                updated_at=now,
            )
        )


async def numbers_relying_on(session: TenantSession, consent_ids: list[str]) -> set[str]:
    """The numbers of leads whose consent is one of these artifacts."""
    rows = await session.fetch_all(
        session.select(leads, leads.c.phone_e164).where(leads.c.consent_id.in_(consent_ids))
    )
    return {row["phone_e164"] for row in rows if row["phone_e164"]}


async def set_consent(
    session: TenantSession,
    phone_e164: str,
    stale_ids: list[str],
    artifact: dict[str, Any] | None,  # a consent row: consent/ types it
) -> None:
    """The number's leads holding a stale artifact take `artifact` (or none)."""
    await session.execute(
        session.update(leads)
        .where(leads.c.phone_e164 == phone_e164, leads.c.consent_id.in_(stale_ids))
        .values(
            consent_id=artifact["id"] if artifact else None,
            consent_expires_at=artifact["expires_at"] if artifact else None,
            updated_at=session.now(),
        )
    )
