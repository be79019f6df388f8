from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Query
from pydantic import create_model
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.calls import recordings, render, repository, service
from homebase.calls.schemas import Call, CallFilters
from homebase.db.tenancy import TenantSession
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageRequest, page_request
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime

router = v1_router(prefix="/calls", tags=["calls"])

CallsRead = Annotated[Principal, require(Scope.calls_read)]
# `fields` takes wire names ("from"), which differ from Python's ("from_").
_WIRE_MEMBERS: dict[str, Any] = {
    (info.alias or name): (Any, None) for name, info in Call.model_fields.items()
}
_WIRE_NAMES = create_model("CallWireNames", **_WIRE_MEMBERS)
CallFields = Annotated[Projection, Depends(field_selector(_WIRE_NAMES))]
Pages = Annotated[PageRequest, Depends(page_request)]


def _renderer(
    request: Request, principal: Principal, session: TenantSession
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    settings = get_runtime(request).settings
    pii = principal.has(Scope.contacts_read_pii)
    now = session.now()

    def link(row: dict[str, Any]) -> recordings.RecordingLink:
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
) -> JSONResponse:
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
) -> JSONResponse:
    row = await service.get_or_404(session, id)
    return json_response(fields(_renderer(request, principal, session)(row)))
