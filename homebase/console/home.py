"""The console home page and its stylesheet."""

from fastapi import APIRouter
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import member_page, signed_in
from homebase.console.pages import STYLESHEET_PATH, stylesheet
from homebase.models import Workspace
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
workspaces = Workspace.__table__


@router.get(STYLESHEET_PATH)
async def console_stylesheet() -> Response:
    return stylesheet()


@router.get("/console")
async def home(request: Request) -> Response:
    member = await signed_in(request)
    runtime = get_runtime(request)
    async with runtime.db.transaction(write=False) as connection:
        workspace = (
            await connection.execute(
                select(workspaces.c.name, workspaces.c.status).where(
                    workspaces.c.id == member.workspace_id
                )
            )
        ).one()
    return member_page(request, member, "console/home.html", workspace=workspace, member=member)
