"""HOMEBASE_MAX_BODY_BYTES: every route refuses a body over the limit
with 413 payload_too_large, from Content-Length before reading and while streaming a
chunked body, so a process never holds more than about the limit of any body."""

import pydantic
import pytest
from sqlalchemy import func, select

from homebase.config import Settings
from homebase.models import ApiKey, Contact
from tests.body_limit_support import (
    CHUNK,
    LIMIT,
    CountingApp,
    call_asgi,
    post_chunked,
    post_declared,
    serving,
)
from tests.console_support import form_value, make_member, member_browser
from tests.openapi_support import inline
from tests.support import assert_error, without_remedy

JSON = {"content-type": "application/json"}
FORM = {"content-type": "application/x-www-form-urlencoded"}
# Every kind of route that takes a body: /v1, OAuth, provider callbacks, the console.
ROUTES = [
    "/v1/contacts",
    "/oauth/token",
    "/oauth/revoke",
    "/providers/sms/inbound",
    "/providers/sms/status",
    "/providers/calls/completed",
    "/console/login",
]
MiB = 1 << 20


def headers_for(path: str, tenant) -> dict[str, str]:
    if path.startswith("/v1/"):
        return {**JSON, "authorization": f"token {tenant.key}"}
    if path == "/providers/calls/completed":
        return {**JSON, "x-homebase-signature": "sha256=00"}
    return dict(FORM)


async def post_raw(tenant, body: bytes):
    return await tenant.client.post(
        "/v1/contacts", content=body, headers={**tenant.headers, **JSON}
    )


def assert_too_large(answer, limit: int = LIMIT) -> None:
    assert answer.status == 413, answer.body
    error = without_remedy(answer.json()["error"])
    assert error["code"] == "payload_too_large"
    assert error["details"] == {"max_body_bytes": limit}
    assert error["request_id"] == answer.headers["x-request-id"]
    assert answer.headers["content-type"] == "application/json"


async def count(runtime, table) -> int:
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(select(func.count()).select_from(table))).scalar_one()


@pytest.mark.parametrize("path", ROUTES)
async def test_a_declared_length_over_the_limit_is_refused_before_any_read(app, tenant, path):
    answer = await call_asgi(
        app,
        "POST",
        path,
        {**headers_for(path, tenant), "content-length": str(LIMIT + 1)},
        [b"x" * 100],
    )
    assert_too_large(answer)
    assert answer.consumed == 0


async def test_any_method_and_path_is_limited_and_the_limit_itself_is_accepted(app, tenant, client):
    for method, path in (("GET", "/v1/contacts"), ("GET", "/healthz"), ("PUT", "/nowhere")):
        answer = await call_asgi(app, method, path, {"content-length": str(64 * MiB)})
        assert_too_large(answer)
        assert answer.consumed == 0
    body = b'{"first_name": "Exactly"}'
    at_limit = await post_raw(tenant, body.ljust(LIMIT))
    assert at_limit.status_code == 201, at_limit.text
    over = await post_raw(tenant, body.ljust(LIMIT + 1))
    error = assert_error(over, 413, "payload_too_large")
    assert error["details"] == {"max_body_bytes": LIMIT}


@pytest.mark.parametrize("value", ["12abc", "-1", "", "1e3", "\uff11"])
async def test_a_malformed_content_length_is_400_naming_it(app, value):
    answer = await call_asgi(
        app, "POST", "/oauth/token", {**FORM, "content-length": value}, [b"grant_type=x"]
    )
    assert answer.status == 400
    error = answer.json()["error"]
    assert error["code"] == "validation_failed"
    assert error["details"]["errors"] == [
        {
            "field": "content-length",
            "in": "header",
            "message": "must be one non-negative integer",
            "type": "value_error",
        }
    ]
    assert answer.consumed == 0


@pytest.mark.parametrize("path", ROUTES)
async def test_a_streamed_body_is_refused_once_it_passes_the_limit(app, tenant, path):
    answer = await call_asgi(app, "POST", path, headers_for(path, tenant), streamed=16 * MiB)
    assert_too_large(answer)
    assert LIMIT < answer.consumed <= LIMIT + CHUNK


