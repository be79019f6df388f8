"""The docs page over HTTP: every asset it names is served by Homebase (no other host),
no inline script, a content security policy of 'self' only, no credential needed and
nothing counted. tests/http/test_docs_browser.py runs the page in Chromium."""

import base64
import hashlib
import re

from homebase.http.docs import DOCS_CSP

ASSET = re.compile(r'(?:src|href)="([^"]+)"')


async def test_the_docs_page_names_only_its_own_assets_under_a_self_only_csp(client):
    response = await client.get("/v1/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["content-security-policy"] == DOCS_CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "x-ratelimit-limit" not in response.headers
    policy = dict(part.strip().split(" ", 1) for part in DOCS_CSP.split(";"))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == policy["style-src"] == policy["connect-src"] == "'self'"
    assert 'data-openapi-url="/v1/openapi.json"' in response.text
    # Every script has a src (nothing inline), and every asset is on this origin.
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", response.text) == []
    assets = ASSET.findall(response.text)
    assert [url for url in assets if url != "data:," and not url.startswith("/v1/docs/")] == []
    kinds = {".js": "javascript", ".css": "text/css"}
    for url in assets:
        if url == "data:,":
            continue
        asset = await client.get(url)
        assert asset.status_code == 200, url
        assert kinds[url[url.rindex(".") :]] in asset.headers["content-type"], url
        assert b"cdn.jsdelivr.net" not in asset.content


async def test_the_swagger_ui_files_come_from_the_locked_package(client):
    bundle = await client.get("/v1/docs/swagger-ui/swagger-ui-bundle.js")
    assert bundle.status_code == 200
    assert b"SwaggerUIBundle" in bundle.content
    missing = await client.get("/v1/docs/swagger-ui/no-such-file.js")
    assert missing.status_code == 404


async def test_the_oauth2_redirect_page_allows_exactly_its_own_script(client):
    response = await client.get("/v1/docs/oauth2-redirect")
    assert response.status_code == 200
    scripts = re.findall(r"<script>(.*?)</script>", response.text, re.S)
    assert len(scripts) == 1 and "swaggerUIRedirectOauth2" in scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert response.headers["content-security-policy"] == (
        f"default-src 'none'; script-src 'sha256-{digest}'; base-uri 'none'"
    )


async def test_the_docs_are_never_counted_or_authenticated(client):
    for _ in range(3):
        for path in ("/v1/docs", "/v1/docs/assets/swagger-init.js", "/v1/openapi.json"):
            response = await client.get(path, headers={"Authorization": "token hbk_invalid"})
            assert response.status_code == 200, path
            assert "x-ratelimit-remaining" not in response.headers
