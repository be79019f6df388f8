"""The interactive docs at /v1/docs: Swagger UI served by Homebase itself.

FastAPI's own docs page loads Swagger UI from a public CDN and starts it with an inline
script, so offline or under a strict content security policy it is blank. Here the
Swagger UI files come from the locked `fastapi-offline` package (its `static` folder,
mounted as package data), the page is a small template (templates/docs.html) with no
inline script, and
Swagger UI starts from docs_assets/swagger-init.js. The page's CSP allows scripts,
styles and fetches from this origin only. None of these routes is authenticated or
rate-limited (they are outside the /v1 route class)."""

import base64
import hashlib
import re

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from homebase.http.templates import render

DOCS_URL = "/v1/docs"
VENDOR_URL = f"{DOCS_URL}/swagger-ui"  # the package's Swagger UI dist files
ASSETS_URL = f"{DOCS_URL}/assets"  # Homebase's own: the init script
OAUTH2_REDIRECT_URL = f"{DOCS_URL}/oauth2-redirect"

# Swagger UI's stylesheet draws its icons with data: SVG images (and the page's empty icon,
# which spares the browser a /favicon.ico request, is data:); everything else is 'self'.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def _oauth2_redirect_page() -> tuple[bytes, str]:
    """FastAPI's OAuth2 redirect page (the popup that hands Swagger UI the code) and a CSP
    that allows exactly its one inline script, by hash."""
    body = bytes(get_swagger_ui_oauth2_redirect_html().body)
    scripts = re.findall(rb"<script>(.*?)</script>", body, re.S)
    assert len(scripts) == 1, "FastAPI's OAuth2 redirect page changed shape"
    digest = base64.b64encode(hashlib.sha256(scripts[0]).digest()).decode()
    return body, f"default-src 'none'; script-src 'sha256-{digest}'; base-uri 'none'"


def install(app: FastAPI) -> None:
    """Mounts the docs on an app created with docs_url=None and redoc_url=None."""
    app.mount(VENDOR_URL, StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-vendor")
    app.mount(
        ASSETS_URL, StaticFiles(packages=[("homebase.http", "docs_assets")]), name="docs-assets"
    )
    redirect_body, redirect_csp = _oauth2_redirect_page()
    openapi_url = app.openapi_url or "/v1/openapi.json"
    title = f"{app.title} - docs"

    @app.get(DOCS_URL, include_in_schema=False)
    async def docs_page(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        html = render(
            "docs.html",
            title=title,
            vendor=root + VENDOR_URL,
            assets=root + ASSETS_URL,
            openapi=root + openapi_url,
            redirect=root + OAUTH2_REDIRECT_URL,
        )
        return HTMLResponse(html, headers={"Content-Security-Policy": DOCS_CSP, **SECURITY_HEADERS})

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def oauth2_redirect() -> HTMLResponse:
        return HTMLResponse(
            redirect_body, headers={"Content-Security-Policy": redirect_csp, **SECURITY_HEADERS}
        )
