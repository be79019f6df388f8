"""Exports in the console: the list (status, rows, a fresh signed download link on every
view of a completed one, as GET /v1/exports/{id} issues) and a form to start one.

The rules are homebase/exports/service.py's, called with the member's principal (every
scope, so every list, unmasked); an ApiError it raises is shown on the page."""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.scopes import Scope
from homebase.console.common import (
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.sessions import Member
from homebase.console.webhooks import member_principal
from homebase.exports import repository, service
from homebase.exports.schemas import ExportCreate, ExportFormat, ExportObject
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError
from homebase.kit.validation import field_errors
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
PATH = "/console/exports"
REFRESH_SECONDS = 3
UNFINISHED = ("queued", "running")


async def _list_page(
    request: Request,
    member: Member,
    *,
    values: dict[str, str] | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    settings = get_runtime(request).settings
    principal = member_principal(member)
    objects = service.listed_objects(principal)
    pii = principal.has(Scope.contacts_read_pii)
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request,
            session,
            repository.listing(session, objects, pii=pii).page,
        )
        now = session.now()
        shown: list[dict[str, Any]] = [
            service.wire(
                row,
                settings.keys,
                public_url=settings.public_url,
                workspace_id=member.workspace_id,
                now=now,
            )
            for row in rows
        ]
    return member_page(
        request,
        member,
        "console/exports.html",
        status,
        notice=notice,
        exports=shown,
        older=older,
        objects=[item.value for item in ExportObject],
        formats=[item.value for item in ExportFormat],
        values=values or {"object": "contacts", "format": "csv"},
        errors=errors or [],
        refresh=REFRESH_SECONDS if any(row["status"] in UNFINISHED for row in shown) else None,
    )


@router.get(PATH)
async def list_exports(request: Request, started: str | None = None) -> Response:
    member = await signed_in(request)
    notice = "The export was started; its download link appears here when it is done."
    return await _list_page(request, member, notice=notice if started else None)


@router.post(PATH)
async def start_export(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    values = {"object": field(form, "object"), "format": field(form, "format")}
    try:
        body = ExportCreate.model_validate(values)
    except ValidationError as invalid:
        # `values`: the variant's tag is no member of the form (kit/validation.py).
        failed = field_errors(invalid.errors(), values)
        errors = [f"{item['field']}: {item['message']}" for item in failed]
        return await _list_page(request, member, values=values, errors=errors, status=400)
    try:
        async with member_session(request, member, write=True) as session:
            await service.create_export(session, member_principal(member), body=body)
    except ApiError as refused:
        return await _list_page(
            request, member, values=values, errors=[refused.message], status=refused.status
        )
    return see_other(f"{PATH}?started=1")


@router.get(PATH + "/{export_id}")
async def export_page(request: Request, export_id: str) -> Response:
    member = await signed_in(request)
    settings = get_runtime(request).settings
    async with member_session(request, member) as session:
        try:
            row = await service.get_export(session, member_principal(member), export_id=export_id)
        except ApiError as missing:
            raise ConsolePageError(missing.status, "Not found", missing.message) from None
        shown = service.wire(
            row,
            settings.keys,
            public_url=settings.public_url,
            workspace_id=member.workspace_id,
            now=session.now(),
        )
    return member_page(
        request,
        member,
        "console/export.html",
        export=shown,
        refresh=REFRESH_SECONDS if shown["status"] in UNFINISHED else None,
    )
