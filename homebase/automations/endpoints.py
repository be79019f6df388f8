from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Depends, Query
from sqlalchemy import Table
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.automations import campaign_repository, campaign_service, render, repository, service
from homebase.automations.campaign_schemas import (
    CampaignContact,
    CampaignEnrollRequest,
    CampaignEnrollResult,
    CampaignReport,
)
from homebase.automations.schemas import (
    Automation,
    Campaign,
    EnrollRequest,
    EnrollResponse,
    Enrolment,
    EnrolmentFilters,
    Persona,
)
from homebase.db.tenancy import TenantSession
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond
from homebase.paging.listing import Listing

automations_router = v1_router(prefix="/automations", tags=["automations"])
personas_router = v1_router(prefix="/personas", tags=["automations"])
campaigns_router = v1_router(prefix="/campaigns", tags=["automations"])

AutomationsRead = Annotated[Principal, require(Scope.automations_read)]
AutomationsManage = Annotated[Principal, require(Scope.automations_manage)]
Pages = Annotated[PageRequest, Depends(page_request)]
AutomationFields = Annotated[Projection, Depends(field_selector(Automation))]
PersonaFields = Annotated[Projection, Depends(field_selector(Persona))]
CampaignFields = Annotated[Projection, Depends(field_selector(Campaign))]
CampaignReportFields = Annotated[Projection, Depends(field_selector(CampaignReport))]
CampaignContactFields = Annotated[Projection, Depends(field_selector(CampaignContact))]
EnrolmentFields = Annotated[Projection, Depends(field_selector(Enrolment))]
CREATED_BY_FIXTURES = "Created through `homebase admin load-fixtures` (docs/fixtures.md). "


R = TypeVar("R", bound=Mapping[str, Any])  # a record (records.py)
W = TypeVar("W", bound=Mapping[str, Any])  # its wire type (schemas.py)


@dataclass(frozen=True)
class Catalogue(Generic[R, W]):
    """A kind the fixtures make and the API only reads (automations, personas, campaigns):
    listed newest first, retrieved by id (404 for an unknown or another workspace's)."""

    table: Table
    read: Callable[[TenantSession, str], Awaitable[R]]  # service.<kind>_or_404
    render: Callable[[R], W]

    async def listed(
        self, request: Request, session: TenantSession, page: PageRequest, fields: Projection
    ) -> Sent[PageBody[W]]:
        listing: Listing[R] = repository.listing(session, self.table)
        return await paginate(
            request, session, page, listing, filters=None, render=self.render, fields=fields
        )

    async def one(self, session: TenantSession, row_id: str, fields: Projection) -> Sent[W]:
        return respond(self.render(await self.read(session, row_id)), fields)


AUTOMATIONS = Catalogue(repository.automations, service.automation_or_404, render.automation)
PERSONAS = Catalogue(repository.personas, service.persona_or_404, render.persona)
CAMPAIGNS = Catalogue(repository.campaigns, service.campaign_or_404, render.campaign)

ENROLL_DESCRIPTION = """\
Answers **202** once the enrolment is stored (with its `automation.run` event, in the same
transaction); the engine runs its first step on the next tick of the worker, then each
step in order (docs/automations.md).

- A **disabled** automation is refused with **409** `automation_disabled`; nothing is
  enrolled.
- A contact that already has an **active** enrolment in this automation is not enrolled
  twice: 202 with that enrolment and `created: false` (and no second event).
- An unknown automation (or another workspace's) is 404; contact_id that is not a contact
  of this workspace, or an erased one, is 400.
"""


@automations_router.get(
    "",
    response_model=Page[Automation],
    summary="List automations",
    description=CREATED_BY_FIXTURES + "Newest first.",
    responses=error_responses(*READ_ERRORS),
)
async def list_automations(
    request: Request,
    principal: AutomationsRead,
    session: Tenant,
    page: Pages,
    fields: AutomationFields,
) -> Sent[PageBody[dict[str, Any]]]:  # Automation: as get_automation
    return await AUTOMATIONS.listed(request, session, page, fields)


@automations_router.get(
    "/{id}",
    response_model=Automation,
    summary="Retrieve an automation",
    responses=error_responses(*ONE_ERRORS),
)
async def get_automation(
    id: str, principal: AutomationsRead, session: Tenant, fields: AutomationFields
) -> Sent[dict[str, Any]]:  # Automation: the steps' stored JSON (render.automation)
    return await AUTOMATIONS.one(session, id, fields)


@automations_router.post(
    "/{id}/enroll",
    status_code=202,
    response_model=EnrollResponse,
    summary="Start an automation for a contact",
    description=ENROLL_DESCRIPTION,
    responses=error_responses(400, 401, 403, 404, 409, 429),
)
async def enroll_contact(
    id: str,
    body: EnrollRequest,
    principal: AutomationsManage,
    session: Tenant,
    fields: EnrolmentFields,
) -> Sent[EnrollResponse]:
    row, created = await service.enroll(session, id, contact_id=body.contact_id)
    answer: EnrollResponse = {**render.enrolment(row), "created": created}
    # `created` says what happened, whatever `fields` keeps
    return respond(answer, lambda payload: {**fields(payload), "created": created}, 202)


