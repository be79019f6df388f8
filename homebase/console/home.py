"""The console home page, the workspace's default phone region, and the stylesheet."""

from fastapi import APIRouter
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
from homebase.http.pages import STYLESHEET_PATH, stylesheet
from homebase.routing.policy import update_lead_policy
from homebase.workspaces.lead_policy import known_region, lead_policy

router = APIRouter(include_in_schema=False)
REGION_PATH = "/console/phone-region"
REGION = "default_phone_region"


@router.get(STYLESHEET_PATH)
async def console_stylesheet() -> Response:
    return stylesheet()


async def _home(
    request: Request,
    member: Member,
    *,
    region: str | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        workspace = await session.workspace()
        stored = (await lead_policy(session)).default_phone_region
    return member_page(
        request,
        member,
        "console/home.html",
        status,
        workspace=workspace,
        member=member,
        region=stored if region is None else region,
        errors=errors or [],
        notice=notice,
    )


@router.get("/console")
async def home(request: Request, saved: str | None = None) -> Response:
    member = await signed_in(request)
    return await _home(request, member, notice="The region was saved." if saved else None)


@router.post(REGION_PATH)
async def set_phone_region(request: Request) -> Response:
    """The workspace's default_phone_region (docs/leads.md, "Workspace settings"), as the
    `workspace_settings` fixture kind sets it; an unknown code is a 400 naming it."""
    member = await signed_in(request)
    form = await posted_form(request, member)
    value = field(form, REGION)
    try:
        region = known_region(value)
    except ValueError as refused:
        return await _home(
            request, member, region=value, errors=[f"{REGION}: {refused}"], status=400
        )
    async with member_session(request, member, write=True) as session:
        await update_lead_policy(session, {REGION: region})
    return see_other("/console?saved=1")
