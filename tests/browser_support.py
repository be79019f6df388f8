"""What the browser tests share: Debian's /usr/bin/chromium driven by Playwright (never
`playwright install`) against a real `homebase serve` on a loopback port.

Skipped with a notice when chromium is missing, a failure under CI=true (.ci/run installs
it). A test module uses the fixtures `server` and `browser` by importing
`server_fixture` and `browser_fixture`."""

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.served_support import Served, serve
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


# The served instance: tests/served_support.py (`homebase serve` on loopback, a fresh
# SQLite file, no worker); `Server` names its handle for the browser tests.
Server = Served


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    with serve(tmp_path_factory.mktemp("browser"), worker=False) as served:
        yield served


@contextmanager
def browser_server(folder: Path, *, worker: bool = False, **settings: str) -> Iterator[Server]:
    """The served instance with extra HOMEBASE_* settings (`cors_origins=...`), for a
    module whose own `server` fixture needs them (`server_fixture` serves with none), and
    with the in-process worker when `worker` (a module whose pages wait for jobs)."""
    require_chromium()
    with serve(folder, worker=worker, **settings) as served:
        yield served


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
