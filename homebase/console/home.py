"""The console home page and its stylesheet."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import member_page, member_session, signed_in
from homebase.http.pages import STYLESHEET_PATH, stylesheet

router = APIRouter(include_in_schema=False)


@router.get(STYLESHEET_PATH)
async def console_stylesheet() -> Response:
    return stylesheet()


@router.get("/console")
async def home(request: Request) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        workspace = await session.workspace()
    return member_page(request, member, "console/home.html", workspace=workspace, member=member)
