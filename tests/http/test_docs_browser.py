"""The interactive docs in headless Chromium with no network beyond loopback: /v1/docs
lists the operations, authorizes with an API key and runs GET /v1/ping through "Try it
out", with every asset served by Homebase under its content security policy (a request
anywhere else is refused and recorded; a CSP violation is a failure)."""

from urllib.parse import urlsplit

import pytest

from tests.browser_support import (  # noqa: F401 (the fixtures `browser` and `server`)
    Server,
    browser_fixture,
    server_fixture,
)

LOOPBACK = {"127.0.0.1"}


@pytest.fixture(scope="module")
def api_key(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "Docs Realty")
    key = server.admin(
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        "contacts:read",
        "--name",
        "docs page",
    )
    return {"workspace": workspace["id"], "key": key["key"]}


class Watched:
    """A page whose requests beyond loopback are aborted and recorded, with its console."""

    def __init__(self, page):
        self.page = page
        self.offsite: list[str] = []
        self.console: list[str] = []
        self.errors: list[str] = []

    async def start(self) -> "Watched":
        await self.page.context.route("**/*", self._route)
        self.page.on(
            "console", lambda message: self.console.append(f"{message.type}: {message.text}")
        )
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        return self

    async def _route(self, route) -> None:
        if urlsplit(route.request.url).hostname in LOOPBACK:
            await route.continue_()
        else:
            self.offsite.append(route.request.url)
            await route.abort()

    def csp_violations(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line]

    def console_errors(self) -> list[str]:
        """Refused assets and CSP violations are logged as errors."""
        return [line for line in self.console if line.startswith("error:")]


@pytest.fixture
async def docs(browser) -> Watched:
    context = await browser.new_context()
    page = await context.new_page()
    # Swagger UI renders the whole document in the page's one thread: seconds on a quiet
    # machine, over 20 s on two cores shared with the rest of a parallel suite.
    page.set_default_timeout(90_000)
    watched = await Watched(page).start()
    yield watched
    await context.close()


async def test_the_docs_page_loads_lists_operations_and_tries_ping(
    server: Server, api_key: dict, docs: Watched
):
    page = docs.page
    response = await page.goto(server.base_url + "/v1/docs", wait_until="networkidle")
    assert response.status == 200
    assert docs.offsite == [], f"the docs page reached beyond the service: {docs.offsite}"
    assert docs.errors == [], docs.errors

    # The operation list, rendered from /v1/openapi.json.
    ping = page.locator(".opblock-get:has([data-path='/v1/ping'])")
    await ping.wait_for()
    paths = await page.locator(".opblock-summary-path").evaluate_all(
        "nodes => nodes.map(node => node.getAttribute('data-path'))"
    )
    assert {"/v1/ping", "/v1/contacts", "/v1/messages", "/v1/leads"} <= set(paths)

    # Authorize with the API key (the ApiKey scheme sends the header as typed).
    await page.click("button.authorize")
    api_key_form = page.locator(".auth-container", has_text="ApiKey")
    await api_key_form.locator("input").fill(f"token {api_key['key']}")
    await api_key_form.locator("button.authorize").click()
    await api_key_form.locator("h6", has_text="Authorized").wait_for()
    await api_key_form.locator("button.btn-done").click()

    # Try it out: GET /v1/ping.
    await ping.locator(".opblock-summary").first.click()
    await ping.locator("button.try-out__btn").click()
    await ping.locator("button.execute").click()
    live = ping.locator(".live-responses-table tr.response")
    await live.wait_for()
    assert (await live.locator(".response-col_status").inner_text()).strip() == "200"
    body = await live.locator(".response-col_description pre").first.inner_text()
    assert '"ok": true' in body, body
    assert api_key["workspace"] in body

    assert docs.offsite == [], docs.offsite
    assert docs.csp_violations() == [], docs.csp_violations()
    assert docs.console_errors() == [], docs.console_errors()
    assert docs.errors == [], docs.errors
