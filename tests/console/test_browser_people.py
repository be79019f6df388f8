"""People, a person's page and Tasks in headless Chromium at 1280 and at 390 pixels wide,
with the checks of tests/console/test_browser_layout.py (nothing runs off the side of the
viewport, every <time> on one line): a served instance of its own, seeded through the
admin CLI and the API with long names, tags, a note, a handoff-like task and a paused AI;
the Pause and Add note forms posted in the browser."""

from collections.abc import Iterator

import httpx
import pytest

from homebase.auth.scopes import ALL_SCOPES
from tests.browser_support import (  # noqa: F401 (the fixture `browser`)
    Server,
    browser_fixture,
    new_page,
    require_chromium,
)
from tests.console.test_browser_layout import WIDTHS, check, measured, submit
from tests.served_support import serve

pytestmark = pytest.mark.xdist_group("browser_people")

EMAIL, PASSWORD = "people@example.com", "a long people password"
LONG = "Alexandrina-Maximiliana Wolfeschlegelsteinhausenbergerdorff"


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory) -> Iterator[Server]:
    require_chromium()
    with serve(tmp_path_factory.mktemp("people"), worker=False) as served:
        yield served


@pytest.fixture(scope="module")
def seeded(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "People Realty")
    member = server.admin(
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        EMAIL,
        "--name",
        "People Agent",
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
        "people",
    )
    api = httpx.Client(base_url=server.base_url, headers={"Authorization": f"token {key['key']}"})
    with api:
        api.post(
            "/v1/custom-fields",
            json={"object": "contacts", "key": "budget", "label": "Budget", "type": "number"},
        ).raise_for_status()
        made = api.post(
            "/v1/contacts",
            json={
                "first_name": LONG,
                "last_name": LONG,
                "email": "alexandrina.maximiliana.wolfeschlegelsteinhausen@example.com",
                "phone": "+1 415 555 0142",
                "stage": "HOT_LEAD",
                "tags": ["buyer", "pre-approved", "first-time-buyer-with-a-long-tag"],
                "owner_id": member["id"],
                "custom_fields": {"budget": 850000},
                "notes": "Three bedrooms near the park. " * 12,
            },
        )
        made.raise_for_status()
        contact = made.json()["id"]
        for index in range(3):
            api.post("/v1/contacts", json={"first_name": f"Sam {index}"}).raise_for_status()
        api.post(
            f"/v1/contacts/{contact}/notes", json={"body": "Called back; " * 30}
        ).raise_for_status()
        api.post(
            "/v1/tasks",
            json={
                "title": f"Call {LONG}: asked for a person",
                "contact_id": contact,
                "assignee_id": member["id"],
                "due_at": "2030-01-01T17:00:00Z",
                "priority": "high",
                "notes": "Wants a showing Saturday. " * 8,
            },
        ).raise_for_status()
    return {"contact": contact}


@pytest.fixture(scope="module")
async def member(browser, server: Server, seeded: dict):
    page = await new_page(browser)
    await page.goto(server.base_url + "/console/people")
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    await submit(page, "button:has-text('Sign in')")
    return page


async def test_people_person_and_tasks_fit_at_both_widths(server: Server, seeded, member):
    base = server.base_url
    await check(member, f"{base}/console/people")
    await check(member, f"{base}/console/people?q=Alexandrina&stage=HOT_LEAD&tag=buyer")
    await check(member, f"{base}/console/people/{seeded['contact']}")
    await check(member, f"{base}/console/tasks")


async def test_the_forms_work_in_the_browser(server: Server, seeded, member):
    person = f"{server.base_url}/console/people/{seeded['contact']}"
    for width in WIDTHS:
        await member.set_viewport_size({"width": width, "height": 900})
        await member.goto(person)
        if await member.locator("button:has-text('Resume the AI')").count():
            await submit(member, "button:has-text('Resume the AI')")
        await submit(member, "button:has-text('Pause the AI')")
        assert "a member paused it" in (await member.text_content(".ai-state") or "")
        await measured(member, "paused", width, times=True)
        await member.fill("textarea[name=body]", f"Noted at {width} pixels")
        await submit(member, "button:has-text('Add note')")
        assert f"Noted at {width} pixels" in (await member.text_content(".timeline") or "")
        await measured(member, "noted", width, times=True)
    await member.goto(f"{server.base_url}/console/tasks")
    await submit(member, "button:has-text('Complete')")
    assert "The task is done." in (await member.content())
