"""The OpenAPI document and the service agree on each rule schemathesis found them
disagreeing on; tests/kit/test_schemathesis.py is the broad run, these are
the pinned cases."""

import re
import secrets
import socket

import jsonschema_rs
import pytest

from homebase.config import Settings
from homebase.kit import dns
from homebase.runtime import Runtime
from tests.support import assert_error, failing_fields


async def _document(client) -> dict:
    return (await client.get("/v1/openapi.json")).json()


def _parameter(document: dict, path: str, name: str, method: str = "get") -> dict:
    return next(p for p in document["paths"][path][method]["parameters"] if p["name"] == name)


def _validator(document: dict, schema: dict):
    """A validator for `schema` that resolves the document's own references."""
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


async def test_fields_pattern_says_exactly_what_the_service_accepts(tenant, client):
    document = await _document(client)
    pattern = re.compile(_parameter(document, "/v1/contacts", "fields")["schema"]["pattern"])
    await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    for value, accepted in [
        ("first_name,last_name", True),
        (" first_name , tags ", True),
        ("first_name,,", True),
        ("", True),
        ("first_name\t", False),
        ("colour", False),
        ("first_name last_name", False),
        ("=", False),
    ]:
        response = await tenant.get("/v1/contacts", params={"fields": value})
        assert (response.status_code == 200) is accepted, (value, response.text)
        assert (pattern.fullmatch(value) is not None) is accepted, value
        if not accepted:
            assert failing_fields(response) == {"fields"}


async def test_a_narrowed_response_matches_its_documented_schema(tenant, client):
    document = await _document(client)
    created = (await tenant.post("/v1/contacts", json={"first_name": "Dana"})).json()
    schema = document["paths"]["/v1/contacts/{id}"]["get"]["responses"]["200"]["content"][
        "application/json"
    ]["schema"]
    narrowed = (
        await tenant.get(f"/v1/contacts/{created['id']}", params={"fields": "first_name"})
    ).json()
    assert narrowed == {"id": created["id"], "first_name": "Dana", "pii_masked": False}
    validator = _validator(document, schema)
    assert validator.is_valid(narrowed) and validator.is_valid(created)
    whole = _validator(document, {"$ref": "#/components/schemas/Contact"})
    assert whole.is_valid(created) and not whole.is_valid(narrowed)  # why the anyOf exists
    items = document["components"]["schemas"]["Page_Contact_"]["properties"]["data"]["items"]
    assert items == schema


@pytest.mark.parametrize(
    "url, member",
    [
        ("/v1/tasks?due_before=0.5", "due_before"),
        ("/v1/appointments?starts_before=0.5", "starts_before"),
        ("/v1/appointments?starts_after=1", "starts_after"),
        ("/v1/calls?started_after=2026-11-20", "started_after"),
        ("/v1/calls?started_before=2026-11-20T17:00Z", "started_before"),
    ],
)
async def test_date_time_filters_refuse_what_is_not_a_date_time(tenant, url, member):
    assert failing_fields(await tenant.get(url)) == {member}


async def test_date_time_filters_take_rfc_3339(tenant):
    for url in (
        "/v1/tasks?due_before=2026-11-20T17:00:00Z",
        "/v1/appointments?starts_after=2026-11-20T17:00:00.5%2B01:00",
        "/v1/calls?started_after=2026-11-20t17:00:00z",
    ):
        assert (await tenant.get(url)).status_code == 200, url


@pytest.mark.parametrize(
    "method, path, allow",
    [
        ("OPTIONS", "/v1/contacts", "GET, POST"),
        ("PUT", "/v1/contacts/con_x", "DELETE, GET, PATCH"),
        ("OPTIONS", "/v1/leads/routing-preview", "POST"),  # its own path, not /v1/leads/{id}
        ("OPTIONS", "/v1/webhooks/whk_x", "DELETE, GET, PATCH"),
    ],
)
async def test_405_allow_lists_the_documented_methods(tenant, client, method, path, allow):
    response = await tenant.client.request(method, path, headers=tenant.headers)
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == allow
    template = path.replace("con_x", "{id}").replace("whk_x", "{id}")
    documented = {m.upper() for m in (await _document(client))["paths"][template]}
    assert set(allow.split(", ")) == documented


