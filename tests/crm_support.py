"""Cross-tenant factories for deals and calls, registered in tests/test_routes.py."""

import hashlib
import hmac
import json
from typing import Any

from homebase.kit.ids import new_id

ROUTES_PROVIDER_SECRET = "routes-provider-secret"


async def create_deal(tenant) -> str:
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    contact = await tenant.post("/v1/contacts", json={"first_name": "Owned"})
    response = await tenant.post(
        "/v1/deals",
        json={
            "title": "Owned elsewhere",
            "pipeline_id": pipelines[0]["id"],
            "contact_id": contact.json()["id"],
            "value": "500000",
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def deal_snapshot(tenant, deal_id: str) -> Any:
    responses = [await tenant.get(f"/v1/deals/{deal_id}"), await tenant.get("/v1/deals?limit=200")]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def create_call(tenant) -> str:
    """Calls arrive through the signed provider callback; the test app gets a secret."""
    settings = tenant.client._transport.app.state.runtime.settings
    settings.calls_provider_secret = settings.calls_provider_secret or ROUTES_PROVIDER_SECRET
    raw = json.dumps(
        {
            "provider_call_id": new_id("prv"),
            "workspace_id": tenant.id,
            "direction": "inbound",
            "from": "+14155550142",
            "to": "+14155550100",
            "started_at": "2026-11-20T17:00:00Z",
            "handled_by": "ai",
            "transcript": "private",
            "summary": "private",
        }
    ).encode()
    signature = hmac.new(settings.calls_provider_secret.encode(), raw, hashlib.sha256)
    response = await tenant.client.post(
        "/providers/calls/completed",
        content=raw,
        headers={
            "Content-Type": "application/json",
            "X-Homebase-Signature": f"sha256={signature.hexdigest()}",
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def call_snapshot(tenant, call_id: str) -> Any:
    responses = [await tenant.get(f"/v1/calls/{call_id}"), await tenant.get("/v1/calls?limit=200")]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
