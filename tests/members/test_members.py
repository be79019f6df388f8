"""GET /v1/members: the workspace's people, their emails masked as contacts' are, whether
routing gives them leads, removed ones flagged; paging, `fields`, and never another
workspace's members."""

from homebase.db.tenancy import TenantSession
from homebase.workspaces import members as workspace_members
from tests.leads_support import TEAM, load
from tests.support import assert_error, walk_pages

# Maya and Luis take leads through the rule's team; Priya is named by no rule.
RULES = [{"name": "Buyers", "method": "round_robin", "team": "buyers"}]


async def load_members(runtime, workspace_id) -> dict[str, str]:
    created = await load(runtime, workspace_id, {**TEAM, "routing_rules": RULES})
    return dict(zip(("maya", "luis", "priya"), created["members"], strict=True))


async def remove(runtime, workspace_id, email):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        member = await workspace_members.find_member(session, email)
        await workspace_members.remove_member(session, member)


async def test_members_with_pii_show_emails_routing_and_removal(runtime, tenant):
    ids = await load_members(runtime, tenant.id)
    await remove(runtime, tenant.id, "luis@example.com")
    response = await tenant.get("/v1/members")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["has_more"] is False and body["next_cursor"] is None
    by_id = {item["id"]: item for item in body["data"]}
    assert set(by_id) == set(ids.values())
    maya, luis, priya = (by_id[ids[name]] for name in ("maya", "luis", "priya"))
    assert maya["email"] == "maya@example.com" and maya["name"] == "Maya"
    assert maya["pii_masked"] is False
    assert maya["takes_leads"] is True and maya["removed"] is False
    assert maya["removed_at"] is None and maya["office_id"] and maya["team_id"]
    assert luis["removed"] is True and luis["removed_at"] and luis["takes_leads"] is False
    assert priya["takes_leads"] is False and priya["removed"] is False
    assert "password_hash" not in maya
    current = (await tenant.get("/v1/members", params={"removed": "false"})).json()["data"]
    assert {item["id"] for item in current} == {ids["maya"], ids["priya"]}
    gone = (await tenant.get("/v1/members", params={"removed": "true"})).json()["data"]
    assert [item["id"] for item in gone] == [ids["luis"]]


async def test_emails_are_masked_without_pii_and_the_scope_is_contacts_read(runtime, make):
    reader = await make(["contacts:read"])
    ids = await load_members(runtime, reader.id)
    items = (await reader.get("/v1/members")).json()["data"]
    maya = next(item for item in items if item["id"] == ids["maya"])
    assert maya["email"] == "m***@example.com" and maya["pii_masked"] is True
    assert maya["name"] == "Maya"
    denied = await (await make(["leads:read"], name="No Contacts")).get("/v1/members")
    assert_error(denied, 403, "insufficient_scope")


async def test_fields_narrow_each_member(runtime, tenant):
    await load_members(runtime, tenant.id)
    items = (await tenant.get("/v1/members", params={"fields": "name,takes_leads"})).json()["data"]
    assert items and all(set(item) == {"id", "pii_masked", "name", "takes_leads"} for item in items)
    refused = await tenant.get("/v1/members", params={"fields": "password_hash"})
    assert_error(refused, 400, "validation_failed")


async def test_pages_walk_every_member_once(runtime, tenant):
    ids = await load_members(runtime, tenant.id)
    seen = await walk_pages(tenant, "/v1/members", {"limit": 1})
    assert sorted(seen) == sorted(ids.values())
    assert seen == sorted(seen, reverse=True)  # newest first
    first = (await tenant.get("/v1/members", params={"limit": 2})).json()
    assert len(first["data"]) == 2 and first["has_more"] is True and first["next_cursor"]
    stale = (await tenant.get("/v1/members", params={"cursor": "not-a-cursor"})).json()
    assert len(stale["data"]) == 3  # a malformed cursor restarts the walk


async def test_another_workspaces_members_never_appear(runtime, tenant, other_tenant):
    ours = await load_members(runtime, tenant.id)
    assert (await other_tenant.get("/v1/members")).json()["data"] == []
    theirs = await load_members(runtime, other_tenant.id)
    listed = {item["id"] for item in (await tenant.get("/v1/members")).json()["data"]}
    assert listed == set(ours.values()) and not listed & set(theirs.values())
    # A cursor of one workspace's list opens nothing of another's.
    page = (await tenant.get("/v1/members", params={"limit": 1})).json()
    other_page = await other_tenant.get(
        "/v1/members", params={"limit": 1, "cursor": page["next_cursor"]}
    )
    assert {item["id"] for item in other_page.json()["data"]} <= set(theirs.values())
