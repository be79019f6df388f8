"""Automation, persona, campaign and enrolment queries, through the TenantSession."""

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table, text

from homebase.automations.records import (
    AutomationRecord,
    CampaignRecord,
    EnrolmentChanges,
    EnrolmentRecord,
    PersonaRecord,
    ResponderRef,
    StepRunRecord,
)
from homebase.automations.schemas import EnrolmentFilters
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.leads.records import LeadConsent
from homebase.models import (
    Automation,
    AutomationEnrolment,
    AutomationStepRun,
    Campaign,
    Contact,
    Lead,
    Persona,
)
from homebase.paging.listing import Listing

automations = Automation.__table__
personas = Persona.__table__
campaigns = Campaign.__table__
contacts = Contact.__table__
enrolments = AutomationEnrolment.__table__
step_runs = AutomationStepRun.__table__
leads = Lead.__table__
# A literal, not a bound parameter: PostgreSQL must see that it implies the partial
# unique index's predicate to use it as the ON CONFLICT arbiter.
ACTIVE = text("status = 'active'")


async def _get(session: TenantSession, table: Table, row_id: str) -> Any:
    # a row of `table`, which each typed reader below names
    return await session.fetch_one(session.select(table).where(table.c.id == row_id))


async def automation(session: TenantSession, automation_id: str) -> AutomationRecord | None:
    return cast("AutomationRecord | None", await _get(session, automations, automation_id))


async def persona(session: TenantSession, persona_id: str) -> PersonaRecord | None:
    return cast("PersonaRecord | None", await _get(session, personas, persona_id))


async def campaign(session: TenantSession, campaign_id: str) -> CampaignRecord | None:
    return cast("CampaignRecord | None", await _get(session, campaigns, campaign_id))


async def contact(session: TenantSession, contact_id: str) -> ContactRecord | None:
    return cast("ContactRecord | None", await _get(session, contacts, contact_id))


async def responder(session: TenantSession) -> ResponderRef | None:
    """The workspace's responder persona (at most one: a partial unique index)."""
    row = await session.fetch_one(
        session.select(personas, personas.c.id, personas.c.name).where(
            personas.c.responder.is_(True)
        )
    )
    return cast("ResponderRef | None", row)


def listing(session: TenantSession, table: Table) -> Listing[Any]:
    """GET /v1/automations, /v1/personas, /v1/campaigns: newest first (a Listing of
    `table`'s records: the endpoint's Catalogue names which)."""
    return Listing.newest(session.select(table), table)


def enrolments_listing(
    session: TenantSession, automation_id: str, filters: EnrolmentFilters
) -> Listing[EnrolmentRecord]:
    """GET /v1/automations/{id}/enrolments: newest first."""
    statement = session.select(enrolments).where(enrolments.c.automation_id == automation_id)
    if filters.contact_id is not None:
        statement = statement.where(enrolments.c.contact_id == filters.contact_id)
    if filters.status is not None:
        statement = statement.where(enrolments.c.status == filters.status.value)
    return Listing.newest(statement, enrolments)


async def exists(session: TenantSession, table: Table, row_id: str) -> bool:
    return await _get(session, table, row_id) is not None


async def insert(session: TenantSession, table: Table, row: Mapping[str, Any]) -> None:
    """A row of `table`: a record (StepRunRecord), or a fixture's checked values."""
    await session.insert(table, row)


async def insert_enrolment_if_none_active(session: TenantSession, row: EnrolmentRecord) -> bool:
    """True when inserted; False when the contact already has an active enrolment in the
    automation (the partial unique index decides, so concurrent enrols make one)."""
    return await session.insert_if_absent(
        enrolments,
        row,
        conflict=["workspace_id", "automation_id", "contact_id"],
        index_where=ACTIVE,
    )


async def active_enrolment(
    session: TenantSession, automation_id: str, contact_id: str
) -> EnrolmentRecord | None:
    row = await session.fetch_one(
        session.select(enrolments).where(
            enrolments.c.automation_id == automation_id,
            enrolments.c.contact_id == contact_id,
            enrolments.c.status == "active",
        )
    )
    return cast("EnrolmentRecord | None", row)


async def update_enrolment(
    session: TenantSession, enrolment_id: str, values: EnrolmentChanges
) -> None:
    await session.execute(
        session.update(enrolments).where(enrolments.c.id == enrolment_id).values(**values)
    )


async def step_run(
    session: TenantSession, enrolment_id: str, step_index: int
) -> StepRunRecord | None:
    row = await session.fetch_one(
        session.select(step_runs).where(
            step_runs.c.enrolment_id == enrolment_id, step_runs.c.step_index == step_index
        )
    )
    return cast("StepRunRecord | None", row)


async def leads_of_contact(session: TenantSession, contact_id: str) -> list[LeadConsent]:
    rows = await session.fetch_all(
        session.select(leads, leads.c.id, leads.c.phone_e164, leads.c.consent_expires_at).where(
            leads.c.contact_id == contact_id
        )
    )
    return cast("list[LeadConsent]", rows)


async def scrub_errors_of_contact(session: TenantSession, contact_id: str) -> None:
    """An enrolment's last_error is `Type: text`, and the text may quote a statement's
    values (a message body with the person's name): only the type stays."""
    rows = await session.fetch_all(
        session.select(enrolments, enrolments.c.id, enrolments.c.last_error).where(
            enrolments.c.contact_id == contact_id, enrolments.c.last_error.is_not(None)
        )
    )
    for row in rows:
        kept = row["last_error"].split(":")[0]
        if kept != row["last_error"]:
            await session.execute(
                session.update(enrolments)
                .where(enrolments.c.id == row["id"])
                .values(last_error=kept)
            )
