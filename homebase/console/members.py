"""The workspace's members in the console: name, email, office and team, whether routing
gives them leads, removed or not; newest first, 50 a page. What GET /v1/members lists
(homebase/members/), read the same way; a member sees every email (the console's
principal holds every scope). Members are added and removed by the operator
(`homebase admin create-user`, `remove-member`), so the page changes nothing."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import keyset_page, member_page, member_session, signed_in
from homebase.members import repository
from homebase.members.schemas import MemberFilters
from homebase.routing.service import routed_members

router = APIRouter(include_in_schema=False)
PATH = "/console/members"


@router.get(PATH)
async def list_members(request: Request) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        listing = repository.listing(session, MemberFilters())
        rows, older = await keyset_page(request, session, listing.page)
        routed = await routed_members(session)
    shown = [
        {**row, "takes_leads": row["removed_at"] is None and row["id"] in routed} for row in rows
    ]
    return member_page(request, member, "console/members.html", members=shown, older=older)
