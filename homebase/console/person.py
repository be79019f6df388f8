"""A person's page in the console: the contact's fields and custom fields, stage, owner and
tags; whether the AI answers their texts (paused, since when and why) with Pause and
Resume; their timeline, 50 entries a page, newest first; and a note box.

Everything goes through what the API's endpoints call: contacts.service.get_or_404
(another workspace's contact is the same 404 page as an unknown id), switch_ai (POST
.../ai/pause and .../ai/resume), add_note (POST .../notes, which pauses the AI too), and
the timeline's listing (GET .../events). A call on the timeline links its recording with
a fresh five-minute signed link, as GET /v1/calls/{id} issues one."""

from typing import cast

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.scopes import Scope
from homebase.calls import recordings
from homebase.calls import repository as calls
from homebase.console.common import (
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.people import PATH, person_name
from homebase.console.sessions import Member
from homebase.console.webhooks import member_principal
from homebase.contacts import render, repository, service
from homebase.contacts.records import TimelineRecord
from homebase.contacts.schemas import NoteCreate
from homebase.db.tenancy import TenantSession
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError, NotFound
from homebase.members import repository as members
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
PERSON = PATH + "/{contact_id}"
# What a redirect after a form says on the page (?done=...).
NOTICES = {
    "paused": "The AI is paused: it will not answer this person's texts until resumed.",
    "resumed": "The AI answers this person's texts again.",
    "noted": "The note was added; it paused the AI, as every note does.",
}
# Why the AI stopped (contacts/service.py PAUSE_*, docs/ai.md), as the page says it.
PAUSE_REASONS = {
    "note": "a note was added",
    "human_message": "a person sent them a message",
    "handoff": "the AI handed the conversation to a person",
    "daily_limit": "the AI reached its daily limit of replies to them",
    "manual": "a member paused it",
    "opt_out": "they opted out by text (their START resumes it)",
}


class Entry(TimelineRecord):
    """A timeline entry as the page shows it: a call's with its recording's link."""

    recording_url: str | None


def _not_found(missing: NotFound) -> ConsolePageError:
    return ConsolePageError(404, "Not found", missing.message)


async def _timeline(
    request: Request, session: TenantSession, contact_id: str
) -> tuple[list[Entry], str | None]:
    """A page of the contact's timeline, each call with its recording's link (one query
    for the page's calls)."""
    listing = repository.timeline_listing(session, contact_id, None)
    found, older = await keyset_page(request, session, listing.page)
    rows = cast("list[TimelineRecord]", found)
    called = {str(row["data"].get("call_id")) for row in rows if row["type"] == "call"}
    recorded = await calls.recorded_among(session, called)
    settings = get_runtime(request).settings
    now = session.now()
    entries: list[Entry] = []
    for row in rows:
        call_id = row["data"].get("call_id") if row["type"] == "call" else None
        link = None
        if call_id in recorded:
            link = recordings.issue(
                settings.keys, settings.public_url, session.workspace_id, str(call_id), now
            ).url
        entries.append({**row, "recording_url": link})
    return entries, older


async def person_page(
    request: Request,
    member: Member,
    contact_id: str,
    *,
    status: int = 200,
    errors: list[str] | None = None,
    note: str = "",
) -> Response:
    pii = member_principal(member).has(Scope.contacts_read_pii)
    async with member_session(request, member) as session:
        try:
            row = await service.get_or_404(session, contact_id)
        except NotFound as missing:
            raise _not_found(missing) from None
        definitions = await service.definitions(session)
        contact = render.contact(row, pii=pii, custom=definitions)
        owner = await members.current_name(session, row["owner_id"]) if row["owner_id"] else None
        entries, older = await _timeline(request, session, contact_id)
    custom = [
        (definitions.by_key[key].label, value) for key, value in contact["custom_fields"].items()
    ]
    done = request.query_params.get("done", "")
    return member_page(
        request,
        member,
        "console/person.html",
        status,
        contact=contact,
        name=person_name(contact["first_name"], contact["last_name"]),
        owner=owner,
        custom=custom,
        pause_reason=PAUSE_REASONS.get(row["ai_paused_reason"] or "", row["ai_paused_reason"]),
        entries=entries,
        older=older,
        notice=NOTICES.get(done),
        errors=errors or [],
        note=note,
        action=f"{PATH}/{contact_id}",
    )


@router.get(PERSON)
async def show_person(request: Request, contact_id: str) -> Response:
    member = await signed_in(request)
    return await person_page(request, member, contact_id)


async def _switch(request: Request, contact_id: str, reason: str | None, done: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.switch_ai(session, contact_id, reason=reason)
    except NotFound as missing:
        raise _not_found(missing) from None
    except ApiError as refused:  # an erased contact: 409
        return await person_page(
            request, member, contact_id, status=refused.status, errors=[refused.message]
        )
    return see_other(f"{PATH}/{contact_id}?done={done}")


@router.post(PERSON + "/ai/pause")
async def pause_ai(request: Request, contact_id: str) -> Response:
    return await _switch(request, contact_id, service.PAUSE_MANUAL, "paused")


@router.post(PERSON + "/ai/resume")
async def resume_ai(request: Request, contact_id: str) -> Response:
    return await _switch(request, contact_id, None, "resumed")


@router.post(PERSON + "/notes")
async def add_note(request: Request, contact_id: str) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    typed = field(form, "body")
    try:
        body = NoteCreate.model_validate({"body": typed})
    except ValidationError:
        errors = ["body: write the note (at most 20,000 characters)."]
        return await person_page(request, member, contact_id, status=400, errors=errors, note=typed)
    try:
        async with member_session(request, member, write=True) as session:
            await service.add_note(session, contact_id, body=body.body)
    except NotFound as missing:
        raise _not_found(missing) from None
    except ApiError as refused:  # an erased contact: 409
        return await person_page(
            request, member, contact_id, status=refused.status, errors=[refused.message], note=typed
        )
    return see_other(f"{PATH}/{contact_id}?done=noted")
