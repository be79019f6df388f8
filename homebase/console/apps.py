"""OAuth in the console: the apps this workspace has authorized (connected apps: list,
revoke) and the apps its members registered (OAuth apps: register, list).

Registration and grants are homebase/oauth/service.py's; this module reads forms, keeps
the record of which workspace registered which app (console_oauth_apps, read through the
TenantSession), and shows the results."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import (
    csrf_input,
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.pages import ConsolePageError, e, message_box
from homebase.console.sessions import Member
from homebase.kit.clock import isoformat
from homebase.kit.ids import new_id
from homebase.kit.pagination import keyset
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
        grants = await oauth.list_workspace_grants(session.connection, member.workspace_id)
    lines = "".join(
        f"<tr id=\"{e(grant['client_id'])}\"><td>{e(grant['client_name'])}<br>"
        f"<code>{e(grant['client_id'])}</code></td><td>{e(' '.join(grant['scopes']))}</td>"
        f"<td>{e(grant['created_at'])}</td><td><form method=\"post\" "
        f"action=\"{CONNECTED}/{e(grant['client_id'])}/revoke\">{csrf_input(request, member)}"
        "<button type=\"submit\">Revoke access</button></form></td></tr>" for grant in grants)
    table = ("<table><thead><tr><th>App</th><th>Scopes</th><th>Authorized</th><th></th></tr>"
             f"</thead><tbody>{lines}</tbody></table>" if grants
             else "<p>No app has access to this workspace.</p>")
    notice = message_box("The app's access was revoked: its tokens no longer work and the "
                         "webhook subscriptions it created have ended."
                         if revoked else None, "notice")
    explain = ("<p>Revoking an app ends its tokens and every webhook subscription it created "
               "in this workspace; deliveries not yet made are cancelled.</p>" if grants else "")
    return member_page(request, member, "Connected apps", notice + explain + table)


@router.post(CONNECTED + "/{client_id}/revoke")
async def revoke_app(request: Request, client_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    async with member_session(request, member, write=True) as session:
        found = await oauth.revoke_grant(session.connection, member.workspace_id, client_id,
                                         session.now())
        if not found:
            raise ConsolePageError(404, "Not found", "This workspace has not authorized that app.")
    return see_other(f"{CONNECTED}?revoked=1")


def _register_form(request: Request, member: Member, name: str, uris: str,
                   errors: list[str]) -> str:
    return ("<h2>Register an app</h2>" + "".join(message_box(text) for text in errors)
            + f"<form method=\"post\" action=\"{APPS}\">{csrf_input(request, member)}"
            "<label>Name <input type=\"text\" name=\"name\" maxlength=\"120\" required "
            f"value=\"{e(name)}\"></label><label>Redirect URIs (one per line) "
            f"<textarea name=\"redirect_uris\" rows=\"3\" required>{e(uris)}</textarea></label>"
            "<button type=\"submit\">Register</button></form>")


def _listing(session, after: str | None, limit: int):
    statement = (session.select(registrations, registrations.c.id, clients.c.id.label("client_id"),
                                clients.c.name, clients.c.redirect_uris, clients.c.secret_hint,
                                clients.c.created_at)
                 .join_from(registrations, clients, clients.c.id == registrations.c.client_id)
                 .where(clients.c.revoked_at.is_(None)))
    return keyset(statement, registrations.c.id, after, limit)


async def _apps_page(request: Request, member: Member, *, name: str = "", uris: str = "",
                     errors: list[str] | None = None, status: int = 200) -> Response:
    async with member_session(request, member) as session:
        rows, older = await keyset_page(request, session,
                                        lambda after, limit: _listing(session, after, limit))
    lines = "".join(
        f"<tr id=\"{e(row['client_id'])}\"><td>{e(row['name'])}</td>"
        f"<td><code>{e(row['client_id'])}</code></td>"
        f"<td>{'<br>'.join(e(uri) for uri in row['redirect_uris'])}</td>"
        f"<td><code>{e(row['secret_hint'])}…</code></td>"
        f"<td>{e(isoformat(row['created_at']))}</td></tr>" for row in rows)
    table = ("<table><thead><tr><th>Name</th><th>Client id</th><th>Redirect URIs</th>"
             f"<th>Secret</th><th>Registered</th></tr></thead><tbody>{lines}</tbody></table>"
             if rows else "<p>No apps registered from this workspace.</p>")
    body = table + older + _register_form(request, member, name, uris, errors or [])
    return member_page(request, member, "OAuth apps", body, status)


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
            created = await oauth.create_client(session.connection, name, uris, session.now())
            await session.insert(registrations, {
                "id": new_id("cap"), "client_id": created.client_id,
                "registered_by": member.user_id, "created_at": session.now()})
    except oauth.InvalidClient as refused:
        return await _apps_page(request, member, name=name, uris=uris_text,
                                errors=[str(refused)], status=400)
    body = ("<p>The app is registered. Copy the client secret now: it is shown only once."
            f"</p><p>Client id: <code id=\"client-id\">{e(created.client_id)}</code></p>"
            f"<p class=\"secret\" id=\"client-secret\">{e(created.client_secret)}</p>"
            f"<p><a href=\"{APPS}\">Back to OAuth apps</a></p>")
    return member_page(request, member, "OAuth app registered", body, no_store=True)

