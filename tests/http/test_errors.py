"""One envelope for every error, framework errors included; X-Request-Id everywhere; no
stack trace or SQL reaches a client; a failed request writes nothing."""

from typing import Annotated

import pytest
from sqlalchemy import func, select

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.contacts import service
from homebase.contacts.schemas import ContactCreate
from homebase.http.router import v1_router
from homebase.kit.errors import Conflict
from homebase.models import Contact, OutboxEvent
from homebase.root.app import create_app
from tests.support import assert_error


@pytest.fixture
def app(runtime):
    """An app of these tests' own: they add routes to it."""
    return create_app(runtime)


async def test_unknown_route_is_404_envelope(tenant):
    assert_error(await tenant.get("/v1/nothing-here"), 404, "not_found")


async def test_unknown_route_outside_v1_is_404_envelope(client):
    assert_error(await client.get("/nope"), 404, "not_found")


async def test_errors_name_their_fix_in_details_remedy(client, tenant, make):
    """Each error carries its code's remedy (kit/remedies.py) beside its own details."""
    missing = (await client.get("/v1/contacts")).json()["error"]
    assert missing["code"] == "unauthenticated"
    assert "Authorization: token <API_KEY>" in missing["details"]["remedy"]

    invalid = (await tenant.post("/v1/contacts", json={"first_name": 7, "nope": 1})).json()
    assert invalid["error"]["code"] == "validation_failed"
    details = invalid["error"]["details"]
    assert {item["field"] for item in details["errors"]} == {"first_name", "nope"}
    assert "details.errors" in details["remedy"]

    scoped = await make(["leads:read"])
    denied = (await scoped.get("/v1/contacts")).json()["error"]
    assert denied["details"]["missing_scope"] == "contacts:read"
    assert "details.missing_scope" in denied["details"]["remedy"]

    unknown = (await tenant.get("/v1/contacts/con_00000000000000000000000000")).json()["error"]
    assert unknown["code"] == "not_found" and "Check the id" in unknown["details"]["remedy"]


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 1}])
async def test_a_rate_limited_answer_says_to_wait_retry_after(tenant, settings_overrides):
    assert (await tenant.get("/v1/ping")).status_code == 200
    limited = await tenant.get("/v1/ping")
    error = assert_error(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) > 0
    assert "Retry-After" in limited.json()["error"]["details"]["remedy"]
    assert "details" not in error  # nothing but the remedy


async def test_wrong_method_is_405_envelope_with_allow(tenant):
    response = await tenant.client.put("/v1/ping", headers=tenant.headers)
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers.get("allow", "")


