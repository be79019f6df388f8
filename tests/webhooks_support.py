"""Webhook helpers: factories for the generic route checks in tests/test_routes.py, and
one worker round and a subscription for the delivery tests."""

from typing import Any

from homebase.webhooks import jobs


async def work(runtime) -> int:
    """One worker round of the webhook jobs."""
    return await jobs.fan_out(runtime) + await jobs.deliver_due(runtime) + await jobs.sweep(runtime)


async def subscribe(tenant, url, event_types=()) -> dict:
    response = await tenant.post("/v1/webhooks", {"url": url, "event_types": list(event_types)})
    assert response.status_code == 201, response.text
    return response.json()


async def create_subscription_for_routes(tenant) -> dict[str, str]:
    response = await tenant.post(
        "/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "event_types": ["contact.created"]}
    )
    assert response.status_code == 201, response.text
    # The subscription is checked before the delivery, so any delivery id will do.
    return {"id": response.json()["id"], "delivery_id": "whd_00000000000000000000000000"}


async def subscription_snapshot(tenant, subscription_id: str) -> Any:
    responses = [
        await tenant.get(f"/v1/webhooks/{subscription_id}"),
        await tenant.get(f"/v1/webhooks/{subscription_id}/deliveries"),
        await tenant.get("/v1/webhooks?limit=200"),
    ]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
