"""Every console page in headless Chromium at 1280 and at 390 pixels wide: nothing runs off
the side of the viewport (a wide table scrolls inside its own box, never the page), and
every <time> stays on one line. The pages hold data: a `homebase serve` with its worker,
seeded through the admin CLI and the API (a key, a webhook whose pending delivery has
failed once, apps, an import, an export, a custom field).

Chromium and the server come from tests/browser_support.py; this module serves its own
instance, with the worker and webhooks allowed to reach loopback."""

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlencode

import httpx
import pytest

from homebase.auth.scopes import ALL_SCOPES
from tests.browser_support import (  # noqa: F401 (the fixture `browser`)
    Server,
    browser_fixture,
    new_page,
    require_chromium,
)
from tests.served_support import serve
from tests.support import until

# One worker runs this module (make test: --dist loadgroup), so its module-scoped server
# starts once, not on every worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("browser_layout")

EMAIL, PASSWORD = "layout@example.com", "a long layout password"
WIDTHS = (1280, 390)


class _Refusing(BaseHTTPRequestHandler):
    """A webhook receiver that answers 500: the delivery stays pending, with attempts."""

    def do_POST(self):  # noqa: N802 (the standard library's name)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(500)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def receiver() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/hooks/listing-sync-receiver"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    folder = tmp_path_factory.mktemp("layout")
    with serve(folder, worker=True, webhook_allow_private_urls="true") as served:
        yield served


def _wait_for(fetch, ready, what: str):
    def done():
        value = fetch()
        return value if ready(value) else None

    return until(done, 60, every=0.2, what=what)


@pytest.fixture(scope="module")
def seeded(server: Server, receiver: str) -> dict:
    """A workspace whose every console page has something to show; returns the ids."""
    workspace = server.admin("create-workspace", "--name", "Layout Realty")
    server.admin(
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        EMAIL,
        "--name",
        "Layout Agent",
        "--password",
        PASSWORD,
    )
    key = server.admin(
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        " ".join(ALL_SCOPES),
        "--name",
        "Nightly sync from the listings spreadsheet",
    )
    app = server.admin(
        "create-oauth-client",
        "--name",
        "Listing Sync by the Operator",
        "--redirect-uri",
        "http://127.0.0.1/callback",
    )
    server.admin(
        "authorize-app",
        "--workspace",
        workspace["id"],
        "--client-id",
        app["client_id"],
        "--scopes",
        "contacts:read webhooks:manage",
    )
    api = httpx.Client(base_url=server.base_url, headers={"Authorization": f"token {key['key']}"})
    with api:
        hook = api.post("/v1/webhooks", json={"url": receiver}).json()
        assert "id" in hook, hook
        contact = api.post("/v1/contacts", json={"first_name": "Dana", "email": "d@example.com"})
        assert contact.status_code == 201, contact.text
        field = api.post(
            "/v1/custom-fields",
            json={"object": "contacts", "key": "budget", "label": "Budget", "type": "number"},
        ).json()
        started = api.post(
            "/v1/imports",
            json={"object": "contacts", "rows": [{"first_name": "Sam"}, {"email": "not an email"}]},
        ).json()
        export = api.post("/v1/exports", json={"object": "contacts", "format": "csv"}).json()
        _wait_for(
            lambda: api.get(f"/v1/webhooks/{hook['id']}/deliveries").json()["data"],
            lambda rows: rows and rows[0]["attempts"] >= 1 and rows[0]["status"] == "pending",
            "a failed first attempt",
        )
        _wait_for(
            lambda: api.get(f"/v1/imports/{started['id']}").json()["status"],
            lambda status: status == "completed",
            "the import",
        )
        _wait_for(
            lambda: api.get(f"/v1/exports/{export['id']}").json()["status"],
            lambda status: status == "completed",
            "the export",
        )
    return {
        "key": key["id"],
        "client_id": app["client_id"],
        "hook": hook["id"],
        "field": field["id"],
        "import": started["id"],
        "export": export["id"],
        "contact": contact.json()["id"],
    }


async def sign_in(page, server: Server, target: str = "/console") -> None:
    await page.goto(server.base_url + target)
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    async with page.expect_navigation():
        await page.click("button:has-text('Sign in')")


async def submit(page, selector: str) -> None:
    async with page.expect_navigation():
        await page.click(selector)


@pytest.fixture(scope="module")
async def member(browser, server: Server, seeded: dict, tmp_path_factory):
    """A signed-in page that has registered an app of the workspace's own and uploaded a
    CSV file (its mapping page's address in `seeded`)."""
    page = await new_page(browser)
    await sign_in(page, server, "/console/oauth-apps")
    await page.fill("input[name=name]", "Showing Scheduler")
    await page.fill("textarea[name=redirect_uris]", "https://scheduler.example.com/oauth/back")
    await submit(page, "button:has-text('Register')")
    exported = tmp_path_factory.mktemp("csv") / "old-crm.csv"
    exported.write_text(
        "First name,E-mail,Notes about the buyer and what they are looking for\r\n"
        "Dana,dana@example.com,Three bedrooms near the park; a long note to fill the cell\r\n"
    )
    await page.goto(server.base_url + "/console/imports/new")
    await page.check("input[name=object][value=contacts]")
    await page.set_input_files("input[name=file]", str(exported))
    await submit(page, "button:has-text('Upload')")
    seeded["mapping"] = page.url
    return page


