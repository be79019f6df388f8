from typing import Annotated

from fastapi import Depends
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import CUSTOM_FILTERS
from homebase.deals import render, repository, service
from homebase.deals.schemas import Deal, DealCreate, DealFilters, DealUpdate, Pipeline
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.listquery import ListQuery, ListQueryParser
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond

deals_router = v1_router(prefix="/deals", tags=["deals"])
pipelines_router = v1_router(prefix="/pipelines", tags=["deals"])

DealsRead = Annotated[Principal, require(Scope.deals_read)]
DealsWrite = Annotated[Principal, require(Scope.deals_write)]
DealFields = Annotated[Projection, Depends(field_selector(Deal))]
PipelineFields = Annotated[Projection, Depends(field_selector(Pipeline))]
Pages = Annotated[PageRequest, Depends(page_request)]


_deals_query = ListQueryParser(Deal, DealFilters, CUSTOM_FILTERS)
DealsQuery = Annotated[ListQuery, Depends(_deals_query)]


def _pii(principal: Principal) -> bool:
    return principal.has(Scope.contacts_read_pii)


@deals_router.get(
    "",
    response_model=Page[Deal],
    summary="List deals",
    description="Newest first. Filters combine with AND. "
    + CUSTOM_FILTERS.description
    + CHANGES_NOTE,
    responses=error_responses(*READ_ERRORS),
    openapi_extra={"parameters": _deals_query.parameters},
)
async def list_deals(
    request: Request, principal: DealsRead, session: Tenant, query: DealsQuery
) -> Sent[PageBody[Deal]]:
    filters, fields, pii = query.filters, query.fields, _pii(principal)
    listing = await custom.ListFields.read(session, "deals", query.prefixed)
    by_custom, page_fields = listing.by_custom, listing.page
    return await paginate(
        request,
        session,
        query.page,
        repository.listing(session, filters, custom=by_custom),
        filters=listing.keyed(filters),
        updated_after=filters.updated_after,
        render=lambda row: render.deal(row, pii=pii, custom=page_fields.current),
        fields=fields,
        prepare=listing.prepare,
    )


@deals_router.post(
    "",
    status_code=201,
    response_model=Deal,
    summary="Create a deal",
    description="400 names pipeline_id, stage_id or contact_id when it is not "
    "one of this workspace's (or stage_id is not a stage of "
    "pipeline_id). Adds a deal_created entry to the contact's "
    "timeline.",
    responses=error_responses(*READ_ERRORS),
)
async def create_deal(
    body: DealCreate, principal: DealsWrite, session: Tenant, fields: DealFields
) -> Sent[Deal]:
    definitions = await service.definitions(session, sent=body.custom_fields)
    row = await service.create_deal(session, body, fields=definitions)
    return respond(render.deal(row, pii=_pii(principal), custom=definitions), fields, 201)


@deals_router.get(
    "/{id}", response_model=Deal, summary="Retrieve a deal", responses=error_responses(*ONE_ERRORS)
)
async def get_deal(
    id: str, principal: DealsRead, session: Tenant, fields: DealFields
) -> Sent[Deal]:
    row = await service.get_or_404(session, id)
    definitions = await service.definitions(session)
    return respond(render.deal(row, pii=_pii(principal), custom=definitions), fields)


@deals_router.patch(
    "/{id}",
    response_model=Deal,
    summary="Update a deal",
    description="Moving the deal to another stage (stage_id, or pipeline_id) "
    "emits deal.stage_changed and adds a deal_stage_changed entry "
    "to the contact's timeline. status won or lost sets closed_at; "
    "open clears it.",
    responses=error_responses(*ONE_ERRORS),
)
async def update_deal(
    id: str, body: DealUpdate, principal: DealsWrite, session: Tenant, fields: DealFields
) -> Sent[Deal]:
    definitions = await service.definitions(session)
    row = await service.update_deal(session, id, patch=body, fields=definitions)
    return respond(render.deal(row, pii=_pii(principal), custom=definitions), fields)


@pipelines_router.get(
    "",
    response_model=Page[Pipeline],
    summary="List pipelines and their stages",
    description="Every workspace has a buyer and a seller pipeline; more "
    "arrive through load-fixtures. Stages are in order; position "
    "gives the pipelines' display order.",
    responses=error_responses(*READ_ERRORS),
)
async def list_pipelines(
    request: Request, principal: DealsRead, session: Tenant, page: Pages, fields: PipelineFields
) -> Sent[PageBody[Pipeline]]:
    stages = await repository.stages_by_pipeline(session)
    return await paginate(
        request,
        session,
        page,
        repository.pipelines_listing(session),
        filters=None,
        render=lambda row: render.pipeline(row, stages.get(row["id"], [])),
        fields=fields,
    )
