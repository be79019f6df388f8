"""The inbox, a thread and the members pages in headless Chromium at 1280 and at 390 pixels
wide, with data: a `homebase serve` seeded through the admin CLI (inbound texts) and the
API (an AI reply, a refused attempt, an email), a reply and a hand back made in the
browser, an invitation made in the browser and its link's page. Nothing runs off the side
of the viewport and every <time> stays on one line (test_browser_layout.py's measure)."""

from collections.abc import Iterator

import httpx
import pytest

from homebase.auth.scopes import ALL_SCOPES
from tests.browser_support import (  # noqa: F401 (the fixture `browser`)
    Server,
    browser_fixture,
    browser_server,
    new_page,
)
from tests.console.test_browser_layout import WIDTHS, check, measured, submit

pytestmark = pytest.mark.xdist_group("browser_inbox")

EMAIL, PASSWORD = "inbox@example.com", "a long inbox password"
DANA, KIM = "+12125550142", "+17015550142"
LONG = (
    "Hi! We saw the listing on Maple Avenue and would love to see it this weekend, "
    "ideally Saturday morning; we are pre-approved and flexible otherwise. "
    "https://listings.example.com/maple-avenue-4-bedroom-with-a-very-long-address-slug"
)


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory) -> Iterator[Server]:
    with browser_server(tmp_path_factory.mktemp("inbox")) as served:
        yield served


@pytest.fixture(scope="module")
def seeded(server: Server) -> dict:
    workspace = server.admin("create-workspace", "--name", "Inbox Realty")["id"]
    server.admin(
        "create-user", "--workspace", workspace, "--email", EMAIL, "--name", "Inbox Agent",
        "--password", PASSWORD,
    )  # fmt: skip
    key = server.admin(
        "create-api-key", "--workspace", workspace, "--scopes", " ".join(ALL_SCOPES)
    )["key"]
    server.admin(
        "add-sender-number", "--workspace", workspace, "--number", "+14155550100",
        "--channel", "sms", "--a2p-status", "approved",
    )  # fmt: skip
    headers = {"Authorization": f"token {key}"}
    with httpx.Client(base_url=server.base_url, headers=headers) as api:
        dana = api.post(
            "/v1/contacts",
            json={
                "first_name": "Dana",
                "last_name": "Montgomery-Fitzgerald",
                "phone": DANA,
                "email": "dana.montgomery-fitzgerald@a-rather-long-domain.example.com",
            },
        ).json()["id"]
        kim = api.post("/v1/contacts", json={"first_name": "Kim", "phone": KIM}).json()["id"]
        for body in (LONG, "Also: is there parking?"):
            server.admin(
                "simulate-inbound", "--workspace", workspace, "--from", DANA, "--body", body
            )
        ai = api.post(
            "/v1/messages",
            json={"channel": "sms", "contact_id": dana, "ai_generated": True, "body": LONG},
        )
        assert ai.status_code == 201, ai.text
        email = api.post(
            "/v1/messages",
            json={"channel": "email", "contact_id": dana, "subject": "Maple Avenue", "body": LONG},
        )
        assert email.status_code == 201, email.text
        refused = api.post("/v1/messages", json={"channel": "sms", "contact_id": kim, "body": LONG})
        assert refused.status_code == 422, refused.text  # proactive, no consent
    return {"dana": dana, "kim": kim}


@pytest.fixture(scope="module")
async def member(browser, server: Server, seeded: dict):
    page = await new_page(browser)
    await page.goto(server.base_url + "/console/inbox")
    await page.fill("input[name=email]", EMAIL)
    await page.fill("input[name=password]", PASSWORD)
    await submit(page, "button:has-text('Sign in')")
    return page


async def test_the_inbox_and_threads_fit_at_both_widths(server: Server, seeded: dict, member):
    base = server.base_url
    await check(member, f"{base}/console/inbox")
    assert await member.locator(".conversations li").count() == 2
    await check(member, f"{base}/console/inbox/{seeded['kim']}")
    assert "Refused by the" in (await member.text_content(".thread li.failed .reason") or "")
    await check(member, f"{base}/console/inbox/{seeded['dana']}")
    assert await member.locator(".thread .badge.ai").count() == 1


async def test_a_reply_and_the_hand_back_in_the_browser(server: Server, seeded: dict, member):
    thread = f"{server.base_url}/console/inbox/{seeded['dana']}"
    await member.set_viewport_size({"width": 390, "height": 900})
    await member.goto(thread)
    await member.select_option("select[name=channel]", "sms")
    await member.fill("textarea[name=body]", "Saturday at 10 works. See you at the door!")
    await submit(member, "button:has-text('Send')")
    assert "Your reply is queued" in (await member.text_content(".notice") or "")
    await measured(member, "after the reply", 390, times=True)
    await submit(member, "button:has-text('Hand back to the AI')")
    assert "answers this contact's texts again" in (await member.text_content(".notice") or "")
    for width in WIDTHS:
        await member.set_viewport_size({"width": width, "height": 900})
        await member.goto(thread)
        await measured(member, "after the hand back", width, times=True)


async def test_members_and_an_invitation_fit_at_both_widths(
    server: Server, seeded, member, browser
):
    await check(member, f"{server.base_url}/console/members")
    links = []
    for width in WIDTHS:
        await member.set_viewport_size({"width": width, "height": 900})
        await member.goto(f"{server.base_url}/console/members")
        await member.fill("input[name=email]", f"new-member-{width}@a-rather-long-domain.example")
        await member.fill("input[name=name]", f"New Member at {width}")
        await submit(member, "button:has-text('Send invitation')")
        link = await member.text_content("#invitation-link") or ""
        assert "/console/invitations/hbi_" in link
        links.append(link)
        await measured(member, "invitation made", width, times=True)
    invitee = await new_page(browser)
    await check(invitee, links[0], times=False)
    await invitee.fill("input[name=new_password]", "a garden of seven lanterns")
    await invitee.fill("input[name=confirm_password]", "a garden of seven lanterns")
    await submit(invitee, "button:has-text('Join')")
    assert "you are now a member" in (await invitee.text_content(".notice") or "")
    await measured(invitee, "joined", 390, times=False)
