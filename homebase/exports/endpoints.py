from functools import partial
from typing import Annotated

from fastapi import Depends, Path
from starlette.requests import Request

from homebase.auth.dependencies import AnyCredential, Tenant
from homebase.auth.scopes import Scope
from homebase.exports import repository, service
from homebase.exports.schemas import Export, ExportCreate
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageRequest, page_request
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime

router = v1_router(prefix="/exports", tags=["exports"])

ExportFields = Annotated[Projection, Depends(field_selector(Export))]
Pages = Annotated[PageRequest, Depends(page_request)]
ExportId = Annotated[
    str,
    Path(
        description="The export's id. An unknown id and another workspace's id both answer 404.",
        examples=["exp_01jd3v6k8h2k3m4n5p6q7r8s9t"],
    ),
]
# Which scope an export needs depends on its list, so the routes take any credential and
# the service checks the list's own read scope (tests/test_routes.py SCOPE_BY_OBJECT).
_SCOPES = (
    "Needs the read scope of the export's list: contacts:read, leads:read, deals:read, "
    "messages:read, or appointments:read (tasks and appointments); 403 insufficient_scope "
    "otherwise. An export made unmasked (for a credential holding contacts:read:pii), of "
    "any list, is shown only to credentials holding it too: 403 insufficient_scope naming "
    "contacts:read:pii for the others (its download link is issued only to them)."
)


def _wire(request: Request, session: Tenant, row: dict[str, object]) -> dict[str, object]:
    settings = get_runtime(request).settings
    return service.wire(
        row,
        settings.keys,
        public_url=settings.public_url,
        workspace_id=session.workspace_id,
        now=session.now(),
    )


@router.post(
    "",
    status_code=202,
    response_model=Export,
    summary="Start an export",
    response_description="The export, queued: poll it until completed for its download_url.",
    description="Exports every item of one list, as that list would show them to this "
    "credential (masking, filters and fields alike), to an NDJSON or CSV file written by "
    "the worker. The file is kept 7 days, and removed at once when a contact's data is "
    "erased (docs/imports-exports.md). " + _SCOPES,
    responses=error_responses(*READ_ERRORS),
)
async def create_export(
    request: Request, body: ExportCreate, principal: AnyCredential, session: Tenant
) -> JSONResponse:
    row = await service.create_export(session, principal, body=body)
    return json_response(_wire(request, session, row), 202)


@router.get(
    "",
    response_model=Page[Export],
    summary="List exports",
    response_description="A page of exports, newest first.",
    description="The exports of the lists this credential may read. " + _SCOPES,
    responses=error_responses(*READ_ERRORS),
)
async def list_exports(
    request: Request,
    principal: AnyCredential,
    session: Tenant,
    page: Pages,
    fields: ExportFields,
) -> JSONResponse:
    objects = service.listed_objects(principal)
    pii = principal.has(Scope.contacts_read_pii)
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, objects, pii=pii),
        filters=None,
        render=partial(_wire, request, session),
        fields=fields,
    )


@router.get(
    "/{id}",
    response_model=Export,
    summary="Retrieve an export",
    response_description="The export; once completed, with a fresh five-minute download_url.",
    description=_SCOPES,
    responses=error_responses(*ONE_ERRORS),
)
async def get_export(
    request: Request, id: ExportId, principal: AnyCredential, session: Tenant, fields: ExportFields
) -> JSONResponse:
    row = await service.get_export(session, principal, export_id=id)
    return json_response(fields(_wire(request, session, row)))
