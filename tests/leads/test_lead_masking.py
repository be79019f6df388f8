"""A lead's free-form `context` is masked by value for a credential without
contacts:read:pii (kit/masking.mask_freeform): every phone number and email address
written in any string, whatever the member is called, at any depth. SQLite and PostgreSQL."""

import orjson

from tests.leads_support import outbox
from tests.support import Tenant, make_key

CONTEXT = {
    "tel": "(415) 555-0142",
    "sms": "4155550199",
    "contact_number": "+1 650 253 0000",
    "message": "Call me on 212.555.1234 or write to dana.reyes@example.com",
    "emails": ["Dana <dana@example.com>"],
    "nested": {"deeper": [{"cell": "+44 20 7946 0958"}]},
    "zip": "94110",
    "price": 1250000,
    "listing_address": "1421 Sanchez St, San Francisco, CA 94110",
}
MASKED = {
    "tel": "(***) ***-0142",
    "sms": "******0199",
    "contact_number": "+* *** *** 0000",
    "message": "Call me on ***.***.1234 or write to d***@example.com",
    "emails": ["Dana <d***@example.com>"],
    "nested": {"deeper": [{"cell": "+** ** **** 0958"}]},
    "zip": "94110",
    "price": 1250000,
    "listing_address": "1421 Sanchez St, San Francisco, CA 94110",
}
LEAD = {"phone": "+1 415 555 0142", "source": "Zillow", "skip_routing": True, "context": CONTEXT}


async def reader(runtime, tenant, scopes) -> Tenant:
    key_id, key = await make_key(runtime, tenant.id, scopes)
    headers = {"Authorization": f"token {key}"}
    return Tenant(id=tenant.id, key=key, key_id=key_id, client=tenant.client, headers=headers)


async def test_context_is_masked_by_value_without_pii(runtime, tenant):
    masked = await reader(runtime, tenant, ["leads:write", "contacts:write"])
    created = await masked.post("/v1/leads", json=LEAD)
    assert created.status_code == 201, created.text
    lead = created.json()
    assert lead["pii_masked"] is True and lead["context"] == MASKED
    assert (await masked.get(f"/v1/leads/{lead['id']}")).json()["context"] == MASKED
    [listed] = (await masked.get("/v1/leads")).json()["data"]
    assert listed["context"] == MASKED
    assigned = await masked.post(f"/v1/leads/{lead['id']}/assign", json={})
    assert assigned.status_code == 200, assigned.text
    assert assigned.json()["lead"]["context"] == MASKED

    # Stored whole: a credential with contacts:read:pii reads it as sent.
    full = await reader(runtime, tenant, ["leads:read", "contacts:read:pii"])
    unmasked = (await full.get(f"/v1/leads/{lead['id']}")).json()
    assert unmasked["pii_masked"] is False and unmasked["context"] == CONTEXT


async def test_lead_events_carry_the_masked_context(runtime, tenant):
    """lead.created's data is the lead as a masked credential sees it, stored so."""
    created = await tenant.post("/v1/leads", json=LEAD)
    assert created.status_code == 201, created.text
    [event] = [row for row in await outbox(runtime, tenant.id) if row["type"] == "lead.created"]
    data = event["data"] if isinstance(event["data"], dict) else orjson.loads(event["data"])
    assert data["context"] == MASKED
