"""The console home page and its stylesheet."""

from fastapi import APIRouter
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import member_page, signed_in
from homebase.console.pages import STYLESHEET_PATH, e, stylesheet
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
        workspace = (await connection.execute(
            select(workspaces.c.name, workspaces.c.status)
            .where(workspaces.c.id == member.workspace_id))).one()
    body = (f"<p>Workspace: <strong>{e(workspace.name)}</strong> "
            f"(<code>{e(member.workspace_id)}</code>, {e(workspace.status)})</p>"
            f"<p>Signed in as {e(member.name)} &lt;{e(member.email)}&gt;.</p>"
            "<ul><li><a href=\"/console/api-keys\">API keys</a>: keys for your own scripts"
            " and integrations</li>"
            "<li><a href=\"/console/connected-apps\">Connected apps</a>: applications this"
            " workspace has authorized</li>"
            "<li><a href=\"/console/oauth-apps\">OAuth apps</a>: register an application"
            "</li><li><a href=\"/console/webhooks\">Webhooks</a>: subscriptions and their"
            " delivery logs</li></ul>")
    return member_page(request, member, "Console", body)