# The page is measured in the browser: what sticks out of the viewport (skipping what a
# box that scrolls or clips holds, such as a table's cells), the page's own sideways
# scroll, and each <time>'s line boxes and height against its line height.
MEASURE = """() => {
  const width = window.innerWidth;
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.className && typeof el.className === 'string' ? '.' + el.className : '');
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  }
  const clipped = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.right > width + 0.5 && !clipped(el)) {
      problems.push(`${name(el)} ends at ${Math.round(box.right)}px`);
    }
  }
  const times = [...document.querySelectorAll('time')];
  for (const el of times) {
    const style = getComputedStyle(el);
    const line = style.lineHeight === 'normal'
      ? parseFloat(style.fontSize) * 1.25 : parseFloat(style.lineHeight);
    const lines = el.getClientRects().length;
    const height = el.getBoundingClientRect().height;
    if (lines !== 1 || height > line * 1.4) {
      problems.push(`<time> "${el.textContent}" in ${lines} boxes, ${height}px high`);
    }
    if (style.whiteSpace !== 'nowrap') problems.push(`<time> may wrap: ${style.whiteSpace}`);
  }
  return {problems, times: times.length, tables: document.querySelectorAll('table').length};
}"""


async def measured(page, url: str, width: int, *, times: bool) -> None:
    """The page shown fits `width`; with `times`, it shows at least one <time>."""
    found = await page.evaluate(MEASURE)
    assert found["problems"] == [], (url, width, found["problems"])
    if times:
        assert found["times"] > 0, (url, "no <time> to check")


async def check(page, url: str, *, times: bool = True) -> None:
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        response = await page.goto(url)
        assert response is not None and response.status == 200, (url, response)
        await measured(page, url, width, times=times)


def member_pages(base: str, ids: dict) -> list[tuple[str, bool]]:
    """(the page, whether it shows a time)."""
    return [
        (f"{base}/console", True),
        (f"{base}/console/people", True),
        (f"{base}/console/people/{ids['contact']}", True),
        (f"{base}/console/tasks", False),
        (f"{base}/console/api-keys", True),
        (f"{base}/console/api-keys/{ids['key']}/revoke", True),
        (f"{base}/console/connected-apps", True),
        (f"{base}/console/connected-apps/{ids['client_id']}/revoke", True),
        (f"{base}/console/oauth-apps", True),
        (f"{base}/console/webhooks", True),
        (f"{base}/console/webhooks/{ids['hook']}", True),
        (f"{base}/console/webhooks/{ids['hook']}/delete", True),
        (f"{base}/console/imports", True),
        (f"{base}/console/imports/{ids['import']}", True),
        (f"{base}/console/imports/new", False),
        (f"{base}/console/exports", True),
        (f"{base}/console/exports/{ids['export']}", True),
        (f"{base}/console/custom-fields", True),
        (f"{base}/console/custom-fields/{ids['field']}/delete", True),
        (f"{base}/console/members", True),
        (f"{base}/console/password", False),
    ]


async def test_every_member_page_fits_at_both_widths(server: Server, seeded: dict, member):
    for url, has_times in member_pages(server.base_url, seeded):
        await check(member, url, times=has_times)
    assert "/console/imports/uploads/" in seeded["mapping"]
    await check(member, seeded["mapping"], times=False)


async def test_the_pages_that_answer_a_form_fit_at_both_widths(server: Server, member):
    """A new key, a new subscription: the answer of a POST, shown once."""
    for width in WIDTHS:
        await member.set_viewport_size({"width": width, "height": 900})
        await member.goto(server.base_url + "/console/api-keys")
        await member.fill("input[name=name]", f"Made at {width} pixels")
        await member.check("input[name=scopes][value='contacts:read']")
        await submit(member, "button:has-text('Create key')")
        assert (await member.text_content("#new-key") or "").startswith("hbk_")
        await measured(member, "key created", width, times=True)
        await member.goto(server.base_url + "/console/webhooks")
        await member.fill("input[name=url]", f"http://127.0.0.1:9/hooks/{width}")
        await submit(member, "button:has-text('Subscribe')")
        assert (await member.text_content("#new-secret") or "").startswith("whsec_")
        await measured(member, "subscription created", width, times=False)


async def test_the_delivery_log_and_the_navigation_as_shown(server: Server, seeded, member):
    await member.set_viewport_size({"width": 390, "height": 900})
    await member.goto(f"{server.base_url}/console/webhooks/{seeded['hook']}")
    schedule = await member.text_content(".schedule")
    assert schedule and schedule.startswith("attempt 2 of 6, next at "), schedule
    assert " UTC (" in schedule and schedule.endswith(")"), schedule
    current = member.locator("nav a[aria-current]")
    assert await current.all_text_contents() == ["Webhooks"]
    other = member.locator("nav a:not([aria-current])").first
    shade = "el => getComputedStyle(el).backgroundColor"
    assert await current.evaluate(shade) != await other.evaluate(shade)


async def test_sign_in_page_fits_at_both_widths(server: Server, seeded: dict, browser):
    page = await new_page(browser)
    await check(page, f"{server.base_url}/console/login", times=False)


async def test_consent_page_fits_and_its_answers_look_different(
    server: Server, seeded: dict, member
):
    query = urlencode(
        {
            "response_type": "code",
            "client_id": seeded["client_id"],
            "redirect_uri": "http://127.0.0.1/callback",
            "scope": "contacts:read contacts:write webhooks:manage",
            "state": "layout",
            "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method": "S256",
        }
    )
    url = f"{server.base_url}/oauth/authorize?{query}"
    await check(member, url, times=False)
    style = """el => { const s = getComputedStyle(el);
        return [s.backgroundColor, s.color, s.borderColor]; }"""
    approve = await member.locator("button[value=approve]").evaluate(style)
    deny = await member.locator("button[value=deny]").evaluate(style)
    assert approve[0] != deny[0] and approve[1] != deny[1], (approve, deny)
