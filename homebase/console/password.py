"""The member's own password (GET/POST /console/password): the current one, the new one
twice. The new one meets the policy (kit/password_policy.py); the change ends every other
console session of the member and keeps this one (docs/console.md)."""

import asyncio

from fastapi import APIRouter
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from homebase.console import signin
from homebase.console.common import member_page, member_session, posted_form, see_other, signed_in
from homebase.console.sessions import Member
from homebase.http.unauthenticated import request_client_address
from homebase.kit import password_policy, passwords
from homebase.kit.errors import AdminError
from homebase.runtime import get_runtime
from homebase.workspaces import members

router = APIRouter(include_in_schema=False)
PATH = "/console/password"


def _page(
    request: Request,
    member: Member,
    *,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    return member_page(
        request,
        member,
        "console/password.html",
        status,
        no_store=True,
        email=member.email,
        min_length=password_policy.MIN_LENGTH,
        errors=errors or [],
        notice=notice,
    )


@router.get(PATH)
async def password_page(request: Request, done: str | None = None) -> Response:
    member = await signed_in(request)
    notice = "Your password was changed." if done == "changed" else None
    return _page(request, member, notice=notice)


def _raw(form: FormData, name: str) -> str:
    """A password as typed: not trimmed (a space may be part of it)."""
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _form_errors(member: Member, current: str, new: str, confirm: str) -> list[str]:
    """What the form itself gets wrong, before any password hashing."""
    missing = [
        label
        for label, value in (
            ("current password", current),
            ("new password", new),
            ("new password again", confirm),
        )
        if not value
    ]
    if missing:
        return [f"Required: {', '.join(missing)}."]
    if new != confirm:
        return ["The new password and its repetition differ."]
    reason = password_policy.refusal(new, member.email)
    return [f"The new password {reason}."] if reason else []


@router.post(PATH)
async def change_password(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    current, new = _raw(form, "current_password"), _raw(form, "new_password")
    errors = _form_errors(member, current, new, _raw(form, "confirm_password"))
    if errors:
        return _page(request, member, errors=errors, status=400)
    # The sign-in's budget per email and address: a session cannot be used to guess the
    # current password faster than the sign-in form allows.
    runtime = get_runtime(request)
    wait = await signin.throttled(runtime, member.email, request_client_address(request))
    if wait is not None:
        response = _page(
            request,
            member,
            errors=[f"Too many attempts. Try again in {wait} seconds."],
            status=429,
        )
        response.headers["Retry-After"] = str(wait)
        return response
    async with member_session(request, member) as session:
        stored = [await members.stored_password(session, member.user_id)]
    if not (await asyncio.to_thread(passwords.verify_all, current, stored))[0]:
        return _page(request, member, errors=["The current password is incorrect."], status=400)
    try:
        async with member_session(request, member, write=True) as session:
            target = {"id": member.user_id, "email": member.email}
            await members.set_password(session, target, new, keep=member.session_id)
    except AdminError as refused:  # the policy, checked above; kept as the last word
        return _page(request, member, errors=[str(refused)], status=400)
    return see_other(f"{PATH}?done=changed")
