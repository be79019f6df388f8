"""Leads at the HTTP level: the spec's field rules, linking to contacts, unlinked_only,
masking, timeline entries, outbox events, assignment, scopes and tenancy."""

import pytest
from sqlalchemy import select

from homebase.consent.service import valid_consent
from homebase.db.tenancy import TenantSession
from homebase.models import ConsentArtifact
from tests.leads_support import load_team, outbox
from tests.support import assert_error, failing_fields

LEAD = {"phone": "+1 415 555 0142", "source": "Zillow"}
MASKED_SCOPES = ["leads:write", "contacts:write", "events:read"]


@pytest.fixture
async def masked(make):
    """A workspace whose key may not see personal data."""
    return await make(MASKED_SCOPES)


async def create(tenant, **extra):
    response = await tenant.post("/v1/leads", json={**LEAD, **extra})
    assert response.status_code == 201, response.text
    return response.json()


async def test_minimal_lead_is_created_linked_and_masked(masked):
    tenant = masked
    lead = await create(tenant)
    assert lead["id"].startswith("lea_")
    assert lead["ai_outbound_allowed"] is False
    assert lead["pii_masked"] is True and lead["phone"] == "+* *** *** 0142"
    assert lead["routing_status"] == "unassigned"  # the workspace has no rules
    contact = (await tenant.get(f"/v1/contacts/{lead['contact_id']}")).json()
    assert contact["source"] == "Zillow" and contact["stage"] == "LEAD"
    fetched = await tenant.get(f"/v1/leads/{lead['id']}")
    assert fetched.status_code == 200 and fetched.json() == lead


async def test_pii_scope_sees_the_full_phone_and_email(make):
    scoped = await make(["leads:write", "contacts:read:pii"])
    lead = await create(scoped, email="dana@example.com")
    assert lead["pii_masked"] is False
    assert (lead["phone"], lead["email"]) == ("+1 415 555 0142", "dana@example.com")


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"phone", "source"}),
        ({"phone": "1234", "source": "x"}, {"phone"}),
        ({"phone": "1" * 33, "source": "x"}, {"phone"}),
        ({**LEAD, "source": ""}, {"source"}),
        ({**LEAD, "source": "s" * 81}, {"source"}),
        ({**LEAD, "first_name": "f" * 81, "last_name": "l" * 81}, {"first_name", "last_name"}),
        ({**LEAD, "email": "not-an-email"}, {"email"}),
        ({**LEAD, "email": ".dana@example.com"}, {"email"}),
        ({**LEAD, "email": "da..na@example.com"}, {"email"}),
        ({**LEAD, "source_ref": "r" * 121}, {"source_ref"}),
        ({**LEAD, "context": ["not", "an", "object"]}, {"context"}),
        ({**LEAD, "consent": {"source_url": "not a uri"}}, {"consent.source_url"}),
        (
            {**LEAD, "consent": {"source_url": "https://x.example/" + "a" * 2040}},
            {"consent.source_url"},
        ),
        ({**LEAD, "consent": {"ip": "1" * 65}}, {"consent.ip"}),
        ({**LEAD, "consent": {"form_snapshot": "text"}}, {"consent.form_snapshot"}),
        ({**LEAD, "consent": {"captured_at": "yesterday"}}, {"consent.captured_at"}),
        ({**LEAD, "consent": {"unknown": 1}}, {"consent.unknown"}),
        ({**LEAD, "skip_routing": "yes"}, {"skip_routing"}),
        ({**LEAD, "owner_id": "usr_1"}, {"owner_id"}),
    ],
)
async def test_invalid_bodies_are_400_naming_each_field(tenant, body, fields):
    assert failing_fields(await tenant.post("/v1/leads", json=body)) == fields


async def test_limits_are_inclusive(tenant):
    body = {
        "phone": "12345",
        "source": "s" * 80,
        "first_name": "f" * 80,
        "source_ref": "r" * 120,
        "context": {"any": [1, {"x": None}]},
        "consent": {
            "ip": "1" * 64,
            "source_url": "https://x.example/" + "a" * 2030,
            "form_snapshot": {"a": 1},
            "captured_at": 1763658238,
        },
    }
    assert (await tenant.post("/v1/leads", json=body)).status_code == 201


