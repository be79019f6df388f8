"""POST /leads/routing-preview: the dry run names the winning rule, the assignee, every
rule considered with its failing conditions and a reason; it writes nothing and never
advances a rotation cursor; and it agrees with live routing when no rotation is involved."""

import pytest

from tests.leads_support import counts, load_team
from tests.support import failing_fields

RULES = [
    {
        "name": "Luxury to Priya",
        "method": "agent",
        "agent": "priya",
        "conditions": {"price_min": 2000000},
    },
    {
        "name": "SF portal buyers",
        "method": "round_robin",
        "agents": ["maya", "luis"],
        "conditions": {"source": ["Zillow", "Realtor.com"], "zip": "941", "has_phone": True},
    },
    {
        "name": "Sellers",
        "method": "first_available",
        "team": "buyers",
        "conditions": {"tags": ["seller"]},
    },
    {"name": "Everyone else", "method": "agent", "agent": "maya", "fallback": True},
]


@pytest.fixture
async def rules(runtime, tenant):
    return await load_team(runtime, tenant.id, RULES)


async def preview(tenant, **body):
    response = await tenant.post("/v1/leads/routing-preview", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_preview_explains_the_decision(tenant, rules):
    result = await preview(tenant, source="Website", price=2500000)
    assert result["dry_run"] is True and result["rotation_advanced"] is False
    assert result["winning_rule"]["id"] == rules["rule0"]
    assert result["assignee"] == {"id": rules["priya"], "name": "Priya"}
    assert result["assignee_id"] == rules["priya"] and result["method"] == "agent"
    outcomes = [(entry["rule"]["name"], entry["outcome"]) for entry in result["considered"]]
    assert outcomes == [
        ("Luxury to Priya", "selected"),
        ("SF portal buyers", "conditions_not_met"),
        ("Sellers", "conditions_not_met"),
        ("Everyone else", "outranked"),
    ]
    portal = result["considered"][1]["failing_conditions"]
    assert [failed["condition"] for failed in portal] == ["source", "zip"]
    assert portal[0]["actual"] == "Website" and portal[1]["actual"] is None
    assert "Luxury to Priya" in result["reason"]


async def test_preview_falls_back(tenant, rules):
    result = await preview(tenant, source="Website")
    assert result["used_fallback"] is True and result["assignee_id"] == rules["maya"]
    assert "fallback" in result["reason"]


async def test_round_robin_preview_does_not_advance_and_says_so(runtime, tenant, rules):
    before = await counts(runtime)
    first = await preview(tenant, source="Zillow", zip="94110")
    second = await preview(tenant, source="Zillow", zip="94110")
    assert first == second
    assert first["method"] == "round_robin" and first["rotation_turn"] == 0
    assert "does not advance the rotation cursor" in first["reason"]
    assert await counts(runtime) == before
    live = (
        await tenant.post(
            "/v1/leads",
            json={"phone": "+14155550100", "source": "Zillow", "context": {"zip": "94110"}},
        )
    ).json()
    assert live["assignee_id"] == first["assignee_id"]  # nobody routed in between
    after = await preview(tenant, source="Zillow", zip="94110")
    assert after["rotation_turn"] == 1 and after["assignee_id"] == rules["luis"]


async def test_preview_writes_nothing(runtime, tenant, rules):
    before = await counts(runtime)
    for body in (
        {"source": "Zillow", "zip": "94110"},
        {"source": "x", "tags": ["seller"]},
        {"source": "x", "price": 3000000},
        {"source": "x"},
    ):
        await preview(tenant, **body)
    assert await counts(runtime) == before


@pytest.mark.parametrize(
    "context",
    [
        {"price": 2500000},
        {"tags": ["seller"]},
        {"zip": "10001", "city": "New York"},
    ],
)
async def test_preview_and_live_agree_without_rotation(tenant, rules, context):
    expected = await preview(tenant, source="Website", **context)
    lead = (
        await tenant.post(
            "/v1/leads", json={"phone": "+14155550100", "source": "Website", "context": context}
        )
    ).json()
    assert lead["assignee_id"] == expected["assignee_id"]
    assert lead["routing_rule_id"] == expected["winning_rule"]["id"]
    assert lead["routing_reason"] == expected["reason"]


async def test_first_available_prefers_the_least_loaded(tenant, rules):
    first = await preview(tenant, source="x", tags=["seller"])
    assert first["assignee_id"] == rules["maya"]  # tie: pool order is id order
    await tenant.post(
        "/v1/leads", json={"phone": "+14155550100", "source": "x", "context": {"tags": ["seller"]}}
    )
    second = await preview(tenant, source="x", tags=["seller"])
    assert second["assignee_id"] == rules["luis"]
    assert "fewest" in second["reason"]


async def test_preview_without_rules(tenant):
    result = await preview(tenant, source="Zillow")
    assert result["winning_rule"] is None and result["assignee"] is None
    assert result["considered"] == []


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"source"}),
        ({"source": ""}, {"source"}),
        ({"source": "s" * 81}, {"source"}),
        ({"source": "x", "zip": "1" * 17}, {"zip"}),
        ({"source": "x", "city": "c" * 81}, {"city"}),
        ({"source": "x", "price": -1}, {"price"}),
        ({"source": "x", "has_phone": "yes"}, {"has_phone"}),
        ({"source": "x", "tags": ["t"] * 31}, {"tags"}),
        ({"source": "x", "tags": ["t" * 41]}, {"tags.0"}),
        ({"source": "x", "stage": "s" * 33}, {"stage"}),
        ({"source": "x", "office_id": "o" * 41, "team_id": "t" * 41}, {"office_id", "team_id"}),
        ({"source": "x", "extra": 1}, {"extra"}),
    ],
)
async def test_invalid_preview_bodies_are_400(tenant, body, fields):
    assert failing_fields(await tenant.post("/v1/leads/routing-preview", json=body)) == fields


async def test_preview_is_documented_in_openapi(client):
    document = (await client.get("/v1/openapi.json")).json()
    operation = document["paths"]["/v1/leads/routing-preview"]["post"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/RoutingPreview")
    members = document["components"]["schemas"]["RoutingPreview"]["properties"]
    assert {"winning_rule", "assignee", "considered", "reason", "rotation_advanced"} <= set(members)
    assert all(
        member.get("description")
        for name, member in members.items()
        if name in ("considered", "reason", "rotation_advanced")
    )