async def test_bodies_refuse_what_the_document_refuses(tenant):
    preview = {"source": "Zillow", "price": False}
    assert failing_fields(await tenant.post("/v1/leads/routing-preview", json=preview)) == {"price"}
    long_local = "a" * 65 + "@example.com"  # RFC 5321: a local part has at most 64
    assert failing_fields(await tenant.post("/v1/contacts", json={"email": long_local})) == {
        "email"
    }
    lead = {"phone": "+14155550142", "source": "Zillow", "skip_routing": True}
    for url in (
        "w:\U0001f3fb",
        "https://a.example/]",
        "https://a.example/%zz",
        "https://a.example/#a#b",
    ):
        response = await tenant.post("/v1/leads", json={**lead, "consent": {"source_url": url}})
        assert failing_fields(response) == {"consent.source_url"}, url


async def test_loopback_resolver_answers_localhost_only():
    assert {str(a) for a in await dns.loopback_only_resolver("localhost", 80)} == {
        "127.0.0.1",
        "::1",
    }
    with pytest.raises(socket.gaierror):
        await dns.loopback_only_resolver("crm.example.com", 443)


async def test_loopback_resolver_is_a_testing_hook_refused_in_production(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3"
    with pytest.raises(ValueError, match="testing hook"):
        Settings(
            env="production",
            secret_key=secrets.token_urlsafe(32),
            testing_loopback_resolver=True,
            database_url=url,
        )
    chosen = Runtime.from_settings(
        Settings(env="test", testing_loopback_resolver=True, database_url=url)
    )
    assert chosen.resolver is dns.loopback_only_resolver
    await chosen.close()


@pytest.mark.parametrize(
    "captured_at, accepted",
    [
        ("2026-11-20T17:03:58Z", True),
        (1763658238, True),
        (0, True),
        (1763658238.5, True),
        (1763658238000, True),  # milliseconds past 2e10, as the description says
        (-62135596800000, True),
        (253402300799999, True),  # year 1 and the end of year 9999
        (-62135596800001, False),
        (253402300800000, False),
        (True, False),
        ([1], False),
    ],
)
async def test_consent_captured_at_is_a_date_time_or_a_unix_time(
    tenant, client, captured_at, accepted
):
    """The spec leaves captured_at's type open ("timestamp"): the document says both forms
    the service takes, and the service refuses what the document refuses."""
    document = await _document(client)
    consent = _validator(document, {"$ref": "#/components/schemas/ConsentIn"})
    assert consent.is_valid({"captured_at": captured_at}) is accepted
    lead = {
        "phone": "+14155550142",
        "source": "Zillow",
        "skip_routing": True,
        "consent": {"captured_at": captured_at},
    }
    response = await tenant.post("/v1/leads", json=lead)
    if accepted:
        assert response.status_code == 201, response.text
    else:
        assert failing_fields(response) == {"consent.captured_at"}


async def test_price_filters_take_any_number_in_the_documented_range(tenant, client):
    document = await _document(client)
    for name in ("min_price", "max_price"):
        schema = _validator(document, _parameter(document, "/v1/listings", name)["schema"])
        for value, accepted in [
            (9682553920754.824, True),
            (0.005, True),
            (1e3, True),
            (9999999999999.99, True),
            (1e13, False),
            (-0.01, False),
        ]:
            assert schema.is_valid(value) is accepted, (name, value)
            response = await tenant.get("/v1/listings", params={name: str(value)})
            assert (response.status_code == 200) is accepted, (name, value, response.text)