async def test_lead_links_to_the_contact_with_the_same_number_or_email(tenant):
    by_phone = (await tenant.post("/v1/contacts", json={"phone": "(415) 555-0142"})).json()
    by_email = (await tenant.post("/v1/contacts", json={"email": "Sam@Example.com"})).json()
    assert (await create(tenant))["contact_id"] == by_phone["id"]
    lead = await create(tenant, phone="+1 510 555 0199", email="sam@example.com")
    assert lead["contact_id"] == by_email["id"]
    fresh = await create(tenant, phone="+1 650 555 0100")
    assert fresh["contact_id"] not in (by_phone["id"], by_email["id"], None)


async def test_unlinked_only_lists_leads_without_a_usable_phone_or_email(tenant):
    linked = await create(tenant)
    unlinked = await create(tenant, phone="call me maybe")
    assert unlinked["contact_id"] is None
    listed = (await tenant.get("/v1/leads", params={"unlinked_only": "true"})).json()
    assert [lead["id"] for lead in listed["data"]] == [unlinked["id"]]
    everything = (await tenant.get("/v1/leads", params={"unlinked_only": "false"})).json()
    assert [lead["id"] for lead in everything["data"]] == [unlinked["id"], linked["id"]]
    by_contact = (await tenant.get("/v1/leads", params={"contact_id": linked["contact_id"]})).json()
    assert [lead["id"] for lead in by_contact["data"]] == [linked["id"]]


@pytest.mark.parametrize(
    "params",
    [
        {"unlinked_only": "yes"},
        {"unlinked_only": "True"},
        {"unlinked_only": "1"},
        {"contact_id": "c" * 41},
    ],
)
async def test_bad_list_filters_are_400(tenant, params):
    assert failing_fields(await tenant.get("/v1/leads", params=params)) == set(params)


async def test_lead_list_pages_and_narrows_fields(masked):
    tenant = masked
    ids = [(await create(tenant, phone=f"+1 415 555 01{index:02d}"))["id"] for index in range(3)]
    first = (await tenant.get("/v1/leads", params={"limit": 2, "fields": "source"})).json()
    assert first["has_more"] is True
    assert first["data"][0] == {"id": ids[2], "source": "Zillow", "pii_masked": True}
    second = (
        await tenant.get("/v1/leads", params={"limit": 2, "cursor": first["next_cursor"]})
    ).json()
    assert [lead["id"] for lead in second["data"]] == [ids[0]] and second["has_more"] is False


async def test_routed_lead_sets_assignee_owner_timeline_and_events(runtime, masked):
    tenant = masked
    ids = await load_team(
        runtime, tenant.id, [{"name": "All to Luis", "method": "agent", "agent": "luis"}]
    )
    lead = await create(tenant, first_name="Dana", email="dana@example.com")
    assert (lead["assignee_id"], lead["routing_status"]) == (ids["luis"], "assigned")
    assert lead["routing_method"] == "agent" and lead["routing_rule_id"] == ids["rule0"]
    contact = (await tenant.get(f"/v1/contacts/{lead['contact_id']}")).json()
    assert contact["owner_id"] == ids["luis"]
    events = (await tenant.get(f"/v1/contacts/{lead['contact_id']}/events")).json()["data"]
    assert {event["type"] for event in events} == {"lead_created", "lead_assigned"}
    assert all(event["data"]["lead_id"] == lead["id"] for event in events)
    emitted = {row["type"]: row["data"] for row in await outbox(runtime, tenant.id)}
    assert {"contact.created", "lead.created", "lead.assigned"} <= set(emitted)
    assert emitted["lead.created"]["phone"] == "+* *** *** 0142"
    assert emitted["lead.created"]["email"] == "d***@example.com"
    assert emitted["lead.assigned"]["assignee_id"] == ids["luis"]
    assert emitted["lead.assigned"]["lead"]["phone"] == "+* *** *** 0142"


