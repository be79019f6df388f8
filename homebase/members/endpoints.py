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
from homebase.kit.pagination import Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent
from homebase.members import render, repository
from homebase.members.schemas import MemberFilters, WorkspaceMember
from homebase.routing.service import routed_members

router = v1_router(prefix="/members", tags=["members"])

ContactsRead = Annotated[Principal, require(Scope.contacts_read)]
MemberFields = Annotated[Projection, Depends(field_selector(WorkspaceMember))]
Pages = Annotated[PageRequest, Depends(page_request)]


@router.get(
    "",
    response_model=Page[WorkspaceMember],
    summary="List the workspace's members",
    response_description="A page of members, newest first.",
    description="The people of the workspace: what a contact's owner_id and a lead's "
    "assignee_id name. Removed members stay listed (removed true): records still name "
    "them. Only this workspace's members, ever.",
    responses=error_responses(*READ_ERRORS),
)
async def list_members(
    request: Request,
    principal: ContactsRead,
    session: Tenant,
    page: Pages,
    fields: MemberFields,
    filters: Annotated[MemberFilters, Query()],
) -> Sent[PageBody[WorkspaceMember]]:
    pii = principal.has(Scope.contacts_read_pii)
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        render=render.members(pii=pii, routed=await routed_members(session)),
        fields=fields,
    )
