"""Campaign enrolment: POST /v1/campaigns/{id}/enroll (durable at once, one enrolment a
contact), a campaign's counts, and the erasure of a contact's enrolments. The campaign
job (campaign_job.py) reaches the contacts."""

from typing import cast

from homebase.automations import campaign_repository as repository
from homebase.automations import render
from homebase.automations.campaign_schemas import (
    MAX_CONTACTS,
    CampaignAudience,
    CampaignCounts,
    CampaignEnrollRequest,
    CampaignEnrollResult,
    CampaignReport,
)
from homebase.automations.records import CampaignEnrolmentRecord, CampaignRecord
from homebase.automations.service import campaign_or_404
from homebase.contacts import repository as contacts_repository
from homebase.contacts.schemas import ContactFilters
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import DEFAULT_REGION
from homebase.paging.pages import first_answer
from homebase.workspaces.lead_policy import phone_region

PAGE = 200  # contacts read a page at a time when a filter is resolved
ONE_OF = "give either contact_ids or filter"


async def _named(session: TenantSession, contact_ids: list[str]) -> list[str]:
    """The distinct contacts named, each this workspace's and not erased, else 400 naming
    each failing `contact_ids.<index>` at once (nothing is written)."""
    found = await repository.contacts_named(session, set(contact_ids))
    failures = []
    for index, contact_id in enumerate(contact_ids):
        if contact_id not in found:
            failures.append((f"contact_ids.{index}", "is not a contact of this workspace"))
        elif found[contact_id] is not None:
            failures.append((f"contact_ids.{index}", "the contact's data was erased"))
    if failures:
        raise ValidationFailed.for_fields(failures)
    return list(dict.fromkeys(contact_ids))


async def _matched(session: TenantSession, audience: CampaignAudience, *, pii: bool) -> list[str]:
    """The contacts GET /v1/contacts lists with these filters (its repository listing,
    page after page), erased ones left out; 400 on `filter` past MAX_CONTACTS."""
    filters = ContactFilters(**audience.model_dump())
    region = await phone_region(session) if filters.q else DEFAULT_REGION
    listing = contacts_repository.listing(session, filters, pii=pii, region=region)
    matched: list[str] = []
    after: str | None = None
    while True:
        built = listing.page(after, PAGE)
        rows = await first_answer(session, built if isinstance(built, list) else [built], PAGE)
        page = rows[:PAGE]
        matched += [row["id"] for row in page if row["anonymized_at"] is None]
        if len(matched) > MAX_CONTACTS:
            raise ValidationFailed.for_field(
                "filter",
                f"matches more than {MAX_CONTACTS} contacts; narrow it, or enrol them in "
                "calls of contact_ids",
            )
        if len(rows) <= PAGE:
            return matched
        after = page[-1]["id"]


async def enroll(
    session: TenantSession, campaign_id: str, *, body: CampaignEnrollRequest, pii: bool
) -> CampaignEnrollResult:
    """Enrols each contact named or matched that is not enrolled yet, pending from now;
    one already enrolled keeps its enrolment as it is. All in the request's transaction:
    a refused request writes nothing."""
    await campaign_or_404(session, campaign_id)
    if (body.contact_ids is None) == (body.filter is None):
        raise ValidationFailed.for_fields([("contact_ids", ONE_OF), ("filter", ONE_OF)])
    if body.contact_ids is not None:
        contact_ids = await _named(session, body.contact_ids)
    else:
        assert body.filter is not None  # one of the two, checked above
        contact_ids = await _matched(session, body.filter, pii=pii)
    already = (
        await repository.enrolled_among(session, campaign_id, contact_ids) if contact_ids else set()
    )
    now = session.now()
    enrolled = 0
    for contact_id in contact_ids:
        if contact_id in already:
            continue
        row: CampaignEnrolmentRecord = {
            "id": new_id("cen"),
            "campaign_id": campaign_id,
            "contact_id": contact_id,
            "state": "pending",
            "skip_reason": None,
            "due_at": now,
            "reference": None,
            "actor": session.actor,
            "reached_at": None,
            "skipped_at": None,
            "created_at": now,
            "updated_at": now,
        }
        enrolled += await repository.insert_if_absent(session, row)
    if enrolled:
        session.mark_work()  # the campaign job looks as soon as this commits
    return {
        "campaign_id": campaign_id,
        "matched": len(contact_ids),
        "enrolled": enrolled,
        "already_enrolled": len(contact_ids) - enrolled,
    }


async def counts(session: TenantSession, campaign_id: str) -> CampaignCounts:
    answer: CampaignCounts = {
        "enrolled": 0,
        "pending": 0,
        "reached": 0,
        "replied": 0,
        "booked": 0,
        "opted_out": 0,
        "skipped": 0,
        "skipped_by_reason": {},
    }
    for row in await repository.counts(session, campaign_id):
        total = row["total"]
        answer["enrolled"] += total
        if row["state"] == "pending":
            answer["pending"] += total
        elif row["state"] == "skipped":
            answer["skipped"] += total
            reason = row["skip_reason"] or "refused"
            answer["skipped_by_reason"][reason] = answer["skipped_by_reason"].get(reason, 0) + total
        else:
            answer["reached"] += total
            answer["replied"] += row["replied"]
            answer["booked"] += row["booked"]
            answer["opted_out"] += row["opted_out"]
    return answer


async def report(session: TenantSession, campaign_id: str) -> CampaignReport:
    campaign: CampaignRecord = await campaign_or_404(session, campaign_id)
    # a CampaignReport is the Campaign and its counts
    return cast(
        CampaignReport, {**render.campaign(campaign), "counts": await counts(session, campaign_id)}
    )


async def scrub_contact_campaign_enrolments(session: TenantSession, contact_id: str) -> None:
    """An erasure's part of campaigns (erasure/registry.py): the contact's pending
    enrolments are skipped (erased), so no campaign reaches it; the others keep their
    states and times (ids and times only, nothing personal)."""
    await repository.skip_pending_of_contact(session, contact_id, session.now())