async def test_routing_an_existing_contact_hands_it_to_the_assignee(runtime, tenant):
    ids = await load_team(
        runtime, tenant.id, [{"name": "Maya", "method": "agent", "agent": "maya"}]
    )
    contact = (
        await tenant.post("/v1/contacts", json={"phone": "+14155550142", "owner_id": ids["priya"]})
    ).json()
    lead = await create(tenant)
    assert lead["contact_id"] == contact["id"]
    assert (await tenant.get(f"/v1/contacts/{contact['id']}")).json()["owner_id"] == ids["maya"]
    updated = [row for row in await outbox(runtime, tenant.id) if row["type"] == "contact.updated"]
    assert updated[-1]["data"]["changed"] == ["owner_id"]


async def test_skip_routing_creates_without_assigning(runtime, tenant):
    await load_team(runtime, tenant.id, [{"name": "Maya", "method": "agent", "agent": "maya"}])
    lead = await create(tenant, skip_routing=True)
    assert (lead["routing_status"], lead["assignee_id"]) == ("skipped", None)
    types = [row["type"] for row in await outbox(runtime, tenant.id)]
    assert "lead.created" in types and "lead.assigned" not in types


async def test_assign_to_a_member_by_hand(runtime, tenant):
    ids = await load_team(
        runtime, tenant.id, [{"name": "Maya", "method": "agent", "agent": "maya"}]
    )
    lead = await create(tenant)
    response = await tenant.post(
        f"/v1/leads/{lead['id']}/assign", json={"assignee_id": ids["priya"]}
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["lead_id"] == lead["id"] and result["changed"] is True
    assert (result["assignee_id"], result["previous_assignee_id"]) == (ids["priya"], ids["maya"])
    assert result["method"] == "manual" and result["rule"] is None
    assert result["lead"]["assignee_id"] == ids["priya"]
    assert result["lead"]["routing_method"] == "manual"
    contact = (await tenant.get(f"/v1/contacts/{lead['contact_id']}")).json()
    assert contact["owner_id"] == ids["priya"]
    again = (
        await tenant.post(f"/v1/leads/{lead['id']}/assign", json={"assignee_id": ids["priya"]})
    ).json()
    assert again["changed"] is False
    assigned = [row for row in await outbox(runtime, tenant.id) if row["type"] == "lead.assigned"]
    assert len(assigned) == 2


async def test_assign_without_assignee_reroutes_through_the_rules(runtime, tenant):
    ids = await load_team(
        runtime,
        tenant.id,
        [{"name": "rotate", "method": "round_robin", "agents": ["maya", "luis"]}],
    )
    lead = await create(tenant, skip_routing=True)
    for expected in ("maya", "luis"):
        result = (await tenant.post(f"/v1/leads/{lead['id']}/assign")).json()
        assert result["assignee_id"] == ids[expected]
        assert result["method"] == "round_robin" and result["rule"]["id"] == ids["rule0"]
    empty_body = await tenant.post(f"/v1/leads/{lead['id']}/assign", json={})
    assert empty_body.json()["assignee_id"] == ids["maya"]


async def test_reroute_that_finds_nobody_keeps_the_assignee(runtime, tenant):
    ids = await load_team(runtime, tenant.id, [])
    lead = await create(tenant)
    await tenant.post(f"/v1/leads/{lead['id']}/assign", json={"assignee_id": ids["maya"]})
    result = (await tenant.post(f"/v1/leads/{lead['id']}/assign")).json()
    assert (result["assignee_id"], result["changed"], result["method"]) == (
        ids["maya"],
        False,
        None,
    )
    assert "unassigned" in result["reason"] or "No rule" in result["reason"]


async def test_assign_to_a_non_member_is_a_clear_400(runtime, tenant, other_tenant):
    other = await load_team(runtime, other_tenant.id, [])
    lead = await create(tenant)
    for assignee in (other["maya"], "usr_unknown"):
        error = assert_error(
            await tenant.post(f"/v1/leads/{lead['id']}/assign", json={"assignee_id": assignee}),
            400,
            "validation_failed",
        )
        assert error["details"]["errors"][0]["field"] == "assignee_id"
        assert "not a member" in error["message"]
    assert failing_fields(
        await tenant.post(f"/v1/leads/{lead['id']}/assign", json={"assignee_id": "u" * 41})
    ) == {"assignee_id"}


async def test_another_workspaces_lead_is_404(tenant, other_tenant):
    lead = await create(other_tenant)
    assert_error(await tenant.get(f"/v1/leads/{lead['id']}"), 404, "not_found")
    assert_error(await tenant.post(f"/v1/leads/{lead['id']}/assign"), 404, "not_found")
    assert_error(await tenant.get("/v1/leads/lea_unknown"), 404, "not_found")
    assert (await tenant.get("/v1/leads")).json()["data"] == []


@pytest.mark.parametrize(
    ("scopes", "method", "path", "missing"),
    [
        (["contacts:write"], "get", "/v1/leads", "leads:read"),
        (["leads:read"], "post", "/v1/leads", "leads:write"),
        (["leads:read"], "post", "/v1/leads/lea_x/assign", "leads:write"),
        (["contacts:read"], "post", "/v1/leads/routing-preview", "leads:read"),
    ],
)
async def test_scopes(make, scopes, method, path, missing):
    scoped = await make(scopes)
    response = await getattr(scoped, method)(path, **({"json": LEAD} if method == "post" else {}))
    assert assert_error(response, 403, "insufficient_scope")["details"]["missing_scope"] == missing


async def test_leads_write_implies_read(make):
    writer = await make(["leads:write"])
    lead = await create(writer)
    assert (await writer.get(f"/v1/leads/{lead['id']}")).status_code == 200


async def test_erasing_the_contact_scrubs_its_leads_and_revokes_their_consent(runtime, tenant):
    """DELETE /contacts/{id}: its leads lose names, email, number and free-form context;
    the consent recorded with them is revoked and stripped of the number, IP and form.
    Another contact's lead of the same number falls back to its own consent."""
    other = (
        await tenant.post(
            "/v1/contacts", json={"email": "sam@example.com", "phone": "+1 415 555 0199"}
        )
    ).json()
    shared = await create(tenant, email="sam@example.com", consent={"ip": "198.51.100.1"})
    assert shared["contact_id"] == other["id"]
    lead = await create(
        tenant,
        first_name="Dana",
        last_name="Reyes",
        email="dana@example.com",
        context={"zip": "94110", "listing_address": "123 Valencia St"},
        consent={"ip": "203.0.113.7", "form_snapshot": {"name": "Dana"}},
    )
    assert lead["contact_id"] != other["id"]
    assert (await tenant.get(f"/v1/leads/{shared['id']}")).json()["consent_id"] == lead[
        "consent_id"
    ]  # the later consent covered it

    assert (await tenant.delete(f"/v1/contacts/{lead['contact_id']}")).status_code == 200
    erased = (await tenant.get(f"/v1/leads/{lead['id']}")).json()
    assert (erased["first_name"], erased["last_name"], erased["email"]) == (None, None, None)
    assert erased["phone"] == "+* *** *** 0142" and erased["context"] == {"zip": "94110"}
    assert erased["ai_outbound_allowed"] is False and erased["consent_id"] is None
    assert erased["contact_id"] == lead["contact_id"]
    kept = (await tenant.get(f"/v1/leads/{shared['id']}")).json()
    assert kept["consent_id"] == shared["consent_id"] and kept["ai_outbound_allowed"] is True

    artifacts = ConsentArtifact.__table__
    async with runtime.db.transaction() as connection:
        row = (
            (
                await connection.execute(
                    select(artifacts).where(artifacts.c.id == lead["consent_id"])
                )
            )
            .mappings()
            .one()
        )
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        remaining = await valid_consent(session, "+14155550142", now=runtime.clock())
    assert row["revoked_at"] is not None and row["phone_e164"] is None
    assert (row["ip"], row["form_snapshot"], row["phone"]) == (None, None, "+* *** *** 0142")
    assert remaining["id"] == shared["consent_id"]
