"""The console's HTML layout: one page shell, security headers on every page, and all
user-supplied text escaped through `e()`.

Pages are built from small f-strings in which every interpolated value passes through
`e()` (html.escape with quotes), so a name or URL can never become markup. No script is
served: the CSP forbids it outright."""

from html import escape
from typing import Any

from starlette.responses import HTMLResponse, Response

STYLESHEET_PATH = "/console/style.css"
_BASE_CSP = ("default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
             "frame-ancestors 'none'")


def e(value: Any) -> str:
    """Text for HTML content or a quoted attribute value."""
    return escape("" if value is None else str(value), quote=True)


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


def html_page(title: str, body: str, status: int = 200, *, no_store: bool = False,
              form_action: str | None = "'self'", nav: str = "") -> HTMLResponse:
    """`body` (and `nav`) are HTML already built with `e()`; `title` is plain text."""
    document = (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{e(title)} · Homebase</title>"
        f"<link rel=\"stylesheet\" href=\"{STYLESHEET_PATH}\"></head>"
        f"<body><header><strong>Homebase</strong>{nav}</header>"
        f"<main><h1>{e(title)}</h1>{body}</main></body></html>\n")
    return HTMLResponse(document, status_code=status,
                        headers=security_headers(no_store=no_store, form_action=form_action))


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
    body = f"<p class=\"error\">{e(error.message)}</p><p><a href=\"/console\">Console home</a></p>"
    return html_page(error.title, body, error.status, no_store=True)


def hidden(name: str, value: Any) -> str:
    return f"<input type=\"hidden\" name=\"{e(name)}\" value=\"{e(value)}\">"


def message_box(text: str | None, kind: str = "error") -> str:
    return f"<p class=\"{e(kind)}\" role=\"alert\">{e(text)}</p>" if text else ""


STYLESHEET = """\
body{font-family:system-ui,sans-serif;margin:0;color:#1d2733;background:#f6f7f9}
header{background:#1d2733;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;
align-items:center;flex-wrap:wrap}
header a{color:#cfe0ff}header form{display:inline;margin-left:auto}
main{max-width:62rem;margin:1.5rem auto;padding:0 1.2rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #d5dae1;padding:.35rem .5rem;text-align:left;vertical-align:top}
fieldset{border:1px solid #d5dae1;background:#fff;margin:1rem 0}
label{display:block;margin:.3rem 0}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],
textarea{width:100%;max-width:32rem;padding:.3rem}
.error{color:#a10000;font-weight:600}.notice{color:#005a14;font-weight:600}
.secret{font-family:monospace;font-size:1.1rem;background:#fff8d6;padding:.5rem;
border:1px solid #e0c200;word-break:break-all}
"""


def stylesheet() -> Response:
    return Response(STYLESHEET, media_type="text/css",
                    headers={"Cache-Control": "public, max-age=3600",
                             "X-Content-Type-Options": "nosniff"})