async def test_an_http2_body_without_a_length_is_counted_too(app, tenant):
    """HTTP/2 frames a body without Content-Length or Transfer-Encoding."""
    answer = await call_asgi(
        app,
        "POST",
        "/v1/contacts",
        headers_for("/v1/contacts", tenant),
        streamed=16 * MiB,
        http_version="2",
    )
    assert_too_large(answer)
    assert LIMIT < answer.consumed <= LIMIT + CHUNK


async def test_a_body_refused_mid_stream_writes_nothing(app, runtime, tenant):
    contacts = await count(runtime, Contact.__table__)
    prefix = b'{"first_name": "Partial", "notes": "'
    answer = await call_asgi(
        app,
        "POST",
        "/v1/contacts",
        headers_for("/v1/contacts", tenant),
        [prefix] + [b"y" * CHUNK] * 20 + [b'"}'],
    )
    assert_too_large(answer)
    assert "x-ratelimit-limit" in answer.headers  # refused after the credential was counted
    assert await count(runtime, Contact.__table__) == contacts


async def test_a_console_form_refused_mid_stream_writes_nothing(app, runtime, tenant):
    user_id = await make_member(runtime, tenant.id)
    keys = await count(runtime, ApiKey.__table__)
    async with member_browser(app, runtime, user_id) as member:
        page = await member.get("/console/api-keys")
        token = form_value(page.text, "csrf_token")
        cookie = "; ".join(f"{name}={value}" for name, value in member.cookies.items())
    body = f"csrf_token={token}&name=".encode()
    answer = await call_asgi(
        app, "POST", "/console/api-keys", {**FORM, "cookie": cookie}, [body] + [b"n" * CHUNK] * 20
    )
    assert_too_large(answer)
    assert await count(runtime, ApiKey.__table__) == keys


@pytest.mark.parametrize("path", ROUTES)
async def test_a_real_server_refuses_64_mib_chunked_after_reading_about_the_limit(
    app, tenant, path
):
    counting = CountingApp(app)
    async with serving(counting) as port:
        answer = await post_chunked(port, path, headers_for(path, tenant), total=64 * MiB)
    assert_too_large(answer)
    # The app took the limit and at most what the server buffers beyond it (64 KiB plus
    # a socket read), and the client was stopped long before its 64 MiB (what it had
    # sent by then includes what the kernel's socket buffers took).
    assert LIMIT < counting.consumed <= LIMIT + 4 * CHUNK, counting.consumed
    assert answer.sent < 32 * MiB, answer.sent  # the rest sat in socket buffers


async def test_a_real_server_refuses_a_declared_64_mib_without_reading(app, tenant):
    counting = CountingApp(app)
    async with serving(counting) as port:
        answer = await post_declared(
            port, "/v1/contacts", headers_for("/v1/contacts", tenant), 64 * MiB
        )
    assert_too_large(answer)
    assert counting.consumed == 0


@pytest.mark.parametrize("settings_overrides", [{"max_body_bytes": 2048}])
async def test_the_limit_is_the_setting(tenant, settings_overrides):
    body = b'{"first_name": "Small"}'
    assert (await post_raw(tenant, body.ljust(2048))).status_code == 201
    error = assert_error(await post_raw(tenant, body.ljust(2049)), 413, "payload_too_large")
    assert error["details"] == {"max_body_bytes": 2048}


def test_the_setting_has_bounds():
    assert Settings(secret_key="k" * 43).max_body_bytes == 1_048_576
    for value in (0, 1023, (1 << 30) + 1):
        with pytest.raises(pydantic.ValidationError, match="max_body_bytes"):
            Settings(secret_key="k" * 43, max_body_bytes=value)


async def test_openapi_declares_413_on_every_operation_with_a_body(client):
    document = inline((await client.get("/v1/openapi.json")).json())
    with_body = [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    ]
    assert len(with_body) > 15
    for path, method, operation in with_body:
        response = operation["responses"].get("413")
        assert response, (method, path)
        schema = response["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErrorEnvelope"}, (method, path)
        assert "HOMEBASE_MAX_BODY_BYTES" in response["description"]
    without = [
        operation
        for item in document["paths"].values()
        for operation in item.values()
        if "requestBody" not in operation
    ]
    assert without and not any("413" in operation["responses"] for operation in without)
