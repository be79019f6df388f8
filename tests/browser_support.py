"""What the browser tests share: Debian's /usr/bin/chromium driven by Playwright (never
`playwright install`) against a real `homebase serve` on a loopback port.

Skipped with a notice when chromium is missing, a failure under CI=true (.ci/run installs
it). A test module uses the fixtures `server` and `browser` by importing
`server_fixture` and `browser_fixture`."""

import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support import IN_CI

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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
        done = subprocess.run(
            [sys.executable, "-m", "homebase", "admin", *args],
            env=self.env,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "HOMEBASE_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/db.sqlite3",
        "HOMEBASE_SECRET_KEY": "browser-test-secret",
        "HOMEBASE_PUBLIC_URL": base_url,
        "HOMEBASE_ENV": "test",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "homebase",
            "serve",
            "--no-worker",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
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


@pytest.fixture(scope="module", name="browser")
async def browser_fixture(server: Server) -> AsyncIterator:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def new_page(browser):
    """A fresh browser profile (its own cookies)."""
    page = await (await browser.new_context()).new_page()
    page.set_default_timeout(10_000)
    return page
