from functools import partial
from typing import Annotated, cast

from fastapi import Body, Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond
from homebase.kit.write_warnings import phone_warnings
from homebase.leads import render, repository, service
from homebase.leads.schemas import (
    AssignRequest,
    AssignResult,
    Lead,
    LeadCreate,
    LeadFilters,
    LeadWritten,
)
from homebase.routing import service as routing
from homebase.routing.engine import LeadFacts
from homebase.routing.schemas import PreviewRequest, RoutingPreview
from homebase.workspaces.lead_policy import phone_region

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
) -> Sent[PageBody[Lead]]:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        updated_after=filters.updated_after,
        render=partial(render.lead, pii=_pii(principal), now=session.now()),
        fields=fields,
    )


@router.post(
    "",
    status_code=201,
    response_model=LeadWritten,
    summary="Create and route a lead",
    description="Links the lead to a contact (same phone, else same email, else a "
    "new contact), records its consent artifact, and routes it through "
    "the workspace's rules unless skip_routing is true. Emits "
    "lead.created, and lead.assigned when routed. A phone that is not a valid number "
    "is kept as sent and named in `warnings` (phone_not_valid), sent only then, "
    "whatever `fields` names. When the lead's consent allows AI outreach "
    "(ai_outbound_allowed) and the responder persona's first_touch is `text`, the AI's "
    "first text is queued for first_touch_delay_seconds later, inside the lawful hours "
    "of the lead's number.",
    responses=error_responses(*READ_ERRORS),
)
async def create_lead(
    body: LeadCreate, principal: LeadsWrite, session: Tenant, fields: LeadFields
) -> Sent[LeadWritten]:
    row = await service.create_lead(session, body, first_touch=True)
    # a Lead is a LeadWritten without its warnings (a fresh dict: one is added)
    payload = cast(LeadWritten, render.lead(row, pii=_pii(principal), now=session.now()))
    warnings = phone_warnings(body.phone, await phone_region(session))
    if not warnings:
        return respond(payload, fields, 201)
    payload["warnings"] = warnings
    # `fields` names the lead's members: `warnings` is sent whatever it names
    return respond(payload, lambda sent: {**fields(sent), "warnings": warnings}, 201)


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
) -> Sent[RoutingPreview]:
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
    return respond(routing.preview_json(decision, members))


@router.get(
    "/{id}", response_model=Lead, summary="Retrieve a lead", responses=error_responses(*ONE_ERRORS)
)
async def get_lead(
    id: str, principal: LeadsRead, session: Tenant, fields: LeadFields
) -> Sent[Lead]:
    row = await service.get_or_404(session, id)
    return respond(render.lead(row, pii=_pii(principal), now=session.now()), fields)


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
) -> Sent[AssignResult]:
    body = body or AssignRequest()
    done = await service.assign_lead(session, id, assignee_id=body.assignee_id)
    lead = render.lead(done["lead"], pii=_pii(principal), now=session.now())
    return respond(
        {
            "lead_id": lead["id"],
            "assignee_id": done["assignee_id"],
            "previous_assignee_id": done["previous_assignee_id"],
            "changed": done["changed"],
            "method": done["method"],
            "rule": done["rule"],
            "rotation_turn": done["rotation_turn"],
            "reason": done["reason"],
            "lead": lead,
        }
    )
