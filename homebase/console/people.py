"""People in the console: the workspace's contacts, 50 a page, searched and filtered as
GET /v1/contacts searches and filters them (its `q`, stage, owner and tag), through the
same listing (contacts/repository.listing), so there is one query path for both.

A member holds every scope in their own workspace (console/webhooks.member_principal),
contacts:read:pii included: phones and emails are shown in full, as a member's export
writes them; another workspace's contacts are never read (the member's TenantSession)."""

from typing import cast

import orjson
from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.scopes import Scope
from homebase.console.common import keyset_page, member_page, member_session, signed_in
from homebase.console.webhooks import member_principal
from homebase.contacts import render, repository
from homebase.contacts.records import ContactPageRow
from homebase.contacts.schemas import Contact, ContactFilters, ContactStage
from homebase.custom_fields.definitions import Definitions
from homebase.kit.phones import DEFAULT_REGION
from homebase.kit.validation import field_errors
from homebase.members import repository as members
from homebase.members.records import MemberRecord
from homebase.workspaces.lead_policy import phone_region

router = APIRouter(include_in_schema=False)
PATH = "/console/people"
# The page's query: its form's names, and ContactFilters' member each fills.
QUERY = {"q": "q", "stage": "stage", "owner": "owner_id", "tag": "tag"}
# A list page shows no custom field: their definitions need not be read.
_NO_CUSTOM = Definitions("contacts")


def person_name(first_name: str | None, last_name: str | None) -> str:
    """What the console calls a contact: first and last name, else "(no name)"."""
    return " ".join(part for part in (first_name, last_name) if part) or "(no name)"


def owner_names(roster: list[MemberRecord]) -> dict[str, str]:
    return {row["id"]: row["name"] or row["email"] for row in roster}


@router.get(PATH)
async def list_people(request: Request) -> Response:
    member = await signed_in(request)
    values = {name: request.query_params.get(name, "").strip() for name in QUERY}
    sent = {QUERY[name]: value for name, value in values.items() if value}
    pii = member_principal(member).has(Scope.contacts_read_pii)
    errors: list[str] = []
    try:
        filters = ContactFilters.model_validate(sent)
    except ValidationError as invalid:
        failed = field_errors(invalid.errors(), sent)
        errors = [f"{item['field']}: {item['message']}" for item in failed]
        filters = None
    people: list[Contact] = []
    older = None
    async with member_session(request, member) as session:
        roster = await members.roster(session)
        if filters is not None:
            region = await phone_region(session) if filters.q else DEFAULT_REGION
            listing = repository.listing(session, filters, pii=pii, region=region)
            shown = {name: value for name, value in values.items() if value}
            rows, older = await keyset_page(request, session, listing.page, filters=shown)
            item = render.list_item(pii=pii, stored=session.dialect == "sqlite", custom=_NO_CUSTOM)
            for row in cast("list[ContactPageRow]", rows):
                tags = row["tags"]  # read first: the render makes the row the Contact
                person = item(row)
                # tags as the database hands them: JSON text on SQLite (render.list_item)
                if isinstance(tags, str):
                    person["tags"] = orjson.loads(tags)
                people.append(person)
    return member_page(
        request,
        member,
        "console/people.html",
        400 if errors else 200,
        people=[
            (person, person_name(person["first_name"], person["last_name"])) for person in people
        ],
        owners=owner_names(roster),
        older=older,
        values=values,
        errors=errors,
        stages=[stage.value for stage in ContactStage],
        members=[row for row in roster if row["removed_at"] is None],
        filtered=any(values.values()),
    )
