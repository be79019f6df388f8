from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.calls import recordings, render, repository, service
from homebase.calls.records import CallRecord
from homebase.calls.schemas import Call, CallFilters
from homebase.db.tenancy import TenantSession
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond
from homebase.runtime import get_runtime

router = v1_router(prefix="/calls", tags=["calls"])

CallsRead = Annotated[Principal, require(Scope.calls_read)]
CallFields = Annotated[Projection, Depends(field_selector(Call))]
Pages = Annotated[PageRequest, Depends(page_request)]


def _renderer(
    request: Request, principal: Principal, session: TenantSession
) -> Callable[[CallRecord], Call]:
    settings = get_runtime(request).settings
    pii = principal.has(Scope.contacts_read_pii)
    now = session.now()

    def link(row: CallRecord) -> recordings.RecordingLink:
        return recordings.issue(
            settings.keys, settings.public_url, session.workspace_id, row["id"], now
        )

    return lambda row: render.call(row, pii=pii, link=link)


@router.get(
    "",
    response_model=Page[Call],
    summary="List calls",
    description="Human and AI-handled calls, newest first; handled_by tells them "
    "apart. Each carries a fresh five-minute recording_url.",
    responses=error_responses(*READ_ERRORS),
)
async def list_calls(
    request: Request,
    principal: CallsRead,
    session: Tenant,
    page: Pages,
    fields: CallFields,
    filters: Annotated[CallFilters, Query()],
) -> Sent[PageBody[Call]]:
    to_wire = _renderer(request, principal, session)
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        render=to_wire,
        fields=fields,
    )


@router.get(
    "/{id}",
    response_model=Call,
    summary="Retrieve a call with transcript and recording",
    description="recording_url is a signed link to this service's recording proxy, "
    "valid five minutes; fetch the call again for a new one.",
    responses=error_responses(*ONE_ERRORS),
)
async def get_call(
    request: Request, id: str, principal: CallsRead, session: Tenant, fields: CallFields
) -> Sent[Call]:
    row = await service.get_or_404(session, id)
    return respond(_renderer(request, principal, session)(row), fields)
