from typing import Annotated

from fastapi import Depends, Path, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require_any
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.imports import render, repository, service
from homebase.imports.schemas import (
    MAX_ROWS,
    ImportCreate,
    ImportErrorFilters,
    ImportJob,
    ImportRowErrors,
)
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond

router = v1_router(prefix="/imports", tags=["imports"])
Pages = Annotated[PageRequest, Depends(page_request)]
ImportId = Annotated[
    str,
    Path(
        description="The import's id. An unknown id and another workspace's id both answer 404.",
        examples=["imp_01jd3v6k8h2k3m4n5p6q7r8s9t"],
    ),
]


Importer = Annotated[Principal, require_any(Scope.contacts_write, Scope.leads_write)]
ImportReader = Annotated[Principal, require_any(Scope.contacts_read, Scope.leads_read)]

CREATE_DESCRIPTION = f"""\
Answers **202** with the import job, queued; the worker writes its rows in batches and
`GET /v1/imports/{{id}}` shows its progress and counts. Needs contacts:write for
`contacts`, leads:write for `leads`. The whole import counts as one request against the
rate limit.

- The envelope is checked at once: `object`, `match_on`, `skip_routing`, and `rows` (1 to
  {MAX_ROWS} objects; more is 400 naming `rows`), and the body stays within
  HOMEBASE_MAX_BODY_BYTES (413).
- Each row is checked as POST /v1/contacts or POST /v1/leads checks its body. A refused
  row is counted `failed` and listed by `GET /v1/imports/{{id}}/errors` with the same
  field and message that create would answer 400 with; the other rows are written.
- A contacts row that matches a contact (`match_on`) updates it as PATCH would with the
  members the row gives (`updated`, or `unchanged` when it already holds them); else it
  creates one (`created`). Each row emits the events the single create or update emits.
- A leads row is POST /v1/leads: consent recorded, linked to a contact, routed unless
  skip_routing; lead.created and lead.assigned per row.
- A workspace runs one import at a time, oldest first; the next waits, queued.
- `value_map` replaces found values before a row is checked (a CRM's `Prospect` as
  `LEAD`); an `owner_id` that is no member's id is read as a member's email or full name.
- `on_invalid_cell`: `refuse` (the default) refuses a row with any invalid value; `skip`
  leaves out a custom field's invalid value, a stage that is not one and an owner who is
  no member, and reports them as the row's warning. A phone that is no valid number is
  kept as sent and reported as a warning in both.
- `dry_run`: the same counts and refused rows, from the whole import, with no record
  written; a dry run does not wait for the workspace's running import, nor hold it up.
"""


@router.post(
    "",
    status_code=202,
    response_model=ImportJob,
    summary="Import contacts or leads in bulk",
    response_description="The import, queued.",
    description=CREATE_DESCRIPTION,
    responses=error_responses(*READ_ERRORS),
)
async def create_import(
    body: ImportCreate, principal: Importer, session: Tenant
) -> Sent[ImportJob]:
    row = await service.create_import(session, principal, body=body)
    return respond(render.job(row), status_code=202)


@router.get(
    "",
    response_model=Page[ImportJob],
    summary="List imports",
    response_description="A page of imports, newest first.",
    description="The imports of the objects the credential may read (contacts:read, leads:read).",
    responses=error_responses(*READ_ERRORS),
)
async def list_imports(
    request: Request, principal: ImportReader, session: Tenant, page: Pages
) -> Sent[PageBody[ImportJob]]:
    listing = repository.listing(session, service.readable(principal))
    return await paginate(request, session, page, listing, filters=None, render=render.job)


@router.get(
    "/{id}",
    response_model=ImportJob,
    summary="Retrieve an import",
    response_description="The import: its status, counts and progress.",
    description="Needs contacts:read for a contacts import, leads:read for a leads import.",
    responses=error_responses(*ONE_ERRORS),
)
async def get_import(id: ImportId, principal: ImportReader, session: Tenant) -> Sent[ImportJob]:
    return respond(render.job(await service.get_or_404(session, principal, import_id=id)))


@router.get(
    "/{id}/errors",
    response_model=Page[ImportRowErrors],
    summary="List an import's refused rows and warnings",
    response_description="A page of rows refused or written with warnings, in the order of "
    "the request's rows.",
    description="Each row's index in `rows`, its CSV line (a file's rows), whether it was "
    "refused or written with warnings (`kind`), and the field and message a single create "
    "would have answered 400 with, word for word. Rows are listed as the worker reaches them.",
    responses=error_responses(*ONE_ERRORS),
)
async def list_import_errors(
    request: Request,
    id: ImportId,
    principal: ImportReader,
    session: Tenant,
    page: Pages,
    filters: Annotated[ImportErrorFilters, Query()],
) -> Sent[PageBody[ImportRowErrors]]:
    await service.get_or_404(session, principal, import_id=id)
    kind = None if filters.kind is None else filters.kind.value
    listing = repository.errors_listing(session, id, kind)
    return await paginate(
        request, session, page, listing, filters=filters, render=render.row_errors
    )
