"""Exports made through the API, for tests across packages (tests/test_routes.py)."""

from typing import Any


async def create_export_for_routes(tenant: Any) -> str:
    response = await tenant.post("/v1/exports", json={"object": "contacts", "format": "csv"})
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


async def export_snapshot(tenant: Any, export_id: str) -> Any:
    response = await tenant.get(f"/v1/exports/{export_id}")
    assert response.status_code == 200, response.text
    body = response.json()
    # A fresh link on every read: what must not change is the export itself.
    return {k: v for k, v in body.items() if not k.startswith("download_url")}
