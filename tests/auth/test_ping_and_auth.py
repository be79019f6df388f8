"""Credentials: 401 for missing, malformed, unknown, expired and revoked; 403 naming the
missing scope; the spec's scope implications; GET /ping."""

import hashlib
import re

import pytest
from sqlalchemy import select

from homebase.auth.api_keys import revoke_api_key
from homebase.auth.scopes import ALL_SCOPES
from homebase.models import ApiKey
from tests.support import assert_error, make_key


async def test_ping_reports_the_credential(tenant):
    response = await tenant.get("/v1/ping")
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "ok": True,
        "tenant_id": tenant.id,
        "credential": "api_key",
        "credential_id": tenant.key_id,
        "scopes": list(ALL_SCOPES),
        "rate_limit_per_min": 120,
        "api_version": "v1",
    }


async def test_ping_succeeds_for_a_key_lacking_other_scopes(make):
    scoped = await make(["listings:read"])
    response = await scoped.get("/v1/ping")
    assert response.status_code == 200
    assert response.json()["scopes"] == ["listings:read"]


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "token",
        "Basic dXNlcjpwYXNz",
        "token garbage",
        "token hbk_notarealkey",
        "hbk_missing_scheme",
    ],
)
async def test_missing_or_garbage_credentials_are_401(client, header):
    headers = {"Authorization": header} if header is not None else {}
    response = await client.get("/v1/contacts", headers=headers)
    assert_error(response, 401, "unauthenticated")
    assert response.headers["www-authenticate"] == 'Token realm="homebase", Bearer realm="homebase"'


@pytest.mark.parametrize("token", ["garbage", "hbk_notarealkey", "hbo_at_notarealtoken"])
async def test_a_refused_bearer_token_gets_a_bearer_invalid_token_challenge(client, token):
    response = await client.get("/v1/ping", headers={"Authorization": f"Bearer {token}"})
    assert_error(response, 401, "unauthenticated")
    assert response.headers["www-authenticate"] == 'Bearer realm="homebase", error="invalid_token"'


async def test_bearer_scheme_is_accepted(tenant, client):
    response = await client.get("/v1/ping", headers={"Authorization": f"Bearer {tenant.key}"})
    assert response.status_code == 200


async def test_expired_key_is_401(runtime, tenant, client):
    _, key = await make_key(runtime, tenant.id, expires_in_days=0)
    response = await client.get("/v1/ping", headers={"Authorization": f"token {key}"})
    error = assert_error(response, 401, "unauthenticated")
    assert "expired" in error["message"]


async def test_revoked_key_is_401_on_the_next_request(runtime, tenant):
    assert (await tenant.get("/v1/ping")).status_code == 200
    async with runtime.db.transaction() as connection:
        assert await revoke_api_key(connection, tenant.key_id, runtime.clock())
    error = assert_error(await tenant.get("/v1/ping"), 401, "unauthenticated")
    assert "revoked" in error["message"]


async def test_missing_scope_is_403_naming_it(make):
    scoped = await make(["leads:read"])
    error = assert_error(await scoped.get("/v1/contacts"), 403, "insufficient_scope")
    assert error["details"] == {"missing_scope": "contacts:read"}
    assert "contacts:read" in error["message"]


async def test_401_comes_before_body_validation(client):
    response = await client.post(
        "/v1/contacts", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert_error(response, 401, "unauthenticated")


async def test_checks_run_in_the_documented_order(make, tenant):
    """docs/decisions.md: 401, 429, 403, 400, then 404; a body that is not JSON at all is
    400 before the scope check."""
    unknown = "/v1/contacts/con_00000000000000000000000000"
    reader = await make(["contacts:read"])
    assert_error(await reader.patch(unknown, json={"stage": "NOPE"}), 403, "insufficient_scope")
    assert_error(
        await reader.get("/v1/contacts/x/events", params={"limit": 0}), 403, "insufficient_scope"
    )
    assert_error(await tenant.patch(unknown, json={"stage": "NOPE"}), 400, "validation_failed")
    assert_error(await tenant.get(unknown, params={"fields": "bogus"}), 400, "validation_failed")
    assert_error(await tenant.patch(unknown, json={"stage": "LEAD"}), 404, "not_found")
    response = await reader.client.patch(
        unknown,
        content=b"stage=LEAD",
        headers={**reader.headers, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_error(response, 400, "unsupported_content_type")


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 1}])
async def test_429_comes_before_scope_and_validation(make):
    from tests.ratelimit.test_ratelimit import fresh_window

    await fresh_window(5)  # both requests in one window
    reader = await make(["contacts:read"])
    await reader.get("/v1/ping")
    response = await reader.patch(
        "/v1/contacts/con_00000000000000000000000000", json={"stage": "NOPE"}
    )
    assert_error(response, 429, "rate_limited")


