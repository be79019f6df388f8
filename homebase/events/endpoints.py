from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import AnyCredential, Tenant
from homebase.events import render, service
from homebase.events.schemas import EventEnvelope, EventFilters
from homebase.http.router import v1_router
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageRequest, page_request
from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime

router = v1_router(prefix="/events", tags=["events"])

Pages = Annotated[PageRequest, Depends(page_request)]

LIST_DESCRIPTION = """\
The workspace's stored events, each exactly as its webhook delivery carries it, for the
retention period (HOMEBASE_RETENTION_EVENTS_DAYS, 30 days by default), in one total
order: `occurredAt` ascending, then the event id. Filters combine with AND.

**Any credential** may call it, and sees only the event types its scopes read (each
type's scope is in this document's `webhooks` section: contact events need
contacts:read, message events messages:read, ...). A `type` naming a type the credential
may not read answers **403** `insufficient_scope` with the missing scope. Phone numbers
and email addresses in `data` are masked unless the credential holds contacts:read:pii.

**Settled events only**: an event is listed once it is HOMEBASE_SYNC_SETTLE_SECONDS old
(5 s by default), when every transaction that could still commit an earlier one has
ended, so a walk never passes a position that a late event then lands behind. Webhooks
carry events at once; GET /v1/events/{id} serves one at once.

**Paging and resuming**: follow `next_cursor` while `has_more` is true. The cursor holds a
position past `after` and `occurred_after`, which only say where a walk starts: it goes on
without them and wins over them; `type` binds it (with another `type` a cursor restarts
that walk). When `has_more` is false, `next_cursor` is null: keep the last event's
`data.event_id` and resume later with `after=<that id>`, which lists exactly the events
after it, with no gap and no duplicate, whatever was written in between. `after` naming an
event that is unknown or older than the retention period answers **400** naming `after`:
events after it may have been pruned, so start again (without `after`, or with
`occurred_after`).
"""


@router.get(
    "",
    response_model=Page[EventEnvelope],
    summary="List events",
    description=LIST_DESCRIPTION,
    responses=error_responses(*READ_ERRORS),
)
async def list_events(
    request: Request,
    principal: AnyCredential,
    session: Tenant,
    page: Pages,
    filters: Annotated[EventFilters, Query()],
) -> JSONResponse:
    settings = get_runtime(request).settings
    return json_response(
        await service.list_page(
            session,
            principal,
            settings=settings,
            filters=filters,
            request=page,
            path=request.url.path,
        )
    )


@router.get(
    "/{id}",
    response_model=EventEnvelope,
    summary="Retrieve an event",
    description="Any stored event of this workspace within the retention period, as its "
    "webhook delivery carries it (masked unless the credential holds contacts:read:pii). "
    "404 for an unknown id, another workspace's, or one older than the period; 403 "
    "`insufficient_scope` naming the scope when the credential may not read its type.",
    responses=error_responses(*ONE_ERRORS),
)
async def get_event(
    request: Request, id: str, principal: AnyCredential, session: Tenant
) -> JSONResponse:
    settings = get_runtime(request).settings
    row = await service.get_or_404(session, principal, settings=settings, event_id=id)
    return json_response(render.event(row, pii=service.pii(principal)))
