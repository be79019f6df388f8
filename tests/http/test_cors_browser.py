"""CORS in headless Chromium: a page served from another origin (its own small HTTP server
on another loopback port) calls a real `homebase serve` with fetch() and a credential it
holds itself. From an origin in HOMEBASE_CORS_ORIGINS the calls work, preflights included,
and the page reads X-Request-Id and the rate-limit headers; from any other origin fetch()
throws. And a single-page app's whole OAuth flow: the consent screen, then the code
exchanged from the page with its PKCE verifier and no secret, then the API.

Chromium and the server come from tests/browser_support.py."""

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.browser_support import (  # noqa: F401 (the fixture `browser`)
    Server,
    browser_fixture,
    browser_server,
    new_page,
)
from tests.oauth_support import pkce_pair

# One worker runs this module (make test: --dist loadgroup), so its module-scoped server
# starts once, not on every worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("cors_browser")

EMAIL, PASSWORD = "spa@example.com", "a long single-page password"


class _Page(BaseHTTPRequestHandler):
    """The single-page app's own origin: any path is a page (its script runs from the test)."""

    def do_GET(self):  # noqa: N802 (the standard library's name)
        body = b"<!doctype html><title>SPA</title><p id=app>the app</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _start_page_server() -> ThreadingHTTPServer:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture(scope="module")
def origins() -> Iterator[tuple[str, str]]:
    """(listed, not listed): two page origins, each a server on its own loopback port."""
    servers = [_start_page_server(), _start_page_server()]
    try:
        yield tuple(f"http://127.0.0.1:{httpd.server_address[1]}" for httpd in servers)
    finally:
        for httpd in servers:
            httpd.shutdown()
            httpd.server_close()


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory, origins) -> Iterator[Server]:
    listed, _ = origins
    with browser_server(tmp_path_factory.mktemp("cors"), cors_origins=listed) as served:
        yield served


@pytest.fixture(scope="module")
def workspace(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "SPA Realty")
    server.admin(
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        EMAIL,
        "--name",
        "SPA Agent",
        "--password",
        PASSWORD,
    )
    key = server.admin(
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        "contacts:read contacts:write",
        "--name",
        "single-page app",
    )
    return {**workspace, "key": key["key"]}


# Runs in the page: a POST with JSON, a bearer key and an Idempotency-Key (so the browser
# sends a preflight first), then a GET; what the page can read of each answer, or the
# error fetch() threw.
CALL_THE_API = """
async ([api, key]) => {
  const read = async (response) => ({
    status: response.status,
    requestId: response.headers.get("X-Request-Id"),
    limit: response.headers.get("X-RateLimit-Limit"),
    remaining: response.headers.get("X-RateLimit-Remaining"),
    reset: response.headers.get("X-RateLimit-Reset"),
    body: await response.json(),
  });
  try {
    const created = await fetch(api + "/v1/contacts", {
      method: "POST",
      headers: {
        "Authorization": "Bearer " + key,
        "Content-Type": "application/json",
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: JSON.stringify({first_name: "From", last_name: "The Page"}),
    });
    const listed = await fetch(api + "/v1/contacts?limit=5", {
      headers: {"Authorization": "Bearer " + key},
    });
    return {created: await read(created), listed: await read(listed)};
  } catch (error) {
    return {thrown: error.name + ": " + error.message};
  }
}
"""


async def test_a_listed_origin_calls_the_api_and_reads_its_headers(
    server: Server, workspace: dict, browser, origins
):
    listed, _ = origins
    page = await new_page(browser)
    await page.goto(listed + "/")
    result = await page.evaluate(CALL_THE_API, [server.base_url, workspace["key"]])
    assert "thrown" not in result, result
    created, read_back = result["created"], result["listed"]
    assert created["status"] == 201, created
    assert created["body"]["first_name"] == "From"
    for answer in (created, read_back):
        assert answer["requestId"].startswith("req_"), answer
        assert answer["limit"].isdigit() and answer["reset"].isdigit(), answer
        assert int(answer["remaining"]) < int(answer["limit"]), answer
    assert read_back["status"] == 200
    assert created["body"]["id"] in [item["id"] for item in read_back["body"]["data"]]


async def test_another_origin_is_refused_by_the_browser(
    server: Server, workspace: dict, browser, origins
):
    _, other = origins
    page = await new_page(browser)
    await page.goto(other + "/")
    result = await page.evaluate(CALL_THE_API, [server.base_url, workspace["key"]])
    assert result["thrown"].startswith("TypeError"), result
    # A request needing no preflight reaches the server, but its answer is not the page's.
    simple = await page.evaluate(
        """async (api) => {
          try { await fetch(api + "/.well-known/oauth-authorization-server"); return "read"; }
          catch (error) { return error.name; }
        }""",
        server.base_url,
    )
    assert simple == "TypeError"


async def sign_in(page, server: Server, target: str) -> None:
    await page.goto(server.base_url + target)
    assert "/console/login" in page.url, page.url
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    async with page.expect_navigation():
        await page.click("button:has-text('Sign in')")


# Runs in the page at the app's redirect URI: discovery, then the code exchange as a
# public client (client_id and the PKCE verifier, no secret), then the API with the token.
EXCHANGE_THE_CODE = """
async ([api, clientId, verifier]) => {
  const metadata = await (await fetch(api + "/.well-known/oauth-authorization-server")).json();
  const query = new URLSearchParams(location.search);
  const exchanged = await fetch(metadata.token_endpoint, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code: query.get("code"),
      redirect_uri: location.origin + location.pathname,
      code_verifier: verifier,
    }),
  });
  const token = await exchanged.json();
  const pinged = await fetch(api + "/v1/ping", {
    headers: {"Authorization": "Bearer " + token.access_token},
  });
  return {
    iss: query.get("iss"),
    issuer: metadata.issuer,
    state: query.get("state"),
    exchanged: exchanged.status,
    token,
    ping: await pinged.json(),
    pingRequestId: pinged.headers.get("X-Request-Id"),
  };
}
"""


async def test_a_single_page_app_runs_the_code_flow_with_pkce_and_no_secret(
    server: Server, workspace: dict, browser, origins
):
    listed, _ = origins
    created = server.admin(
        "create-oauth-client",
        "--name",
        "Single-page app",
        "--redirect-uri",
        "http://127.0.0.1/callback",  # loopback: any port matches
    )
    verifier, challenge = pkce_pair()
    callback = f"{listed}/callback"
    query = urlencode(
        {
            "response_type": "code",
            "client_id": created["client_id"],
            "redirect_uri": callback,
            "scope": "contacts:read",
            "state": "spa-state",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    page = await new_page(browser)
    await sign_in(page, server, f"/oauth/authorize?{query}")
    assert urlsplit(page.url).path == "/oauth/authorize", await page.content()
    async with page.expect_navigation(url=f"{callback}?**"):
        await page.click("button[value=approve]")
    assert parse_qs(urlsplit(page.url).query)["state"] == ["spa-state"]

    result = await page.evaluate(
        EXCHANGE_THE_CODE, [server.base_url, created["client_id"], verifier]
    )
    assert result["exchanged"] == 200, result
    assert result["iss"] == result["issuer"] == server.base_url
    assert result["token"]["token_type"] == "Bearer"
    assert result["token"]["scope"] == "contacts:read"
    assert result["ping"]["tenant_id"] == workspace["id"]
    assert result["ping"]["credential"] == "oauth_token"
    assert result["pingRequestId"].startswith("req_")
