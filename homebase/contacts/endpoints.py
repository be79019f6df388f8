from typing import Annotated, cast

from fastapi import Depends, Path
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.contacts import render, repository, service
from homebase.contacts.records import ContactRecord
from homebase.contacts.schemas import (
    Contact,
    ContactCreate,
    ContactFilters,
    ContactUpdate,
    ContactWritten,
    Erased,
    Event,
    NoteCreate,
)
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import CUSTOM_FILTERS, Definitions
from homebase.db.tenancy import TenantSession
from homebase.erasure import service as erasure
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.clock import isoformat
from homebase.kit.fields import Projection, field_selector
from homebase.kit.listquery import ListQuery, ListQueryParser
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, ErrorEnvelope, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.phones import DEFAULT_REGION
from homebase.kit.responses import Sent, respond
from homebase.kit.write_warnings import phone_warnings
from homebase.workspaces.lead_policy import phone_region

router = v1_router(prefix="/contacts", tags=["contacts"])

ContactsRead = Annotated[Principal, require(Scope.contacts_read)]
ContactsWrite = Annotated[Principal, require(Scope.contacts_write)]
EventsRead = Annotated[Principal, require(Scope.events_read)]
ContactFields = Annotated[Projection, Depends(field_selector(Contact))]
EventFields = Annotated[Projection, Depends(field_selector(Event))]
Pages = Annotated[PageRequest, Depends(page_request)]
ContactId = Annotated[
    str,
    Path(
        description="The contact's id. An unknown id and another workspace's id both answer 404.",
        examples=["con_01jd3v6k8h2k3m4n5p6q7r8s9t"],
    ),
]


# Every write addressed to a contact by its path (service.writable): once DELETE erased
# it, 409 contact_erased. A sub-resource added later declares these too
# (tests/contacts/test_erased_contact.py walks the routes).
WRITE_ERRORS = {
    **error_responses(*ONE_ERRORS),
    409: {
        "model": ErrorEnvelope,
        "description": "The contact's personal data was erased by DELETE; it takes no new "
        "data (contact_erased, details.contact_id).",
    },
}


def _pii(principal: Principal) -> bool:
    return principal.has(Scope.contacts_read_pii)


async def _render(session: TenantSession, row: ContactRecord, principal: Principal) -> Contact:
    return render.contact(row, pii=_pii(principal), custom=await service.definitions(session))


# The hottest list: its query string is one dependency (kit/listquery.py).
_contacts_query = ListQueryParser(Contact, ContactFilters, CUSTOM_FILTERS)
ContactsQuery = Annotated[ListQuery, Depends(_contacts_query)]


@router.get(
    "",
    response_model=Page[Contact],
    summary="List contacts",
    response_description="A page of contacts, newest first.",
    description="Newest first. Filters combine with AND. "
    + CUSTOM_FILTERS.description
    + CHANGES_NOTE
    + " With `q` too, the changed contacts that match it (the search's rule), tested one "
    "by one along the walk.",
    responses=error_responses(*READ_ERRORS),
    openapi_extra={"parameters": _contacts_query.parameters},
)
async def list_contacts(
    request: Request, principal: ContactsRead, session: Tenant, query: ContactsQuery
) -> Sent[PageBody[Contact]]:
    pii, filters, fields = _pii(principal), query.filters, query.fields
    listing = await custom.ListFields.read(session, "contacts", query.prefixed)
    # how `q` reads as a phone number (contacts/search.py)
    region = await phone_region(session) if filters.q else DEFAULT_REGION
    by_custom = listing.by_custom
    item = render.list_item(pii=pii, stored=session.dialect == "sqlite", custom=listing.page)
    return await paginate(
        request,
        session,
        query.page,
        repository.listing(session, filters, pii=pii, custom=by_custom, region=region),
        filters=listing.keyed(filters),
        updated_after=filters.updated_after,
        render=item,
        fields=fields,
        prepare=listing.prepare,
    )


async def _written(
    session: TenantSession,
    row: ContactRecord,
    principal: Principal,
    phone: str | None,
    *,
    custom: Definitions,
) -> ContactWritten:
    # a Contact is a ContactWritten without its warnings (a fresh dict: one is added)
    payload = cast(ContactWritten, render.contact(row, pii=_pii(principal), custom=custom))
    if phone and (warnings := phone_warnings(phone, await phone_region(session))):
        payload["warnings"] = warnings
    return payload


_WARNED = (
    " A phone that is not a valid number is kept as sent and named in `warnings` "
    "(phone_not_valid), sent only then, whatever `fields` names."
)


@router.post(
    "",
    status_code=201,
    response_model=ContactWritten,
    summary="Create a contact",
    response_description="The new contact.",
    description=_WARNED.strip(),
    responses=error_responses(*READ_ERRORS),
)
async def create_contact(
    body: ContactCreate, principal: ContactsWrite, session: Tenant, fields: ContactFields
) -> Sent[ContactWritten]:
    definitions = await service.definitions(session, sent=body.custom_fields)
    row = await service.create_contact(session, body, fields=definitions)
    payload = await _written(session, row, principal, body.phone, custom=definitions)
    return respond(payload, _with_warnings(fields), 201)


@router.get(
    "/{id}",
    response_model=Contact,
    summary="Retrieve a contact",
    response_description="The contact.",
    responses=error_responses(*ONE_ERRORS),
)
async def get_contact(
    id: ContactId, principal: ContactsRead, session: Tenant, fields: ContactFields
) -> Sent[Contact]:
    row = await service.get_or_404(session, id)
    return respond(await _render(session, row, principal), fields)


