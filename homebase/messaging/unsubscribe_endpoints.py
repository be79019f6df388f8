"""GET and POST /unsubscribe/{token}: where an email's List-Unsubscribe link leads (RFC 8058).

Outside /v1 and without a credential: the sealed token (messaging/unsubscribe.py) is the
authority and names the workspace, the address and the email. POST suppresses the address
for email in that workspace and answers the "done" page; it is what a mailbox provider's
one-click sends (body `List-Unsubscribe=One-Click`, form-encoded), and an empty body or any
other body within HOMEBASE_MAX_BODY_BYTES is accepted alike. It is idempotent: a repeat
changes nothing. GET never changes anything (link scanners and prefetchers follow GETs); it
shows a page whose button posts the same body. No CSRF token: a forged cross-site POST can
only do what the link's holder can already do, once, harmlessly.

A token that does not open (malformed, altered, sealed under a key no longer configured) is
the "invalid" page with 404, never an error of the API's shape and never counted against
the client address's unauthenticated budget: it is not a failed sign-in. Every answer is an
HTML page with the console's security headers, not cached (the URL is a capability).
Not in the OpenAPI document, like the other HTML pages (console, OAuth consent).
"""

from urllib.parse import parse_qsl

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import HTMLResponse

from homebase.db.tenancy import TenantSession
from homebase.http.pages import html_page
from homebase.messaging import unsubscribe
from homebase.messaging.render import mask_address
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
TEMPLATE = "unsubscribe.html"
_MAX_FIELDS = 10


def _page(
    state: str,
    status: int = 200,
    *,
    address: str | None = None,
    sender: str | None = None,
    action: str | None = None,
) -> HTMLResponse:
    return html_page(
        TEMPLATE,
        status,
        no_store=True,
        state=state,
        address=address,
        sender=sender,
        action=action,
    )


def _invalid() -> HTMLResponse:
    return _page("invalid", 404)


def _how(body: bytes) -> str:
    """How the POST came, kept as evidence: one_click (RFC 8058's body), page (the page's
    button, which sends that body and via=page) or post (anything else)."""
    try:
        fields = dict(parse_qsl(body.decode("utf-8", "replace"), max_num_fields=_MAX_FIELDS))
    except ValueError:  # more fields than any form of ours sends
        return "post"
    if fields.get("via") == "page":
        return "page"
    return "one_click" if fields.get("List-Unsubscribe") == "One-Click" else "post"


@router.get(unsubscribe.PATH + "/{token}")
async def show_unsubscribe_page(request: Request, token: str) -> HTMLResponse:
    runtime = get_runtime(request)
    claim = unsubscribe.verify(runtime.settings.keys, token)
    if claim is None:
        return _invalid()
    async with runtime.db.transaction(write=False) as connection:
        workspace = await TenantSession(connection, claim.workspace_id).workspace()
    if workspace is None:
        return _invalid()
    return _page(
        "confirm",
        address=mask_address(claim.address),
        sender=workspace["name"],
        action=request.url.path,
    )


@router.post(unsubscribe.PATH + "/{token}")
async def unsubscribe_email(request: Request, token: str) -> HTMLResponse:
    runtime = get_runtime(request)
    how = _how(await request.body())  # read whole, so the body limit applies
    claim = unsubscribe.verify(runtime.settings.keys, token)
    if claim is None:
        return _invalid()
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claim.workspace_id, clock=runtime.clock)
        workspace = await session.workspace()
        if workspace is None:
            return _invalid()
        await unsubscribe.suppress(session, claim, how)
    return _page("done", address=mask_address(claim.address), sender=workspace["name"])
