"""GET /metrics at the HTTP level, on SQLite and PostgreSQL: the exposition parses, requests
are counted by route template (never a record id), the token, rate-limit decisions, the
database pool."""

import re

import pytest
from prometheus_client import REGISTRY

from tests.metrics_support import delta, parse, scrape, value
from tests.support import assert_error

REQUESTS = "homebase_http_requests_total"
DURATION_COUNT = "homebase_http_request_duration_seconds_count"
DECISIONS = "homebase_rate_limit_decisions_total"
TOKEN = "metrics-token-0123456789"
# What a record id looks like (kit.ids.new_id: a prefix, "_", 26 Crockford base32 digits),
# and not a label's own words (an AI action's "set_qualification").
RECORD_ID = re.compile(r"\b[a-z]{3}_[0-9a-hjkmnp-tv-z]{26}\b")


async def test_requests_are_counted_by_route_template(tenant, client):
    created = await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    assert created.status_code == 201, created.text
    contact_id = created.json()["id"]
    before = await scrape(client)
    for _ in range(3):
        assert (await tenant.get(f"/v1/contacts/{contact_id}")).status_code == 200
    assert (await tenant.get("/v1/contacts/con_00000000000000000000000000")).status_code == 404
    assert (await client.get(f"/no/such/{contact_id}")).status_code == 404
    response = await client.get("/metrics")
    after = parse(response.text)

    route = "/v1/contacts/{id}"
    assert delta(before, after, REQUESTS, method="GET", route=route, status=200) == 3
    assert delta(before, after, REQUESTS, method="GET", route=route, status=404) == 1
    assert delta(before, after, DURATION_COUNT, method="GET", route=route, status=200) == 3
    assert delta(before, after, REQUESTS, method="GET", route="unmatched", status=404) == 1
    assert delta(before, after, DECISIONS, limit="api_key", decision="allowed") == 4
    # The scrape before this one was counted under its own route.
    assert value(after, REQUESTS, method="GET", route="/metrics", status=200) >= 1
    labels = {label for (_, sample_labels) in after for label in sample_labels}
    assert labels and all(
        contact_id not in text and not RECORD_ID.search(text) for label in labels for text in label
    )
    assert contact_id not in response.text


async def test_every_method_and_status_is_a_bounded_label(tenant, client):
    before = await scrape(client)
    response = await client.request("BREW", "/v1/ping")
    after = await scrape(client)
    assert (
        delta(
            before, after, REQUESTS, method="other", route="/v1/ping", status=response.status_code
        )
        == 1
    )
    assert not any(dict(labels).get("method") == "BREW" for _, labels in after)


async def test_metrics_is_outside_the_v1_document(client):
    before = await scrape(client)
    document = (await client.get("/v1/openapi.json")).json()
    assert "/metrics" not in document["paths"]
    assert (await client.get("/oauth/token")).status_code == 405
    after = await scrape(client)
    # A plain Starlette route and a router's own prefix are labelled by template too.
    assert delta(before, after, REQUESTS, method="GET", route="/v1/openapi.json", status=200) == 1
    assert delta(before, after, REQUESTS, method="GET", route="/oauth/token", status=405) == 1


@pytest.mark.parametrize(
    "settings_overrides", [{"metrics_token": TOKEN, "rate_limit_unauthenticated_per_min": 2}]
)
async def test_token_protects_metrics_and_is_never_budgeted(client):
    refusals = [
        await client.get("/metrics"),
        await client.get("/metrics", headers={"Authorization": "Bearer wrong"}),
        await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}x"}),
        await client.get("/metrics", headers={"Authorization": f"token {TOKEN}"}),
        await client.get("/metrics", headers={"Authorization": "Bearer é".encode()}),
    ]
    for response in refusals:  # more failures than the budget allows, none of them 429
        error = assert_error(response, 401, "unauthenticated")
        assert error["request_id"] == response.headers["x-request-id"]
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert "HOMEBASE_METRICS_TOKEN" in error["message"] and TOKEN not in response.text
    # The address's budget is untouched: its first unauthenticated API request is a 401.
    assert_error(await client.get("/v1/ping"), 401, "unauthenticated")
    samples = await scrape(client, Authorization=f"Bearer {TOKEN}")
    assert value(samples, REQUESTS, method="GET", route="/metrics", status=401) >= 5
    await scrape(client, Authorization=f"bearer  {TOKEN}")


@pytest.mark.parametrize(
    "settings_overrides",
    [{"rate_limit_api_key_per_min": 2, "rate_limit_unauthenticated_per_min": 1}],
)
async def test_rate_limit_refusals_are_counted_by_limit(tenant, client):
    before = await scrape(client)
    statuses = [(await tenant.get("/v1/ping")).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    anonymous = [(await client.get("/v1/ping")).status_code for _ in range(2)]
    assert anonymous == [401, 429]
    after = await scrape(client)
    assert delta(before, after, DECISIONS, limit="api_key", decision="allowed") == 2
    assert delta(before, after, DECISIONS, limit="api_key", decision="refused") == 1
    assert delta(before, after, DECISIONS, limit="unauthenticated", decision="allowed") == 1
    assert delta(before, after, DECISIONS, limit="unauthenticated", decision="refused") == 1
    assert delta(before, after, REQUESTS, method="GET", route="/v1/ping", status=429) == 2


async def test_database_pool_use(runtime, client):
    samples = await scrape(client)
    assert value(samples, "homebase_db_pool_connections_max") >= runtime.db.pool_capacity
    idle = REGISTRY.get_sample_value("homebase_db_pool_connections_in_use")
    async with runtime.db.transaction(write=False):
        held = REGISTRY.get_sample_value("homebase_db_pool_connections_in_use")
    assert held == idle + 1
    assert REGISTRY.get_sample_value("homebase_db_pool_connections_in_use") == idle
