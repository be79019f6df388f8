"""Custom fields in the console: the workspace's live fields of each object (key, label,
type, choices), create and delete (a confirmation page, then the POST).

The rules (key pattern, types and choices, 100 live fields an object, a key taken, the
values purged in the background) are homebase/custom_fields/service.py's; a refusal is
shown on the page, with the transaction rolled back."""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import (
    field,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.sessions import Member
from homebase.custom_fields import repository, service
from homebase.custom_fields.schemas import CustomFieldCreate, CustomFieldObject, CustomFieldType
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError, NotFound
from homebase.kit.validation import field_errors

router = APIRouter(include_in_schema=False)
PATH = "/console/custom-fields"
OBJECTS = [item.value for item in CustomFieldObject]
TYPES = [item.value for item in CustomFieldType]
EMPTY = {"object": "contacts", "key": "", "label": "", "type": "text", "choices": ""}
SELECTS = (CustomFieldType.single_select.value, CustomFieldType.multi_select.value)


async def _page(
    request: Request,
    member: Member,
    *,
    values: dict[str, str] | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        fields = {name: await repository.live(session, name) for name in OBJECTS}
    return member_page(
        request,
        member,
        "console/custom_fields.html",
        status,
        notice=notice,
        fields=fields,
        objects=OBJECTS,
        types=TYPES,
        values=values or EMPTY,
        errors=errors or [],
    )


@router.get(PATH)
async def custom_fields_page(request: Request, done: str | None = None) -> Response:
    member = await signed_in(request)
    notices = {"created": "The field was created.", "deleted": "The field was deleted."}
    return await _page(request, member, notice=notices.get(done or ""))


def _body(values: dict[str, str]) -> dict[str, Any]:
    """The API's body: choices one per line, sent only for a select (the API refuses
    them for the other types, and a form always posts the box)."""
    body: dict[str, Any] = {key: values[key] for key in ("object", "key", "label", "type")}
    lines = [line.strip() for line in values["choices"].splitlines() if line.strip()]
    if values["type"] in SELECTS or lines:
        body["choices"] = lines
    return body


@router.post(PATH)
async def create_custom_field(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    values = {name: field(form, name) for name in ("object", "key", "label", "type", "choices")}
    sent = _body(values)
    try:
        body = CustomFieldCreate.model_validate(sent).root
    except ValidationError as invalid:
        items = field_errors(invalid.errors(), sent)
        errors = [f"{item['field']}: {item['message']}" for item in items]
        return await _page(request, member, values=values, errors=errors, status=400)
    try:
        async with member_session(request, member, write=True) as session:
            await service.create_field(session, body)
    except ApiError as refused:
        errors = [refused.message] + [
            f"{item['field']}: {item['message']}"
            for item in (refused.details or {}).get("errors", [])
        ]
        return await _page(request, member, values=values, errors=errors, status=refused.status)
    return see_other(f"{PATH}?done=created")


@router.get(PATH + "/{field_id}/delete")
async def confirm_delete_custom_field(request: Request, field_id: str) -> Response:
    """What deleting the field does, and the form that does it."""
    member = await signed_in(request)
    async with member_session(request, member) as session:
        row = await repository.get_live(session, field_id)
    if row is None:
        raise ConsolePageError(404, "Not found", "No such custom field.")
    return member_page(request, member, "console/confirm_delete_field.html", row=row)


@router.post(PATH + "/{field_id}/delete")
async def delete_custom_field(request: Request, field_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.delete_field(session, field_id)
    except NotFound as missing:
        raise ConsolePageError(404, "Not found", missing.message) from None
    return see_other(f"{PATH}?done=deleted")