@automations_router.get(
    "/{id}/enrolments",
    response_model=Page[Enrolment],
    summary="List an automation's enrolments",
    description="Newest first: where each contact is in the automation.",
    responses=error_responses(*ONE_ERRORS),
)
async def list_automation_enrolments(
    request: Request,
    id: str,
    principal: AutomationsRead,
    session: Tenant,
    page: Pages,
    fields: EnrolmentFields,
    filters: Annotated[EnrolmentFilters, Query()],
) -> Sent[PageBody[Enrolment]]:
    await service.automation_or_404(session, id)
    return await paginate(
        request,
        session,
        page,
        repository.enrolments_listing(session, id, filters),
        filters=filters,
        render=render.enrolment,
        fields=fields,
    )


@personas_router.get(
    "",
    response_model=Page[Persona],
    summary="List AI personas",
    description=CREATED_BY_FIXTURES + "Newest first.",
    responses=error_responses(*READ_ERRORS),
)
async def list_personas(
    request: Request,
    principal: AutomationsRead,
    session: Tenant,
    page: Pages,
    fields: PersonaFields,
) -> Sent[PageBody[Persona]]:
    return await PERSONAS.listed(request, session, page, fields)


@personas_router.get(
    "/{id}",
    response_model=Persona,
    summary="Retrieve a persona",
    responses=error_responses(*ONE_ERRORS),
)
async def get_persona(
    id: str, principal: AutomationsRead, session: Tenant, fields: PersonaFields
) -> Sent[Persona]:
    return await PERSONAS.one(session, id, fields)


@campaigns_router.get(
    "",
    response_model=Page[Campaign],
    summary="List outbound campaigns",
    description=CREATED_BY_FIXTURES + "Newest first.",
    responses=error_responses(*READ_ERRORS),
)
async def list_campaigns(
    request: Request,
    principal: AutomationsRead,
    session: Tenant,
    page: Pages,
    fields: CampaignFields,
) -> Sent[PageBody[Campaign]]:
    return await CAMPAIGNS.listed(request, session, page, fields)


@campaigns_router.get(
    "/{id}",
    response_model=CampaignReport,
    summary="Retrieve a campaign",
    description="The campaign and its `counts`: where its enrolled contacts are "
    '(docs/automations.md, "Campaigns").',
    responses=error_responses(*ONE_ERRORS),
)
async def get_campaign(
    id: str, principal: AutomationsRead, session: Tenant, fields: CampaignReportFields
) -> Sent[CampaignReport]:
    return respond(await campaign_service.report(session, id), fields)


CAMPAIGN_ENROLL_DESCRIPTION = """\
Enrols contacts in the campaign: `contact_ids` (1 to 1,000 of this workspace's contacts)
or a `filter` (the query parameters of GET /v1/contacts, matched by the same listing; at
most 1,000 contacts, erased ones left out). Answers **202** once every enrolment is stored;
the campaign job reaches them at the campaign's `rate_per_hour` (docs/automations.md,
"Campaigns").

- A contact already enrolled keeps its one enrolment (`already_enrolled`); enrolling
  again changes nothing.
- An unknown campaign (or another workspace's) is 404. A contact id that is not this
  workspace's, or an erased contact, is 400 naming each `contact_ids.<index>`; both or
  neither of `contact_ids` and `filter` is 400 naming both; a filter matching more than
  1,000 contacts is 400 on `filter`. A refused request enrols nobody.
- With an `Idempotency-Key`, a retry answers the first answer.
"""


@campaigns_router.post(
    "/{id}/enroll",
    status_code=202,
    response_model=CampaignEnrollResult,
    summary="Enrol contacts in a campaign",
    description=CAMPAIGN_ENROLL_DESCRIPTION,
    responses=error_responses(400, 401, 403, 404, 429),
)
async def enroll_campaign_contacts(
    id: str, body: CampaignEnrollRequest, principal: AutomationsManage, session: Tenant
) -> Sent[CampaignEnrollResult]:
    pii = principal.has(Scope.contacts_read_pii)  # how `filter.q` matches, as the list's
    result = await campaign_service.enroll(session, id, body=body, pii=pii)
    return respond(result, None, 202)


@campaigns_router.get(
    "/{id}/contacts",
    response_model=Page[CampaignContact],
    summary="List a campaign's contacts",
    description="Newest enrolment first: each enrolled contact's state in the campaign.",
    responses=error_responses(*ONE_ERRORS),
)
async def list_campaign_contacts(
    request: Request,
    id: str,
    principal: AutomationsRead,
    session: Tenant,
    page: Pages,
    fields: CampaignContactFields,
) -> Sent[PageBody[CampaignContact]]:
    await service.campaign_or_404(session, id)
    return await paginate(
        request,
        session,
        page,
        campaign_repository.contacts_listing(session, id),
        filters=None,
        render=render.campaign_contact,
        fields=fields,
    )
