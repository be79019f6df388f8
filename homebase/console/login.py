"""Sign-in (GET/POST /console/login, workspace choice) and sign-out (POST /console/logout)."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from homebase.console import signin
from homebase.console.common import field, posted_form, refuse_nul, see_other, signed_in
from homebase.console.sessions import (
    CSRF_FIELD,
    LOGIN_COOKIE,
    LOGIN_PATH,
    check_login_csrf,
    clear_session_cookie,
    close_session,
    current_member,
    login_csrf_token,
    new_login_nonce,
    open_session,
    safe_next,
    set_login_cookie,
    set_session_cookie,
)
from homebase.http.pages import ConsolePageError, html_page
from homebase.http.unauthenticated import count_failure, over_budget, request_client_address
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
WRONG_CREDENTIALS = "Incorrect email or password."


def _login_form(
    request: Request,
    nonce: str,
    next_url: str,
    *,
    email: str = "",
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    response = html_page(
        "console/login.html",
        status,
        no_store=True,
        error=error,
        csrf_token=login_csrf_token(request, nonce),
        next_url=next_url,
        email=email,
    )
    if request.cookies.get(LOGIN_COOKIE) != nonce:
        set_login_cookie(response, get_runtime(request), nonce)
    return response


def _nonce(request: Request) -> str:
    current = request.cookies.get(LOGIN_COOKIE, "")
    return current if 0 < len(current) <= 64 else new_login_nonce()


@router.get(LOGIN_PATH)
async def login_page(request: Request, next: str = "/console") -> Response:
    target = safe_next(next)
    if await current_member(request) is not None:
        return see_other(target)
    return _login_form(request, _nonce(request), target)


@router.post(LOGIN_PATH)
async def login(request: Request) -> Response:
    form = await request.form()
    token = form.get(CSRF_FIELD)
    check_login_csrf(request, token if isinstance(token, str) else None)
    refuse_nul(form)
    runtime = get_runtime(request)
    email, given = signin.normalize_email(field(form, "email")), form.get("password")
    password = given if isinstance(given, str) else ""  # a file is no password
    target = safe_next(field(form, "next"))
    nonce = request.cookies[LOGIN_COOKIE]
    missing = [name for name, value in (("email", email), ("password", password)) if not value]
    if missing:
        return _login_form(
            request,
            nonce,
            target,
            email=email,
            status=400,
            error=f"Required: {', '.join(missing)}.",
        )
    # The address's unauthenticated budget (http/unauthenticated.py) is checked before
    # the password hashing it protects; only failures count against it.
    refused = await over_budget(request)
    if refused is not None:
        return _too_many(request, nonce, target, email, refused.retry_after)
    wait = await signin.throttled(runtime, email, request_client_address(request))
    if wait is not None:
        return _too_many(request, nonce, target, email, wait)
    matches = await signin.matching_memberships(runtime, email, password)
    if not matches:
        counted = await count_failure(request)
        if not counted.allowed:  # others from this address used it up meanwhile
            return _too_many(request, nonce, target, email, counted.retry_after)
        return _login_form(request, nonce, target, email=email, error=WRONG_CREDENTIALS)
    if len(matches) == 1:
        return await _signed_in_response(request, matches[0].user_id, target)
    return _workspace_choice(request, nonce, target, matches)


def _too_many(request: Request, nonce: str, target: str, email: str, wait: int) -> HTMLResponse:
    response = _login_form(
        request,
        nonce,
        target,
        email=email,
        status=429,
        error=f"Too many sign-in attempts. Try again in {wait} seconds.",
    )
    response.headers["Retry-After"] = str(wait)
    return response


def _workspace_choice(
    request: Request, nonce: str, next_url: str, matches: list[signin.Membership]
) -> HTMLResponse:
    runtime = get_runtime(request)
    pick = signin.pick_token(runtime.settings.keys, matches, runtime.clock())
    return html_page(
        "console/choose_workspace.html",
        no_store=True,
        memberships=matches,
        csrf_token=login_csrf_token(request, nonce),
        next_url=next_url,
        pick=pick,
    )


@router.post(f"{LOGIN_PATH}/workspace")
async def choose_workspace(request: Request) -> Response:
    form = await request.form()
    token = form.get(CSRF_FIELD)
    check_login_csrf(request, token if isinstance(token, str) else None)
    refuse_nul(form)
    runtime = get_runtime(request)
    user_id = field(form, "user_id")
    if not signin.picked_user(runtime.settings.keys, field(form, "pick"), user_id, runtime.clock()):
        raise ConsolePageError(
            400, "Sign in", "That choice has expired or is not valid. Sign in again."
        )
    return await _signed_in_response(request, user_id, safe_next(field(form, "next")))


async def _signed_in_response(request: Request, user_id: str, target: str) -> Response:
    runtime = get_runtime(request)
    token = await open_session(runtime, user_id)
    response = see_other(target)
    set_session_cookie(response, runtime, token)
    return response


@router.post("/console/logout")
async def logout(request: Request) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    runtime = get_runtime(request)
    await close_session(runtime, member)
    response = see_other(LOGIN_PATH)
    clear_session_cookie(response, runtime)
    return response
