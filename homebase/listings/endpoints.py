from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageRequest, page_request
from homebase.kit.responses import JSONResponse
from homebase.listings import render, repository
from homebase.listings.schemas import Listing, ListingFilters

router = v1_router(prefix="/listings", tags=["listings"])

ListingsRead = Annotated[Principal, require(Scope.listings_read)]
ListingFields = Annotated[Projection, Depends(field_selector(Listing))]
Pages = Annotated[PageRequest, Depends(page_request)]


@router.get(
    "",
    response_model=Page[Listing],
    summary="List the workspace's own listings",
    description="Only listings the workspace authored (never MLS inventory), newest "
    "first. Filters combine with AND; price and bath bounds are inclusive.",
    responses=error_responses(*READ_ERRORS),
)
async def list_listings(
    request: Request,
    principal: ListingsRead,
    session: Tenant,
    page: Pages,
    fields: ListingFields,
    filters: Annotated[ListingFilters, Query()],
) -> JSONResponse:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        render=render.listing,
        fields=fields,
    )