@router.patch(
    "/{id}",
    response_model=ContactWritten,
    summary="Update a contact",
    response_description="The contact as updated.",
    description="409 contact_erased once the contact's data was erased (DELETE)." + _WARNED,
    responses=WRITE_ERRORS,
)
async def update_contact(
    id: ContactId,
    body: ContactUpdate,
    principal: ContactsWrite,
    session: Tenant,
    fields: ContactFields,
) -> Sent[ContactWritten]:
    definitions = await service.definitions(session)
    row = await service.update_contact(session, id, patch=body, fields=definitions)
    payload = await _written(session, row, principal, body.phone, custom=definitions)
    return respond(payload, _with_warnings(fields))


def _with_warnings(fields: Projection) -> Projection:
    """`fields` names the contact's members: `warnings`, when there are any, is sent."""
    return lambda sent: (
        {**fields(sent), "warnings": sent["warnings"]} if "warnings" in sent else fields(sent)
    )


@router.delete(
    "/{id}",
    response_model=Erased,
    summary="Erase a contact's personal data",
    response_description="The contact was anonymized (now or by an earlier DELETE).",
    description="Anonymizes in place: names, email, phone, notes and the titles and "
    "bodies of the contact's activity are scrubbed. The contact and "
    "everything linked to it remain. Repeating it scrubs again and returns the same "
    "(anonymized_at is the first erasure's).",
    responses=error_responses(*ONE_ERRORS),
)
async def delete_contact(id: ContactId, principal: ContactsWrite, session: Tenant) -> Sent[Erased]:
    row = await erasure.erase_contact(session, id)
    erased_at = row["anonymized_at"]
    assert erased_at is not None  # the erasure set it, now or before
    return respond({"id": row["id"], "anonymized": True, "anonymized_at": isoformat(erased_at)})


async def _timeline(
    request: Request,
    session: TenantSession,
    id: str,
    page: PageRequest,
    fields: Projection,
    event_type: str | None,
) -> Sent[PageBody[Event]]:
    await service.get_or_404(session, id)
    listing = repository.timeline_listing(session, id, event_type)
    return await paginate(
        request,
        session,
        page,
        listing,
        filters={"type": event_type},
        render=render.event,
        fields=fields,
    )


@router.get(
    "/{id}/events",
    response_model=Page[Event],
    summary="List a contact's timeline",
    response_description="A page of the contact's timeline entries, newest first.",
    responses=error_responses(*ONE_ERRORS),
)
async def list_contact_events(
    request: Request,
    id: ContactId,
    principal: EventsRead,
    session: Tenant,
    page: Pages,
    fields: EventFields,
) -> Sent[PageBody[Event]]:
    return await _timeline(request, session, id, page, fields, None)


@router.get(
    "/{id}/notes",
    response_model=Page[Event],
    summary="List a contact's notes",
    response_description="A page of the contact's notes, newest first.",
    responses=error_responses(*ONE_ERRORS),
)
async def list_contact_notes(
    request: Request,
    id: ContactId,
    principal: EventsRead,
    session: Tenant,
    page: Pages,
    fields: EventFields,
) -> Sent[PageBody[Event]]:
    return await _timeline(request, session, id, page, fields, "note")


@router.post(
    "/{id}/notes",
    status_code=201,
    response_model=Event,
    summary="Add a note",
    response_description="The note.",
    description="Also pauses the contact's AI auto-response (ai_auto_response_paused "
    "on the contact, reason note, unless already paused; POST .../ai/resume resumes it). "
    "409 contact_erased once the contact's data was erased (DELETE).",
    responses=WRITE_ERRORS,
)
async def add_contact_note(
    id: ContactId, body: NoteCreate, principal: ContactsWrite, session: Tenant, fields: EventFields
) -> Sent[Event]:
    event = await service.add_note(session, id, body=body.body)
    return respond(render.event(event), fields, 201)


# The contact's AI switch. What pauses the AI, and what resuming means (docs/ai.md).
_PAUSES = (
    "The AI stops answering a contact's texts when a person steps in, or stops itself; "
    "ai_auto_response_paused_reason says why: a note was added (`note`), a person sent "
    "the contact a message through POST /v1/messages (`human_message`), the AI handed "
    "the conversation to a person (`handoff`), the AI reached its cap of replies to the "
    "contact in 24 hours (`daily_limit`), POST .../ai/pause (`manual`), or the contact "
    "opted out by text (`opt_out`), which their START resumes. "
)
_SWITCH = (
    "contact.updated names the three ai_auto_response_paused* members. Takes no body (one "
    "sent is ignored). 409 contact_erased once the contact's data was erased (DELETE)."
)


@router.post(
    "/{id}/ai/pause",
    response_model=Contact,
    summary="Pause the contact's AI auto-response",
    response_description="The contact, its AI paused.",
    description=_PAUSES + "Idempotent: a contact already paused keeps its reason and time "
    "and nothing is emitted; otherwise " + _SWITCH,
    responses=WRITE_ERRORS,
)
async def pause_contact_ai(
    id: ContactId, principal: ContactsWrite, session: Tenant, fields: ContactFields
) -> Sent[Contact]:
    row = await service.switch_ai(session, id, reason=service.PAUSE_MANUAL)
    return respond(await _render(session, row, principal), fields)


@router.post(
    "/{id}/ai/resume",
    response_model=Contact,
    summary="Resume the contact's AI auto-response",
    response_description="The contact, its AI answering again.",
    description=_PAUSES + "Resuming clears the pause, its time and its reason, whatever "
    "paused it. Idempotent: resuming a contact whose AI is not paused emits nothing; "
    "otherwise " + _SWITCH,
    responses=WRITE_ERRORS,
)
async def resume_contact_ai(
    id: ContactId, principal: ContactsWrite, session: Tenant, fields: ContactFields
) -> Sent[Contact]:
    row = await service.switch_ai(session, id, reason=None)
    return respond(await _render(session, row, principal), fields)
