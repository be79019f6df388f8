"""API keys in the console: list, create (the key shown once), revoke (a confirmation page,
then the POST).

Keys are made and revoked by homebase/auth/api_keys.py, as `homebase admin` does; this
module only reads the form and shows the result. Every lookup of a key by id goes through
the member's TenantSession first, so another workspace's key is a 404 page."""

from datetime import datetime
from typing import Any

from fastapi import APIRouter
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.api_keys import api_keys, create_api_key
from homebase.auth.scopes import ALL_SCOPES, DESCRIPTIONS, Scope, UnknownScope, parse_scopes
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
from homebase.http.pages import ConsolePageError
from homebase.kit.pagination import keyset
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
PATH = "/console/api-keys"
MAX_EXPIRY_DAYS = 3650


def key_status(row: dict[str, Any], now: datetime) -> str:
    if row["revoked_at"] is not None:
        return "revoked"
    if row["expires_at"] is not None and row["expires_at"] <= now:
        return "expired"
    return "active"


SCOPE_CHOICES = [(scope, DESCRIPTIONS[Scope(scope)]) for scope in ALL_SCOPES]


async def _page(
    request: Request,
    member: Member,
    *,
    values: dict[str, Any] | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    runtime = get_runtime(request)
    now = runtime.clock()
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request,
            session,
            lambda after, limit: keyset(session.select(api_keys), api_keys.c.id, after, limit),
        )
    defaults = {
        "name": "",
        "scopes": [],
        "expires_in_days": runtime.settings.api_key_default_ttl_days or 90,
    }
    return member_page(
        request,
        member,
        "console/api_keys.html",
        status,
        notice=notice,
        keys=[{**row, "status": key_status(row, now)} for row in rows],
        older=older,
        values=values or defaults,
        errors=errors or [],
        scopes=SCOPE_CHOICES,
        max_expiry_days=MAX_EXPIRY_DAYS,
    )


@router.get(PATH)
async def list_keys(request: Request, revoked: str | None = None) -> Response:
    member = await signed_in(request)
    return await _page(request, member, notice="The key was revoked." if revoked else None)


def _validated(form: FormData) -> tuple[dict[str, Any], list[str]]:
    """The form's values and one message per failing field."""
    scopes = [value for value in form.getlist("scopes") if isinstance(value, str)]
    values: dict[str, Any] = {
        "name": field(form, "name"),
        "expires_in_days": field(form, "expires_in_days"),
        "scopes": scopes,
    }
    errors = []
    if not values["name"] or len(values["name"]) > 120:
        errors.append("name: give a name of 1 to 120 characters.")
    try:
        days = int(values["expires_in_days"])
        if not 1 <= days <= MAX_EXPIRY_DAYS:
            raise ValueError
        values["days"] = days
    except ValueError:
        errors.append(f"expires_in_days: a whole number of days from 1 to {MAX_EXPIRY_DAYS}.")
    try:
        values["scopes"] = parse_scopes(scopes)
        if not values["scopes"]:
            errors.append("scopes: choose at least one scope.")
    except UnknownScope as error:
        errors.append(f"scopes: {error}.")
    return values, errors


@router.post(PATH)
async def create_key(request: Request) -> Response:
    member = await signed_in(request)
    values, errors = _validated(await posted_form(request, member))
    if errors:
        return await _page(request, member, values=values, errors=errors, status=400)
    async with member_session(request, member, write=True) as session:
        created = await create_api_key(
            session, scopes=values["scopes"], name=values["name"], expires_in_days=values["days"]
        )
    return member_page(request, member, "console/api_key_created.html", no_store=True, key=created)


@router.get(PATH + "/{key_id}/revoke")
async def confirm_revoke_key(request: Request, key_id: str) -> Response:
    """What revoking the key does, and the form that does it."""
    member = await signed_in(request)
    async with member_session(request, member) as session:
        key = await session.fetch_one(session.select(api_keys).where(api_keys.c.id == key_id))
        now = session.now()
    if key is None:
        raise ConsolePageError(404, "Not found", "No such API key.")
    return member_page(
        request,
        member,
        "console/confirm_revoke_key.html",
        key={**key, "status": key_status(key, now)},
    )


@router.post(PATH + "/{key_id}/revoke")
async def revoke_key(request: Request, key_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    async with member_session(request, member, write=True) as session:
        owned = await session.fetch_one(
            session.select(api_keys, api_keys.c.id).where(api_keys.c.id == key_id)
        )
        if owned is None:
            raise ConsolePageError(404, "Not found", "No such API key.")
        await session.execute(
            session.update(api_keys)
            .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
            .values(revoked_at=session.now())
        )
    return see_other(f"{PATH}?revoked=1")
