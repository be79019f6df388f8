"""OAuth in the console: the apps this workspace has authorized (connected apps: list,
revoke after a confirmation page) and the apps its members registered (OAuth apps:
register, list).

Registration and grants are homebase/oauth/service.py's; this module reads forms, keeps
the record of which workspace registered which app (console_oauth_apps, read through the
TenantSession), and shows the results."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

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
from homebase.kit.ids import new_id
from homebase.kit.pagination import keyset
from homebase.kit.statements import AnySelect
from homebase.models import ConsoleOAuthApp, OAuthClient
from homebase.oauth import service as oauth

router = APIRouter(include_in_schema=False)
CONNECTED = "/console/connected-apps"
APPS = "/console/oauth-apps"
registrations = ConsoleOAuthApp.__table__
clients = OAuthClient.__table__


@router.get(CONNECTED)
async def connected_apps(request: Request, revoked: str | None = None) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        grants = await oauth.list_workspace_grants(session)
    return member_page(
        request, member, "console/connected_apps.html", grants=grants, revoked=bool(revoked)
    )


@router.get(CONNECTED + "/{client_id}/revoke")
async def confirm_revoke_app(request: Request, client_id: str) -> Response:
    """What revoking the app's access does, and the form that does it."""
    member = await signed_in(request)
    async with member_session(request, member) as session:
        grants = await oauth.list_workspace_grants(session)
    grant = next((row for row in grants if row["client_id"] == client_id), None)
    if grant is None:
        raise ConsolePageError(404, "Not found", "This workspace has not authorized that app.")
    return member_page(request, member, "console/confirm_revoke_app.html", grant=grant)


@router.post(CONNECTED + "/{client_id}/revoke")
async def revoke_app(request: Request, client_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    async with member_session(request, member, write=True) as session:
        found = await oauth.revoke_grant(session, client_id)
        if not found:
            raise ConsolePageError(404, "Not found", "This workspace has not authorized that app.")
    return see_other(f"{CONNECTED}?revoked=1")


def _listing(session: TenantSession, after: str | None, limit: int) -> AnySelect:
    statement = (
        session.select(
            registrations,
            registrations.c.id,
            clients.c.id.label("client_id"),
            clients.c.name,
            clients.c.redirect_uris,
            clients.c.secret_hint,
            clients.c.created_at,
        )
        .join_from(registrations, clients, clients.c.id == registrations.c.client_id)
        .where(clients.c.revoked_at.is_(None))
    )
    return keyset(statement, registrations.c.id, after, limit)


async def _apps_page(
    request: Request,
    member: Member,
    *,
    name: str = "",
    uris: str = "",
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request, session, lambda after, limit: _listing(session, after, limit)
        )
    return member_page(
        request,
        member,
        "console/oauth_apps.html",
        status,
        apps=rows,
        older=older,
        name=name,
        uris=uris,
        errors=errors or [],
    )


@router.get(APPS)
async def oauth_apps(request: Request) -> Response:
    return await _apps_page(request, await signed_in(request))


@router.post(APPS)
async def register_app(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    name, uris_text = field(form, "name"), field(form, "redirect_uris")
    uris = [line.strip() for line in uris_text.splitlines() if line.strip()]
    try:
        async with member_session(request, member, write=True) as session:
            created = await oauth.register_client(session, name, redirect_uris=uris)
            await session.insert(
                registrations,
                {
                    "id": new_id("cap"),
                    "client_id": created.client_id,
                    "registered_by": member.user_id,
                    "created_at": session.now(),
                },
            )
    except oauth.InvalidClient as refused:
        return await _apps_page(
            request, member, name=name, uris=uris_text, errors=[str(refused)], status=400
        )
    return member_page(
        request, member, "console/oauth_app_registered.html", no_store=True, app=created
    )
