from typing import Annotated

from fastapi import Body, Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import synced_list_response
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageRequest, page_request
from homebase.kit.responses import JSONResponse, json_response
from homebase.leads import render, repository, service
from homebase.leads.schemas import AssignRequest, AssignResult, Lead, LeadCreate, LeadFilters
from homebase.routing import service as routing
from homebase.routing.engine import LeadFacts
from homebase.routing.schemas import PreviewRequest, RoutingPreview

router = v1_router(prefix="/leads", tags=["leads"])

LeadsRead = Annotated[Principal, require(Scope.leads_read)]
LeadsWrite = Annotated[Principal, require(Scope.leads_write)]
LeadFields = Annotated[Projection, Depends(field_selector(Lead))]
Pages = Annotated[PageRequest, Depends(page_request)]


def _pii(principal: Principal) -> bool:
    return principal.has(Scope.contacts_read_pii)


@router.get(
    "",
    response_model=Page[Lead],
    summary="List leads",
    description="Newest first." + CHANGES_NOTE,
    responses=error_responses(*READ_ERRORS),
)
async def list_leads(
    request: Request,
    principal: LeadsRead,
    session: Tenant,
    page: Pages,
    fields: LeadFields,
    filters: Annotated[LeadFilters, Query()],
) -> JSONResponse:
    pii, now = _pii(principal), session.now()
    return await synced_list_response(
        request,
        session,
        page,
        filters.model_dump(mode="json"),
        filters.updated_after,
        lambda resuming: repository.changes_statement(session, filters, resuming=resuming),
        lambda after_id, limit: repository.list_statement(
            session, filters, after_id=after_id, limit=limit
        ),
        lambda row: fields(render.lead(row, pii=pii, now=now)),
    )


@router.post(
    "",
    status_code=201,
    response_model=Lead,
    summary="Create and route a lead",
    description="Links the lead to a contact (same phone, else same email, else a "
    "new contact), records its consent artifact, and routes it through "
    "the workspace's rules unless skip_routing is true. Emits "
    "lead.created, and lead.assigned when routed.",
    responses=error_responses(*READ_ERRORS),
)
async def create_lead(
    body: LeadCreate, principal: LeadsWrite, session: Tenant, fields: LeadFields
) -> JSONResponse:
    row = await service.create_lead(session, body)
    return json_response(fields(render.lead(row, pii=_pii(principal), now=session.now())), 201)


@router.post(
    "/routing-preview",
    response_model=RoutingPreview,
    summary="Preview routing",
    description="A dry run of the routing rules for the lead facts given: creates "
    "nothing, assigns nothing, notifies nobody and does not advance any "
    "round-robin cursor.",
    responses=error_responses(*READ_ERRORS),
)
async def preview_lead_routing(
    body: PreviewRequest, principal: LeadsRead, session: Tenant
) -> JSONResponse:
    facts = LeadFacts(
        source=body.source,
        zip=body.zip,
        city=body.city,
        price=body.price,
        has_phone=body.has_phone,
        tags=tuple(body.tags),
        stage=body.stage,
        office_id=body.office_id,
        team_id=body.team_id,
    )
    decision, members = await routing.route(session, facts, preview=True)
    return json_response(routing.preview_json(decision, members))


@router.get(
    "/{id}", response_model=Lead, summary="Retrieve a lead", responses=error_responses(*ONE_ERRORS)
)
async def get_lead(
    id: str, principal: LeadsRead, session: Tenant, fields: LeadFields
) -> JSONResponse:
    row = await service.get_or_404(session, id)
    return json_response(fields(render.lead(row, pii=_pii(principal), now=session.now())))


@router.post(
    "/{id}/assign",
    response_model=AssignResult,
    summary="Route or re-route a lead",
    description="With assignee_id (a member of the workspace, else 400) the lead "
    "goes to that member by hand. Without it the lead is routed through "
    "the rules again (a round-robin rule takes a turn). The contact's "
    "owner follows the assignee; a change writes a timeline entry and "
    "emits lead.assigned.",
    responses=error_responses(*ONE_ERRORS),
)
async def assign_lead(
    id: str,
    principal: LeadsWrite,
    session: Tenant,
    # None when no body is sent; `| None` would make the document's body nullable.
    body: Annotated[AssignRequest, Body()] = None,  # type: ignore[assignment]
) -> JSONResponse:
    body = body or AssignRequest()
    result = await service.assign_lead(session, id, assignee_id=body.assignee_id)
    lead = render.lead(result.pop("lead"), pii=_pii(principal), now=session.now())
    return json_response({"lead_id": lead["id"], **result, "lead": lead})
