"""Webhook factories for the generic route checks in tests/test_routes.py."""

from typing import Any


async def create_subscription_for_routes(tenant) -> dict[str, str]:
    response = await tenant.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook",
                                                       "event_types": ["contact.created"]})
    assert response.status_code == 201, response.text
    # The subscription is checked before the delivery, so any delivery id will do.
    return {"id": response.json()["id"], "delivery_id": "whd_00000000000000000000000000"}


async def subscription_snapshot(tenant, subscription_id: str) -> Any:
    responses = [await tenant.get(f"/v1/webhooks/{subscription_id}"),
                 await tenant.get(f"/v1/webhooks/{subscription_id}/deliveries"),
                 await tenant.get("/v1/webhooks?limit=200")]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