# The spec's implications, each with a GET that needs exactly the implied scope.
IMPLICATIONS = [
    ("contacts:write", "contacts:read", "/v1/contacts"),
    ("contacts:read:pii", "contacts:read", "/v1/contacts"),
    ("leads:write", "leads:read", "/v1/leads"),
    ("deals:write", "deals:read", "/v1/deals"),
    ("appointments:write", "appointments:read", "/v1/appointments"),
    ("messages:send", "messages:read", "/v1/messages"),
    ("automations:manage", "automations:read", "/v1/automations"),
]


@pytest.mark.parametrize(("granted", "implied", "path"), IMPLICATIONS)
async def test_scope_implications(make, granted, implied, path):
    assert (await (await make([granted])).get(path)).status_code == 200
    # The route does need the implied scope: a key with every scope that does not grant
    # it (per the spec's list above) is refused, naming it.
    granting = {implied} | {scope for scope, implies, _ in IMPLICATIONS if implies == implied}
    others = [scope for scope in ALL_SCOPES if scope not in granting]
    error = assert_error(await (await make(others)).get(path), 403, "insufficient_scope")
    assert error["details"] == {"missing_scope": implied}


@pytest.mark.parametrize(
    ("granted", "path"),
    [
        ("contacts:read", "/v1/leads"),
        ("events:read", "/v1/contacts"),
        ("leads:read", "/v1/contacts"),
        ("messages:read", "/v1/calls"),
        ("deals:read", "/v1/listings"),
        ("automations:read", "/v1/webhooks"),
    ],
)
async def test_no_other_scope_implies_another(make, granted, path):
    assert_error(await (await make([granted])).get(path), 403, "insufficient_scope")


async def test_a_read_scope_does_not_imply_its_write_scope(make):
    for granted, path in [
        ("leads:read", "/v1/leads"),
        ("deals:read", "/v1/deals"),
        ("appointments:read", "/v1/tasks"),
        ("messages:read", "/v1/messages"),
    ]:
        error = assert_error(
            await (await make([granted])).post(path, json={}), 403, "insufficient_scope"
        )
        assert error["details"]["missing_scope"] != granted


async def test_write_scope_is_required_to_write(make):
    reader = await make(["contacts:read"])
    error = assert_error(
        await reader.post("/v1/contacts", json={"first_name": "A"}), 403, "insufficient_scope"
    )
    assert error["details"]["missing_scope"] == "contacts:write"


async def test_key_acts_only_on_its_own_workspace(tenant, other_tenant):
    created = await tenant.post("/v1/contacts", json={"first_name": "Mine"})
    assert created.status_code == 201
    listed = await other_tenant.get("/v1/contacts")
    assert listed.json()["data"] == []


async def test_a_key_is_stored_only_as_its_hash(runtime, tenant):
    assert re.fullmatch(r"hbk_[A-Za-z0-9]{40}", tenant.key), tenant.key
    async with runtime.db.transaction(write=False) as connection:
        row = (
            (
                await connection.execute(
                    select(ApiKey.__table__).where(ApiKey.__table__.c.id == tenant.key_id)
                )
            )
            .mappings()
            .one()
        )
    assert row["key_hash"] == hashlib.sha256(tenant.key.encode()).hexdigest()
    stored = " ".join(str(value) for value in row.values())
    assert tenant.key not in stored and tenant.key[4:] not in stored
    assert len(row["key_hint"]) <= 8 and tenant.key.startswith(row["key_hint"])
    # A key differing only in its last character is someone else's: 401.
    wrong = tenant.key[:-1] + ("a" if tenant.key[-1] != "a" else "b")
    response = await tenant.client.get("/v1/ping", headers={"Authorization": f"token {wrong}"})
    assert_error(response, 401, "unauthenticated")