async def test_malformed_json_is_400(tenant):
    response = await tenant.client.post(
        "/v1/contacts",
        content=b'{"first_name": ',
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert_error(response, 400, "invalid_json")


async def test_undecodable_json_bodies_are_400_invalid_json(tenant):
    # Bytes that are not UTF-8, and nesting past the parser's depth limit.
    for content in (b'{"first_name": "\xff"}', b"[" * 100_000 + b"]" * 100_000):
        response = await tenant.client.post(
            "/v1/contacts",
            content=content,
            headers={**tenant.headers, "Content-Type": "application/json"},
        )
        assert_error(response, 400, "invalid_json")
    assert (await tenant.get("/v1/contacts")).json()["data"] == []


@pytest.mark.parametrize(
    "path, content",
    [
        # A lone UTF-16 surrogate (found by schemathesis: it was a 500 once stored and rendered).
        ("/v1/contacts", b'{"first_name": "\\udb26"}'),
        ("/v1/leads", b'{"phone": "+14155550142", "source": "Web", "context": {"a": "\\ud800x"}}'),
        ("/v1/leads", b'{"phone": "+14155550142", "source": "Web", "context": {"a": NaN}}'),
        ("/v1/leads", b'{"phone": "+14155550142", "source": "Web", "context": {"a": 1e400}}'),
    ],
)
async def test_json_no_response_could_carry_back_is_400_and_writes_nothing(tenant, path, content):
    response = await tenant.client.post(
        path, content=content, headers={**tenant.headers, "Content-Type": "application/json"}
    )
    assert_error(response, 400, "invalid_json")
    assert "line 1 column" in response.json()["error"]["message"]
    for listing in ("/v1/contacts", "/v1/leads"):
        assert (await tenant.get(listing)).json()["data"] == []


async def test_every_validation_item_has_field_in_message_and_type(tenant):
    created = await tenant.post("/v1/contacts", json={})
    for response in (
        await tenant.post("/v1/contacts", json={"stage": "X", "extra": 1}),
        await tenant.get("/v1/contacts", params={"limit": 0}),
        await tenant.get(f"/v1/contacts/{created.json()['id']}", params={"fields": "id,bogus"}),
    ):
        error = assert_error(response, 400, "validation_failed")
        for item in error["details"]["errors"]:
            assert set(item) == {"field", "in", "message", "type"}, item
            assert all(isinstance(value, str) and value for value in item.values()), item


async def test_wrong_content_type_is_400(tenant):
    for content_type in ("text/plain", "application/x-www-form-urlencoded"):
        response = await tenant.client.post(
            "/v1/contacts",
            content=b"first_name=x",
            headers={**tenant.headers, "Content-Type": content_type},
        )
        assert_error(response, 400, "unsupported_content_type")


async def test_missing_content_type_with_a_body_is_400(tenant):
    response = await tenant.client.post(
        "/v1/contacts", content=b'{"first_name": "x"}', headers=tenant.headers
    )
    assert_error(response, 400, "unsupported_content_type")


async def test_json_with_charset_is_accepted(tenant):
    response = await tenant.client.post(
        "/v1/contacts",
        content=b'{"first_name": "x"}',
        headers={**tenant.headers, "Content-Type": "application/json; charset=utf-8"},
    )
    assert response.status_code == 201


async def test_validation_error_details_list_each_field(tenant):
    response = await tenant.post("/v1/contacts", json={"first_name": "a" * 81, "stage": "X"})
    error = assert_error(response, 400, "validation_failed")
    by_field = {item["field"]: item for item in error["details"]["errors"]}
    assert set(by_field) == {"first_name", "stage"}
    assert by_field["first_name"]["in"] == "body"
    assert "80" in by_field["first_name"]["message"]
    assert "first_name" in error["message"] and "stage" in error["message"]


async def test_query_validation_is_400_not_422(tenant):
    error = assert_error(await tenant.get("/v1/contacts?limit=0"), 400, "validation_failed")
    assert error["details"]["errors"][0] == {
        "field": "limit",
        "in": "query",
        "message": error["details"]["errors"][0]["message"],
        "type": "greater_than_equal",
    }


async def test_request_id_on_every_response(tenant, client):
    responses = [
        await tenant.get("/v1/ping"),
        await client.get("/v1/ping"),
        await tenant.get("/v1/contacts/con_x"),
        await client.get("/healthz"),
        await client.get("/v1/openapi.json"),
    ]
    ids = [response.headers["x-request-id"] for response in responses]
    assert all(request_id.startswith("req_") for request_id in ids)
    assert len(set(ids)) == len(ids)


async def test_unexpected_error_is_a_500_envelope_without_internals(app, tenant, caplog):
    router = v1_router()

    @router.get("/boom")
    async def boom(principal: Annotated[Principal, require(Scope.contacts_read)], session: Tenant):
        raise RuntimeError("SELECT secret FROM internals -- stack detail")

    app.include_router(router, prefix="/v1")
    response = await tenant.get("/v1/boom")
    error = assert_error(response, 500, "internal_error")
    assert "SELECT" not in response.text and "Traceback" not in response.text
    assert "RuntimeError" not in response.text
    assert error["request_id"] in caplog.text


async def test_a_failed_request_writes_nothing(app, tenant, runtime):
    """A route that writes a contact (and its outbox event) and then fails: nothing stays."""
    router = v1_router()

    @router.post("/half-done")
    async def half_done(
        principal: Annotated[Principal, require(Scope.contacts_write)], session: Tenant
    ):
        await service.create_contact(session, ContactCreate(first_name="Ghost", tags=["x"]))
        raise Conflict("refused after writing")

    app.include_router(router, prefix="/v1")
    assert_error(await tenant.post("/v1/half-done", json={}), 409, "conflict")
    async with runtime.db.transaction(write=False) as connection:
        contacts = (
            await connection.execute(select(func.count()).select_from(Contact.__table__))
        ).scalar_one()
        events = (
            await connection.execute(select(func.count()).select_from(OutboxEvent.__table__))
        ).scalar_one()
    assert (contacts, events) == (0, 0)


async def test_healthz(client):
    response = await client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_readyz_is_503_when_the_database_is_unreachable(runtime, client):
    """The database check moved from /healthz (liveness) to /readyz (tests/http/test_health.py)."""
    from homebase.db.engine import Database

    real, runtime.db = runtime.db, Database("postgresql+asyncpg://nobody@127.0.0.1:1/none")
    try:
        ready, alive = await client.get("/readyz"), await client.get("/healthz")
    finally:
        await runtime.db.dispose()
        runtime.db = real
    assert ready.status_code == 503 and ready.json()["error"]["code"] == "service_unavailable"
    assert ready.headers["retry-after"]
    assert alive.status_code == 200 and alive.json() == {"status": "ok"}
