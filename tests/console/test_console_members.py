"""The console's members page: the workspace's members as GET /v1/members lists them,
emails in full, whether routing gives them leads, removed ones flagged; never another
workspace's."""

import re

import pytest

from tests.console_support import make_member, member_browser, post_form
from tests.leads_support import TEAM, load
from tests.members.test_members import RULES, remove

PATH = "/console/members"
REGION = "default_phone_region"


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def rows(html: str) -> dict[str, str]:
    return dict(re.findall(r'<tr id="(usr_[^"]+)">(.*?)</tr>', html, re.DOTALL))


async def test_the_page_lists_the_workspaces_members(runtime, tenant, other_tenant, console):
    created = await load(runtime, tenant.id, {**TEAM, "routing_rules": RULES})
    maya, luis, priya = created["members"]
    await remove(runtime, tenant.id, "luis@example.com")
    theirs = await load(runtime, other_tenant.id, {"members": TEAM["members"][2:]})
    response = await console.get(PATH)
    assert response.status_code == 200
    assert 'href="/console/members" aria-current="page"' in response.text
    shown = rows(response.text)
    assert set(shown) >= {maya, luis, priya} and theirs["members"][0] not in shown
    assert "maya@example.com" in shown[maya] and "<td>yes</td>" in shown[maya]
    assert "removed" in shown[luis] and "<td>no</td>" in shown[luis]
    assert "<td>no</td>" in shown[priya] and "active" in shown[priya]


async def test_the_page_needs_a_session(client):
    response = await client.get(PATH)
    assert response.status_code == 303
    assert response.headers["location"].startswith("/console/login?next=")


async def test_the_home_page_sets_the_default_phone_region(tenant, console):
    home = await console.get("/console")
    assert 'name="default_phone_region" value="US"' in home.text
    refused = await post_form(console, "/console", "/console/phone-region", {REGION: "ZZ"})
    assert refused.status_code == 400
    assert "default_phone_region: is not a region code" in refused.text
    assert 'value="ZZ"' in refused.text  # the form keeps what was typed
    saved = await post_form(console, "/console", "/console/phone-region", {REGION: "gb"})
    assert saved.status_code == 303 and saved.headers["location"] == "/console?saved=1"
    assert 'name="default_phone_region" value="GB"' in (await console.get("/console")).text
    created = await tenant.post("/v1/contacts", json={"phone": "020 7946 0958"})
    assert created.json()["phone_e164"] == "+442079460958"
