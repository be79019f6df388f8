"""Deals, pipelines, listings and calls answer in the shapes the OpenAPI document gives."""

import pytest

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from tests import crm_support
from tests.kit.test_openapi import assert_conforms
from tests.listings.test_listings import LISTINGS
from tests.support import Tenant, make_key


@pytest.fixture
def settings_overrides(tmp_path):
    return {"recordings_dir": tmp_path, "calls_provider_secret": "conformance-secret"}


async def test_responses_conform(app, tenant, runtime):
    document = app.openapi()
    async with runtime.db.transaction() as connection:
        await load_fixtures(
            TenantSession(connection, tenant.id, clock=runtime.clock), {"listings": LISTINGS}
        )
    deal_id = await crm_support.create_deal(tenant)
    call_id = await crm_support.create_call(tenant)
    key_id, key = await make_key(runtime, tenant.id, ["calls:read"])
    masked = Tenant(tenant.id, key, key_id, tenant.client, {"Authorization": f"token {key}"})
    masked_call = (await masked.get(f"/v1/calls/{call_id}")).json()
    assert masked_call["pii_masked"] is True and masked_call["recording_url"] is None
    checks = [
        ("GET", "/v1/pipelines", "/v1/pipelines", tenant),
        ("GET", "/v1/deals", "/v1/deals", tenant),
        ("GET", "/v1/deals/{id}", f"/v1/deals/{deal_id}", tenant),
        ("PATCH", "/v1/deals/{id}", f"/v1/deals/{deal_id}", tenant),
        ("GET", "/v1/listings", "/v1/listings", tenant),
        ("GET", "/v1/calls", "/v1/calls", tenant),
        ("GET", "/v1/calls/{id}", f"/v1/calls/{call_id}", tenant),
        ("GET", "/v1/calls", "/v1/calls", masked),
        ("GET", "/v1/deals/{id}", "/v1/deals/dea_unknown", tenant),
        ("GET", "/v1/calls/{id}", f"/v1/calls/{call_id}", masked),
    ]
    for method, path, url, who in checks:
        body = {"status": "won", "value": "1"} if method == "PATCH" else None
        response = await who.client.request(
            method, url, headers=who.headers, **({"json": body} if body else {})
        )
        assert_conforms(document, method, path, response)
    created = await tenant.post("/v1/deals", json={"title": "T", "pipeline_id": "ppl_x"})
    assert_conforms(document, "POST", "/v1/deals", created)
