"""End to end in headless Chromium: a real `homebase serve` on a loopback port, a member
made with the admin CLI, then in the browser: sign in, create an API key and use it; and
register an app, approve its consent screen and finish a PKCE flow.

Chromium and the server come from tests/browser_support.py."""

import base64
import hashlib
import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from tests.browser_support import (  # noqa: F401 (the fixtures `browser` and `server`)
    Server,
    browser_fixture,
    new_page,
    server_fixture,
)

# One worker runs this module (make test: --dist loadgroup), so its module-scoped server
# starts once, not on every worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("console_browser")

EMAIL, PASSWORD = "browser@example.com", "a long browser password"


@pytest.fixture(scope="module")
def workspace(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "Browser Realty")
    server.admin(
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        EMAIL,
        "--name",
        "Browser Agent",
        "--password",
        PASSWORD,
    )
    return workspace


@pytest.fixture
async def page(browser):
    return await new_page(browser)


class _Callback(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        body = b"<p id=done>back at the app</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def callback_server() -> Iterator[str]:
    """The app's redirect target: a tiny HTTP server on a loopback port."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Callback)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/callback"
    finally:
        httpd.shutdown()
        httpd.server_close()


async def sign_in(page, server: Server, target: str = "/console") -> None:
    await page.goto(server.base_url + target)
    assert "/console/login" in page.url
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    await submit(page, "button:has-text('Sign in')")


async def submit(page, selector: str) -> None:
    """Click a submit button and wait for the page it leads to."""
    async with page.expect_navigation():
        await page.click(selector)


async def test_sign_in_create_a_key_and_use_it(server: Server, workspace: dict, page):
    await sign_in(page, server, "/console/api-keys")
    assert urlsplit(page.url).path == "/console/api-keys", await page.content()
    await page.fill("input[name=name]", "From the browser")
    await page.check("input[name=scopes][value='contacts:read']")
    await page.fill("input[name=expires_in_days]", "7")
    await submit(page, "button:has-text('Create key')")
    key = (await page.text_content("#new-key") or "").strip()
    assert key.startswith("hbk_")
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        ping = await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    assert ping.status_code == 200, ping.text
    assert ping.json()["tenant_id"] == workspace["id"]
    assert ping.json()["scopes"] == ["contacts:read"]
    await page.goto(server.base_url + "/console/api-keys")
    assert "From the browser" in await page.content()
    assert key not in await page.content()


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def test_register_an_app_approve_consent_and_finish_pkce(
    server: Server, workspace: dict, browser, callback_server: str
):
    admin = await new_page(browser)
    await sign_in(admin, server, "/console/oauth-apps")
    await admin.fill("input[name=name]", "Browser App")
    await admin.fill("textarea[name=redirect_uris]", "http://127.0.0.1/callback")
    await submit(admin, "button:has-text('Register')")
    client_id = (await admin.text_content("#client-id") or "").strip()
    assert client_id and (await admin.text_content("#client-secret") or "").strip()

    # A member in a fresh browser follows the app's link: sign-in, then the consent screen.
    verifier, challenge = pkce_pair()
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": callback_server,
            "scope": "contacts:read",
            "state": "st-123",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    member = await new_page(browser)
    await sign_in(member, server, f"/oauth/authorize?{query}")
    assert urlsplit(member.url).path == "/oauth/authorize", await member.content()
    assert "Browser App" in await member.text_content(".app-name")
    assert "contacts:read" in await member.content()
    async with member.expect_navigation(url=f"{callback_server}?**"):
        await member.click("button[value=approve]")
    returned = parse_qs(urlsplit(member.url).query)
    assert returned["state"] == ["st-123"]

    async with httpx.AsyncClient(base_url=server.base_url) as client:
        token = await client.post(
            "/oauth/token",
            data={
                "grant_type": "authorization_code",
                "client_id": client_id,
                "code": returned["code"][0],
                "redirect_uri": callback_server,
                "code_verifier": verifier,
            },
        )
        assert token.status_code == 200, token.text
        access = token.json()["access_token"]
        ping = await client.get("/v1/ping", headers={"Authorization": f"Bearer {access}"})
    assert ping.status_code == 200, ping.text
    assert ping.json()["tenant_id"] == workspace["id"]
    assert ping.json()["scopes"] == ["contacts:read"]
    assert ping.json()["rate_limit_per_min"] == 300


async def test_upload_a_csv_map_its_columns_and_start_the_import(
    server: Server, workspace: dict, page, tmp_path
):
    exported = tmp_path / "old-crm.csv"
    exported.write_bytes(
        "\ufeffFirst name;E-mail;Tags;Notes\r\n"
        'Dana;dana@example.com;buyer, vip;"two\r\nlines"\r\n'
        "<b>Sam</b>;sam@example.com;;\r\n".encode()
    )
    await sign_in(page, server, "/console/imports/new")
    assert urlsplit(page.url).path == "/console/imports/new", await page.content()
    await page.check("input[name=object][value=contacts]")
    await page.set_input_files("input[name=file]", str(exported))
    await submit(page, "button:has-text('Upload')")
    assert urlsplit(page.url).path.startswith("/console/imports/uploads/"), await page.content()
    # The suggested mapping is preselected; the preview shows the cells as text.
    assert await page.input_value("select[name=column_0]") == "first_name"
    assert await page.input_value("select[name=column_1]") == "email"
    assert await page.input_value("select[name=column_2]") == "tags"
    assert "<b>Sam</b>" in (await page.text_content("#preview") or "")
    assert await page.input_value("select[name=column_3]") == "notes"
    await page.select_option("select[name=column_2]", "")  # tags: ignored this time
    await submit(page, "button:has-text('Start the import')")
    assert urlsplit(page.url).path == "/console/imports", await page.content()
    assert "Started 1 import." in await page.content()
    rows = await page.locator("tr[id^=imp_] td").all_text_contents()
    assert rows[1] == "contacts" and rows[4] == "2"  # object, rows
