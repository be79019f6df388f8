"""load-fixtures for the leads area: offices, teams, members placed in them, routing
rules (refused with a clear message when invalid), leads, workspace settings; and the
demo workspace's realistic set."""

import pytest

from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.workspaces import service as workspaces
from homebase.workspaces.demo import demo_document
from tests.leads_support import TEAM, load


async def test_demo_document_loads_with_rules_and_routed_leads(runtime, tenant):
    created = await load(runtime, tenant.id, demo_document())
    assert len(created["offices"]) == 2 and len(created["teams"]) == 2
    assert len(created["routing_rules"]) >= 4 and len(created["leads"]) >= 3
    leads = (await tenant.get("/v1/leads")).json()["data"]
    assert all(lead["routing_status"] == "assigned" for lead in leads)
    assert any(lead["ai_outbound_allowed"] for lead in leads)
    preview = (
        await tenant.post("/v1/leads/routing-preview", json={"source": "Zillow", "zip": "94110"})
    ).json()
    assert preview["method"] == "round_robin"


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"name": "x", "method": "telepathy", "agent": "maya"}, "routing_rules[0].method"),
        ({"name": "x", "method": "agent"}, "exactly one member"),
        ({"name": "x", "method": "agent", "agent": "maya", "agents": ["luis"]}, "exactly one"),
        ({"name": "x", "method": "round_robin"}, "give at least one"),
        ({"name": "x", "method": "agent", "agent": "nobody"}, "unknown ref 'nobody'"),
        ({"name": "x", "method": "agent", "agent": "usr_missing"}, "no agent usr_missing"),
        ({"name": "x", "method": "round_robin", "team": "team_missing"}, "no team team_missing"),
        (
            {"name": "x", "method": "agent", "agent": "maya", "conditions": {"colour": "red"}},
            "conditions.colour",
        ),
        (
            {
                "name": "x",
                "method": "agent",
                "agent": "maya",
                "conditions": {"price_min": 5, "price_max": 1},
            },
            "price_min must not exceed price_max",
        ),
        (
            {
                "name": "x",
                "method": "agent",
                "agent": "maya",
                "fallback": True,
                "conditions": {"source": "Zillow"},
            },
            "takes no conditions",
        ),
        ({"method": "agent", "agent": "maya"}, "routing_rules[0].name"),
    ],
)
async def test_invalid_rules_are_refused_with_a_clear_message(runtime, tenant, rule, message):
    with pytest.raises(
        AdminError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")
    ):
        await load(runtime, tenant.id, {**TEAM, "routing_rules": [rule]})
    assert (await tenant.post("/v1/leads/routing-preview", json={"source": "x"})).json()[
        "considered"
    ] == []  # nothing of the file was kept


async def test_only_one_fallback_rule(runtime, tenant):
    fallback = {"name": "fb", "method": "agent", "agent": "maya", "fallback": True}
    with pytest.raises(AdminError, match="only one is allowed"):
        await load(runtime, tenant.id, {**TEAM, "routing_rules": [fallback, fallback]})


async def test_kinds_load_in_dependency_order_whatever_the_file_order(runtime, tenant):
    document = {
        "routing_rules": [{"name": "r", "method": "round_robin", "team": "buyers"}],
        "members": TEAM["members"],
        "teams": TEAM["teams"],
        "offices": TEAM["offices"],
    }
    created = await load(runtime, tenant.id, document)
    assert list(created) == ["offices", "teams", "members", "routing_rules"]


async def test_create_user_places_members_in_offices_and_teams(runtime, tenant):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        first = await workspaces.create_user(
            session, email="a@example.com", name="A", office_id="off_north", team_id="team_north"
        )
        await workspaces.create_user(
            session, email="b@example.com", name="B", office_id="off_north", team_id="team_north"
        )
    await load(
        runtime,
        tenant.id,
        {"routing_rules": [{"name": "north", "method": "round_robin", "office": "off_north"}]},
    )
    preview = (await tenant.post("/v1/leads/routing-preview", json={"source": "x"})).json()
    assert len(preview["considered"][0]["eligible_agent_ids"]) == 2
    assert preview["assignee_id"] == first["id"]


async def test_fixture_lead_with_an_assignee(runtime, tenant):
    created = await load(
        runtime,
        tenant.id,
        {**TEAM, "leads": [{"phone": "+14155550100", "source": "Referral", "assignee": "priya"}]},
    )
    lead = (await tenant.get(f"/v1/leads/{created['leads'][0]}")).json()
    assert lead["assignee_id"] == created["members"][2] and lead["routing_method"] == "manual"


async def test_bad_workspace_settings_are_refused(runtime, tenant):
    with pytest.raises(AdminError, match="consent_validity_days"):
        await load(runtime, tenant.id, {"workspace_settings": [{"consent_validity_days": 0}]})
    with pytest.raises(AdminError, match="unknown_setting"):
        await load(runtime, tenant.id, {"workspace_settings": [{"unknown_setting": 1}]})
