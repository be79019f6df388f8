"""Every HTML page as an HTTP response (the console's, OAuth consent, unsubscribe): a
template (homebase/templates/, rendered by homebase/http/templates.py with escaping always
on) and the security headers every page sends. No script is served: the CSP forbids it outright."""

from typing import Any

from starlette.responses import HTMLResponse, Response

from homebase.http.templates import asset, render

STYLESHEET_PATH = "/console/style.css"
STYLESHEET = asset("console/style.css")
_BASE_CSP = (
    "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


def security_headers(*, no_store: bool, form_action: str | None = "'self'") -> dict[str, str]:
    """form_action None leaves form-action out of the CSP: Chromium applies form-action to
    the redirect that answers a form POST, so the OAuth consent form, which redirects to
    the client's redirect_uri, must not restrict it (or must allow that target)."""
    policy = _BASE_CSP + (f"; form-action {form_action}" if form_action else "")
    headers = {
        "Content-Security-Policy": policy,
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
    # Every console page is private to a member; secrets and consent pages must never be
    # kept by any cache, the others are simply not shared.
    headers["Cache-Control"] = "no-store" if no_store else "private, no-cache"
    if no_store:
        headers["Pragma"] = "no-cache"
    return headers


def html_page(
    template: str,
    status: int = 200,
    /,
    *,
    no_store: bool = False,
    form_action: str | None = "'self'",
    nav: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    """The template rendered with `context` (plain values: the template escapes them) and
    `nav`, the signed-in member's navigation (common.member_page) or None."""
    return HTMLResponse(
        render(template, nav=nav, **context),
        status_code=status,
        headers=security_headers(no_store=no_store, form_action=form_action),
    )


class ConsolePageError(Exception):
    """Raised anywhere in a console or OAuth page handler; answered as an HTML page."""

    def __init__(self, status: int, title: str, message: str):
        super().__init__(message)
        self.status = status
        self.title = title
        self.message = message

    def response(self) -> Response:
        return error_page(self)


def error_page(error: ConsolePageError) -> HTMLResponse:
    return html_page(
        "error.html", error.status, no_store=True, title=error.title, message=error.message
    )


def stylesheet() -> Response:
    return Response(
        STYLESHEET,
        media_type="text/css",
        headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"},
    )
