"""End to end in headless Chromium, against a real `homebase serve` with its in-process
worker: a CRM's export uploaded, its columns and values mapped on the page, a dry run,
then the import (tests/browser_support.py)."""

from urllib.parse import urlsplit

import httpx
import pytest

from tests.browser_support import (  # noqa: F401 (the fixture `browser`)
    Server,
    browser_fixture,
    browser_server,
    new_page,
)
from tests.support import until

pytestmark = pytest.mark.xdist_group("console_browser_import")

EMAIL, PASSWORD = "importer@example.com", "a long importing password"
WITHIN = 60  # a stuck import gives up then; never a claim about speed

FUB = (
    "First Name,Last Name,Email 1,Phone 1,Stage,Assigned To,Background\r\n"
    'Dana,Reyes,dana@example.com,+1 415 555 0142,Prospect,importer@example.com,"two\r\n'
    'lines"\r\n'
    "Sam,Lee,not-an-email,,Hot Prospect,,\r\n"
    "Lee,Chan,lee@example.com,,Closed,Browser Importer,\r\n"
)


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("browser-import"), worker=True) as served:
        yield served


@pytest.fixture(scope="module")
def workspace(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "Import Realty")
    server.admin(
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        EMAIL,
        "--name",
        "Browser Importer",
        "--password",
        PASSWORD,
    )
    return workspace


async def submit(page, selector: str) -> None:
    async with page.expect_navigation():
        await page.click(selector)


async def finished(page) -> bool:
    await page.reload()
    return (await page.text_content("#status") or "").strip() == "completed"


async def test_map_values_dry_run_then_import(server: Server, workspace: dict, browser, tmp_path):
    exported = tmp_path / "fub.csv"
    exported.write_bytes(FUB.encode())
    page = await new_page(browser)
    await page.goto(server.base_url + "/console/imports/new")
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    await submit(page, "button:has-text('Sign in')")
    await page.check("input[name=object][value=contacts]")
    await page.set_input_files("input[name=file]", str(exported))
    await submit(page, "button:has-text('Upload')")
    mapping = page.url
    assert urlsplit(mapping).path.startswith("/console/imports/uploads/"), await page.content()
    assert await page.input_value("select[name=column_2]") == "email"
    assert await page.input_value("select[name=column_5]") == "owner_id"
    assert "matches 'Email 1'" in (await page.text_content("#mapping") or "")
    closed = page.locator("select[aria-label='Stage: Closed']")
    assert await closed.input_value() == '"PAST_CLIENT"'  # from the synonyms
    assert await page.locator("select[aria-label='Stage: Prospect']").input_value() == '"LEAD"'
    await closed.select_option('"SPHERE"')

    await submit(page, "button:has-text('Dry run')")
    assert "A dry run" in await page.content()
    await until(lambda: finished(page), WITHIN, every=0.5)
    assert (await page.text_content("#refused-count") or "").strip() == "1"
    # Sam's row (index 1) by its line: Dana's two lines come first
    assert await page.locator("#row-1 td").all_text_contents() == [
        "4",
        "1",
        "refused",
        "email",
        "is not a valid email address",
    ]

    await submit(page, "a:has-text('Back to the mapping')")
    assert page.url == mapping
    # the page forgot the change: choices are made again on the page that starts
    await page.locator("select[aria-label='Stage: Closed']").select_option('"SPHERE"')
    await submit(page, "button:has-text('Start the import')")
    assert "Started 1 import." in await page.content()

    key = server.admin(
        "create-api-key", "--workspace", workspace["id"], "--scopes", "contacts:read:pii"
    )
    headers = {"Authorization": f"token {key['key']}"}
    async with httpx.AsyncClient(base_url=server.base_url, headers=headers) as client:

        async def imported() -> list:
            found = (await client.get("/v1/imports")).json()["data"]
            real = [item for item in found if not item["dry_run"]]
            return real if real and real[0]["status"] == "completed" else []

        (made,) = await until(imported, WITHIN, every=0.5)
        contacts = (await client.get("/v1/contacts")).json()["data"]
    assert made["counts"]["created"] == 2 and made["counts"]["failed"] == 1
    stages = {item["first_name"]: item["stage"] for item in contacts}
    assert stages == {"Dana": "LEAD", "Lee": "SPHERE"}
    owners = {item["owner_id"] for item in contacts}
    assert len(owners) == 1 and None not in owners
