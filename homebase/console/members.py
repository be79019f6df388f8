"""The workspace's members in the console: name, email, office and team, whether routing
gives them leads, removed or not; newest first, 50 a page. What GET /v1/members lists
(homebase/members/), read the same way; a member sees every email of their own workspace
(the console's principal holds every scope).

v1 has no roles, so any member may invite someone (workspaces/invitations.py: a one-time
link, emailed and shown once here) and remove another member
(workspaces.members.remove_member, what `homebase admin remove-member` runs). A member
cannot remove themselves here: the operator's command can, and a workspace whose last
member removed themselves would have nobody left to sign in."""

from datetime import datetime, timedelta
from typing import cast

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response
from typing_extensions import TypedDict

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
from homebase.db.tenancy import TenantSession
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError
from homebase.members import repository
from homebase.members.schemas import MemberFilters
from homebase.models import User
from homebase.routing.service import routed_members
from homebase.runtime import get_runtime
from homebase.workspaces import invitations, members

router = APIRouter(include_in_schema=False)
PATH = "/console/members"
users = User.__table__
NOTICES = {"removed": "The member was removed."}


class Invited(TypedDict):
    """What the page shows, once, after an invitation: its link and whether it was
    emailed."""

    email: str
    url: str
    expires_at: datetime
    emailed: bool
    error: str | None


class Removable(TypedDict):
    id: str
    email: str
    name: str
    created_at: datetime


async def _page(
    request: Request,
    member: Member,
    *,
    status: int = 200,
    notice: str | None = None,
    errors: list[str] | None = None,
    values: dict[str, str] | None = None,
    invited: Invited | None = None,
) -> Response:
    async with member_session(request, member) as session:
        listing = repository.listing(session, MemberFilters())
        rows, older = await keyset_page(request, session, listing.page)
        routed = await routed_members(session)
        pending = await invitations.pending(session)
    shown = [
        {**row, "takes_leads": row["removed_at"] is None and row["id"] in routed} for row in rows
    ]
    return member_page(
        request,
        member,
        "console/members.html",
        status,
        no_store=invited is not None,  # the page holds the invitation's link
        members=shown,
        older=older,
        pending=pending,
        me=member.user_id,
        notice=notice,
        errors=errors or [],
        values=values or {"email": "", "name": ""},
        invited=invited,
        ttl_hours=f"{get_runtime(request).settings.member_invitation_ttl_hours:g}",
    )


@router.get(PATH)
async def list_members(request: Request, done: str | None = None) -> Response:
    member = await signed_in(request)
    return await _page(request, member, notice=NOTICES.get(done or ""))


@router.post(PATH + "/invite")
async def invite_member(request: Request) -> Response:
    """The invitation is made and committed, then emailed (outside any transaction); the
    link is shown on this answer, once (no-store)."""
    member = await signed_in(request)
    form = await posted_form(request, member)
    values = {name: field(form, name) for name in ("email", "name")}
    runtime = get_runtime(request)
    settings = runtime.settings
    try:
        async with member_session(request, member, write=True) as session:
            made = await invitations.invite(
                session,
                email=values["email"],
                name=values["name"],
                invited_by=member.user_id,
                valid_for=timedelta(hours=settings.member_invitation_ttl_hours),
            )
            workspace = await session.workspace()
    except ApiError as refused:
        items = (refused.details or {}).get("errors", [])
        errors = [f"{item['field']}: {item['message']}" for item in items] or [refused.message]
        return await _page(request, member, status=refused.status, errors=errors, values=values)
    url = invitations.link(settings, made["token"])
    sent = await invitations.send_email(
        settings,
        invitation=made["invitation"],
        url=url,
        workspace=workspace["name"] if workspace else "",
        inviter=member.name or member.email,
    )
    invited: Invited = {
        "email": made["invitation"]["email"],
        "url": url,
        "expires_at": made["invitation"]["expires_at"],
        "emailed": sent.accepted,
        "error": sent.error,
    }
    return await _page(request, member, invited=invited)


async def _removable(session: TenantSession, member: Member, user_id: str) -> Removable:
    row = await session.fetch_one(
        session.select(users, users.c.id, users.c.email, users.c.name, users.c.created_at).where(
            users.c.id == user_id, users.c.removed_at.is_(None)
        )
    )
    if row is None:
        raise ConsolePageError(404, "Not found", "No such member.")
    if row["id"] == member.user_id:
        raise ConsolePageError(
            409,
            "Not allowed",
            "You cannot remove yourself here; another member, or the operator "
            "(homebase admin remove-member), can.",
        )
    return cast(Removable, row)


@router.get(PATH + "/{user_id}/remove")
async def confirm_remove_member(request: Request, user_id: str) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        row = await _removable(session, member, user_id)
    return member_page(request, member, "console/confirm_remove_member.html", row=row)


@router.post(PATH + "/{user_id}/remove")
async def remove_member(request: Request, user_id: str) -> Response:
    """`homebase admin remove-member`'s service, in the member's transaction."""
    member = await signed_in(request)
    await posted_form(request, member)
    async with member_session(request, member, write=True) as session:
        row = await _removable(session, member, user_id)
        await members.remove_member(session, {"id": row["id"], "email": row["email"]})
    return see_other(f"{PATH}?done=removed")
