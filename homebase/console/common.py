"""What every console page shares: the signed-in member, the member's TenantSession,
form reading, and the member's page (base.html's navigation and sign-out, the CSRF token)."""

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from homebase.console.sessions import (
    CSRF_FIELD,
    Member,
    check_csrf,
    csrf_token,
    current_member,
    login_redirect,
    request_target,
)
from homebase.db.tenancy import TenantSession
from homebase.http.pages import ConsolePageError, html_page
from homebase.kit import nul
from homebase.kit.nul import names_holding_nul
from homebase.kit.pagination import decode_cursor, encode_cursor, list_key
from homebase.paging.pages import Built, Step, first_answer
from homebase.runtime import get_runtime


class SignInRequired(ConsolePageError):
    def __init__(self, next_url: str):
        super().__init__(303, "Sign in", "Sign in to continue.")
        self.next_url = next_url

    def response(self) -> Response:
        return login_redirect(self.next_url)


async def signed_in(request: Request) -> Member:
    member = await current_member(request)
    if member is None:
        target = request_target(request) if request.method == "GET" else "/console"
        raise SignInRequired(target)
    return member


async def posted_form(request: Request, member: Member) -> FormData:
    """The submitted form, after its CSRF token checked out and no field held U+0000."""
    form = await request.form()
    value = form.get(CSRF_FIELD)
    check_csrf(request, member, value if isinstance(value, str) else None)
    refuse_nul(form)
    return form


def refuse_nul(form: FormData) -> None:
    """A 400 page naming the fields that hold U+0000 (kit/nul.py)."""
    holding = names_holding_nul(form.multi_items())
    if holding:
        raise ConsolePageError(
            400, "Invalid input", f"These fields {nul.MESSAGE}: {', '.join(holding)}."
        )


def field(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


@asynccontextmanager
async def member_session(
    request: Request, member: Member, *, write: bool = False
) -> AsyncIterator[TenantSession]:
    """The member's workspace, reached the way the API reaches it: one transaction and a
    TenantSession that scopes every statement."""
    runtime = get_runtime(request)
    async with runtime.db.transaction(write=write) as connection:
        yield TenantSession(
            connection, member.workspace_id, clock=runtime.clock, actor=member.user_id
        )


def member_page(
    request: Request,
    member: Member,
    template: str,
    status: int = 200,
    /,
    *,
    no_store: bool = False,
    **context: Any,
) -> HTMLResponse:
    """A console page for the signed-in member: base.html's navigation (the current page
    marked) and sign-out form, `csrf_token` for the page's own forms and `now`, the
    runtime's clock, against which macros.html's `when` says how long ago a time was."""
    token = csrf_token(request, member)
    return html_page(
        template,
        status,
        no_store=no_store,
        csrf_token=token,
        now=get_runtime(request).clock(),
        nav={"email": member.email, "csrf_token": token, "path": request.url.path},
        **context,
    )


def see_other(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


PAGE_SIZE = 50


async def keyset_page(
    request: Request,
    session: TenantSession,
    build: Callable[[str | None, int], Built | list[Step]],
    *,
    size: int = PAGE_SIZE,
    filters: dict[str, str] | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of a list, newest first, with the shared signed keyset cursor; returns
    the rows and the address of the next ("Older") page, None on the last page.
    `filters`: the page's query (not its cursor), which the cursor belongs to and the
    next page's address carries."""
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, filters or {})
    after_id = decode_cursor(keys, key, request.query_params.get("cursor"))
    built = build(after_id, size)  # a statement, or a Listing's page (paging/listing.py)
    rows = await first_answer(session, built if isinstance(built, list) else [built], size)
    if len(rows) <= size:
        return rows, None
    rows = rows[:size]
    cursor = encode_cursor(keys, key, rows[-1]["id"])
    query = urlencode({**(filters or {}), "cursor": cursor})
    return rows, f"{request.url.path}?{query}"
