"""An invitation's link (GET/POST /console/invitations/{token}): the invitee, who has no
session yet, sets a password under the policy (kit/password_policy.py) and becomes a
member of the workspace that invited them (workspaces/invitations.py); the page then
sends them to sign in. The token finds its invitation, so its workspace, by its SHA-256,
before anyone is signed in. An unknown token counts against the address's
unauthenticated budget (http/unauthenticated.py), as a failed sign-in does.

The form carries a CSRF token keyed to the invitation's token (HMAC under the service
key, as every console form's), and a POST whose Origin names another site is refused:
a page of another site cannot submit it."""

from typing import cast

from fastapi import APIRouter
from sqlalchemy import bindparam, select
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import refuse_nul
from homebase.console.sessions import CSRF_FIELD, LOGIN_PATH, CsrfRefused, check_origin
from homebase.db.tenancy import TenantSession, across_workspaces
from homebase.http.pages import ConsolePageError, html_page
from homebase.http.unauthenticated import count_failure, over_budget
from homebase.kit import password_policy
from homebase.kit.crypto import keyed_token, keyed_token_matches, token_hash
from homebase.kit.errors import AdminError
from homebase.models import MemberInvitation, Workspace
from homebase.runtime import get_runtime
from homebase.workspaces import invitations
from homebase.workspaces.invitations import InvitationRecord, InvitationUnusable

router = APIRouter(include_in_schema=False)
PATH = invitations.LINK_PATH + "{token}"
_PURPOSE = "console-invitation-csrf"
table = MemberInvitation.__table__
workspaces = Workspace.__table__

# The one read before a workspace is known: the invitation of a token's hash, and the
# name of the workspace it invites to.
_BY_TOKEN = across_workspaces(
    select(table, workspaces.c.name.label("workspace_name"))
    .join(workspaces, workspaces.c.id == table.c.workspace_id)
    .where(table.c.token_hash == bindparam("token_hash"))
)


class _Found:
    def __init__(self, row: dict[str, object]):
        self.workspace_id = str(row["workspace_id"])
        self.workspace_name = str(row["workspace_name"])
        self.invitation = cast(InvitationRecord, row)


class _TooMany(ConsolePageError):
    def __init__(self, wait: int):
        super().__init__(
            429, "Too many attempts", f"Too many attempts. Try again in {wait} seconds."
        )
        self.wait = wait

    def response(self) -> Response:
        answer = super().response()
        answer.headers["Retry-After"] = str(self.wait)
        return answer


async def _find(request: Request, token: str) -> _Found:
    """The usable invitation of `token`, or the error page saying why not. An address
    that used up its unauthenticated budget is refused before any lookup."""
    refused = await over_budget(request)
    if refused is not None:
        raise _TooMany(refused.retry_after)
    runtime = get_runtime(request)
    row = None
    if token.startswith(invitations.TOKEN_PREFIX) and len(token) <= 100:
        async with runtime.db.transaction(write=False) as connection:
            found = await connection.execute(_BY_TOKEN, {"token_hash": token_hash(token)})
            mapping = found.mappings().first()
            row = dict(mapping) if mapping is not None else None
    if row is None:
        await count_failure(request)
        raise ConsolePageError(404, "Invitation not found", "This invitation link is not valid.")
    found_row = _Found(row)
    why = invitations.unusable(found_row.invitation, runtime.clock())
    if why is not None:
        raise ConsolePageError(410, "Invitation no longer valid", why)
    return found_row


def _csrf(request: Request, token: str) -> str:
    return keyed_token(get_runtime(request).settings.keys, _PURPOSE, token_hash(token))


def _form(
    request: Request,
    token: str,
    found: _Found,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    return html_page(
        "console/invitation.html",
        status,
        no_store=True,
        action=invitations.LINK_PATH + token,
        csrf_token=_csrf(request, token),
        workspace=found.workspace_name,
        invitation=found.invitation,
        min_length=password_policy.MIN_LENGTH,
        errors=errors or [],
        done=False,
    )


@router.get(PATH)
async def invitation_page(request: Request, token: str) -> Response:
    return _form(request, token, await _find(request, token))


@router.post(PATH)
async def accept_invitation(request: Request, token: str) -> Response:
    form = await request.form()
    submitted = form.get(CSRF_FIELD)
    keys = get_runtime(request).settings.keys
    if not isinstance(submitted, str) or not keyed_token_matches(
        keys, _PURPOSE, token_hash(token), submitted
    ):
        raise CsrfRefused()
    check_origin(request)
    refuse_nul(form)
    found = await _find(request, token)
    new, again = form.get("new_password"), form.get("confirm_password")
    password = new if isinstance(new, str) else ""
    errors = []
    if not password or not isinstance(again, str) or not again:
        errors = ["Required: the password, twice."]
    elif password != again:
        errors = ["The password and its repetition differ."]
    else:
        reason = password_policy.refusal(password, found.invitation["email"])
        if reason:
            errors = [f"The password {reason}."]
    if errors:
        return _form(request, token, found, errors=errors, status=400)
    runtime = get_runtime(request)
    try:
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, found.workspace_id, clock=runtime.clock)
            await invitations.accept(session, found.invitation, password=password)
    except InvitationUnusable as gone:
        raise ConsolePageError(410, "Invitation no longer valid", gone.message) from None
    except AdminError as refused:  # the policy (checked above), or already a member
        return _form(request, token, found, errors=[_sentence(str(refused))], status=400)
    return html_page(
        "console/invitation.html",
        no_store=True,
        done=True,
        workspace=found.workspace_name,
        invitation=found.invitation,
        login=LOGIN_PATH,
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
