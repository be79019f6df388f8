"""gzip over HTTP: a large answer is compressed for a client that asks, nothing else is, and
no answer that carries a secret or a CSRF token ever is (http/compression.py; BREACH,
docs/decisions.md, "Compression (gzip) and BREACH")."""

import gzip
import json
import random
import string
from typing import Any

import httpx
import pytest
from fastapi.routing import iter_route_contexts

from homebase.http.compression import MINIMUM_SIZE, CompressionMiddleware, never_compressed
from homebase.idempotency.store import OMIT_ATTRIBUTE
from tests.console_support import browser, csrf, make_member
from tests.console_support import member_browser as signed_in_browser
from tests.exports.support import export, path_of
from tests.oauth_support import (
    authorize_app,
    authorize_params,
    client_credentials,
    make_app,
    pkce_pair,
)
from tests.openapi_support import inline
from tests.test_routes import build_offline_app

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


async def raw(client: httpx.AsyncClient, method: str, url: str, **kwargs: Any):
    """The answer and its body as sent (httpx would decode a gzip body on reading it)."""
    async with client.stream(method, url, **kwargs) as response:
        body = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, body


def assert_gzip(response: httpx.Response, body: bytes) -> bytes:
    assert response.headers.get("content-encoding") == "gzip", dict(response.headers)
    assert "accept-encoding" in response.headers["vary"].lower()
    if "content-length" in response.headers:  # absent on a streamed body
        assert int(response.headers["content-length"]) == len(body)
    return gzip.decompress(body)


def assert_identity(response: httpx.Response, body: bytes) -> None:
    assert "content-encoding" not in response.headers, dict(response.headers)
    if "content-length" in response.headers:
        assert int(response.headers["content-length"]) == len(body)


async def add_contacts(tenant, count: int, notes: str = "Wants 3 beds near Noe Valley.") -> None:
    for index in range(count):
        created = await tenant.post(
            "/v1/contacts",
            json={"first_name": f"Dana{index}", "last_name": "Reyes", "notes": notes},
        )
        assert created.status_code == 201, created.text


async def test_a_large_list_is_gzip_when_asked_and_reads_the_same(tenant):
    await add_contacts(tenant, 12)
    plain, plain_body = await raw(
        tenant.client, "GET", "/v1/contacts", headers={**tenant.headers, **IDENTITY}
    )
    assert plain.status_code == 200 and len(plain_body) >= MINIMUM_SIZE
    assert_identity(plain, plain_body)
    packed, packed_body = await raw(
        tenant.client, "GET", "/v1/contacts", headers={**tenant.headers, **GZIP}
    )
    assert packed.status_code == 200
    assert json.loads(assert_gzip(packed, packed_body)) == json.loads(plain_body)
    assert len(packed_body) < len(plain_body)
    # The headers of every /v1 answer are still there.
    assert packed.headers["x-request-id"] and packed.headers["x-ratelimit-limit"]
    # A client that asks for gzip among others gets it too.
    listed, listed_body = await raw(
        tenant.client,
        "GET",
        "/v1/contacts",
        headers={**tenant.headers, "Accept-Encoding": "br;q=1.0, gzip;q=0.5"},
    )
    assert json.loads(assert_gzip(listed, listed_body)) == json.loads(plain_body)


async def test_nothing_is_compressed_for_a_client_that_does_not_ask(tenant):
    await add_contacts(tenant, 12)
    for encoding in ("identity", "br", "deflate", ""):
        response, body = await raw(
            tenant.client,
            "GET",
            "/v1/contacts",
            headers={**tenant.headers, "Accept-Encoding": encoding},
        )
        assert response.status_code == 200 and len(body) >= MINIMUM_SIZE
        assert_identity(response, body)
        assert json.loads(body)["data"]


async def test_an_answer_below_one_kib_is_sent_as_it_is(tenant):
    response, body = await raw(tenant.client, "GET", "/v1/ping", headers={**tenant.headers, **GZIP})
    assert response.status_code == 200 and len(body) < MINIMUM_SIZE
    assert_identity(response, body)
    assert json.loads(body)["tenant_id"] == tenant.id


async def test_a_streamed_export_download_is_gzip_and_whole(tenant, runtime, client):
    """The file is sent in chunks (over 64 KiB): compressed as it goes, no Content-Length,
    and it decompresses to the file; a Range request still gets its plain bytes."""
    notes = "".join(random.Random(7).choices(string.ascii_letters + " ", k=16_000))
    await add_contacts(tenant, 6, notes=notes)
    exported = await export(tenant, runtime, object="contacts", format="ndjson")
    url = path_of(exported["download_url"])
    plain, plain_body = await raw(client, "GET", url, headers=IDENTITY)
    assert plain.status_code == 200 and len(plain_body) > 64 * 1024
    packed, packed_body = await raw(client, "GET", url, headers=GZIP)
    assert packed.status_code == 200 and "content-length" not in packed.headers
    assert assert_gzip(packed, packed_body) == plain_body
    ranged, ranged_body = await raw(client, "GET", url, headers={**GZIP, "Range": "bytes=0-5"})
    assert ranged.status_code == 206 and ranged_body == plain_body[:6]
    assert_identity(ranged, ranged_body)
    head, head_body = await raw(client, "HEAD", url, headers=GZIP)
    assert head.status_code == 200 and head_body == b""


# Answers that carry a secret or a CSRF token. Most are below MINIMUM_SIZE, so they are
# asked for through the same middleware with a threshold of one byte, wrapped around the
# app: only the rule can keep them plain (the control below shows that it compresses).


@pytest.fixture
def forced(app):
    return CompressionMiddleware(app, minimum_size=1)


@pytest.fixture
async def forced_client(forced):
    transport = httpx.ASGITransport(app=forced, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


async def test_the_forced_threshold_does_compress_an_ordinary_small_answer(tenant, forced_client):
    response, body = await raw(forced_client, "GET", "/v1/ping", headers={**tenant.headers, **GZIP})
    assert response.status_code == 200 and len(gzip.decompress(body)) < MINIMUM_SIZE
    assert json.loads(assert_gzip(response, body))["tenant_id"] == tenant.id


async def test_a_new_webhook_and_its_secret_are_never_compressed(tenant, forced_client):
    headers = {**tenant.headers, **GZIP}
    created, body = await raw(
        forced_client,
        "POST",
        "/v1/webhooks",
        json={"url": "http://127.0.0.1:9/hook", "event_types": ["contact.created"]},
        headers=headers,
    )
    assert created.status_code == 201, body
    assert_identity(created, body)
    assert json.loads(body)["secret"].startswith("whsec_")
    # The same subscription read back (no secret) is compressed like any answer.
    listed, listed_body = await raw(forced_client, "GET", "/v1/webhooks", headers=headers)
    assert "secret" not in json.loads(assert_gzip(listed, listed_body))["data"][0]


async def test_oauth_token_answers_are_never_compressed(runtime, tenant, forced_client):
    app = await make_app(runtime)
    await authorize_app(runtime, app, tenant.id, ["contacts:read"])
    forced_client.headers.update(GZIP)
    issued = await client_credentials(forced_client, app, tenant.id)
    assert issued.status_code == 200, issued.text
    assert issued.json()["access_token"] and "content-encoding" not in issued.headers
    refused = await forced_client.post(
        "/oauth/token", data={"grant_type": "client_credentials", "client_id": app.client_id}
    )
    assert refused.status_code in (400, 401) and "content-encoding" not in refused.headers


async def test_console_pages_and_the_secrets_they_show_are_never_compressed(
    runtime, tenant, forced
):
    member = await make_member(runtime, tenant.id)
    async with signed_in_browser(forced, runtime, member) as console:
        console.headers.update(GZIP)
        for path in ("/console", "/console/api-keys", "/console/webhooks"):
            page, body = await raw(console, "GET", path)
            assert page.status_code == 200 and b'name="csrf_token"' in body, path
            assert_identity(page, body)
        shown = await console.get("/console/api-keys")
        created, body = await raw(
            console,
            "POST",
            "/console/api-keys",
            data={
                "csrf_token": csrf(shown.text),
                "name": "Zapier",
                "scopes": ["contacts:read"],
                "expires_in_days": "30",
            },
        )
        assert created.status_code == 200 and b'id="new-key"' in body
        assert_identity(created, body)
        shown = await console.get("/console/webhooks")
        hook, body = await raw(
            console,
            "POST",
            "/console/webhooks",
            data={
                "csrf_token": csrf(shown.text),
                "url": "http://127.0.0.1:9/hook",
                "event_types": ["contact.created"],
            },
        )
        assert hook.status_code == 200 and b"whsec_" in body
        assert_identity(hook, body)
    async with browser(forced) as anonymous:
        login, body = await raw(anonymous, "GET", "/console/login", headers=GZIP)
        assert login.status_code == 200 and b'name="csrf_token"' in body
        assert_identity(login, body)


async def test_the_oauth_consent_page_is_never_compressed(runtime, tenant, forced):
    app = await make_app(runtime)
    _, challenge = pkce_pair()
    member = await make_member(runtime, tenant.id, email="owner@example.com")
    async with signed_in_browser(forced, runtime, member) as signed_in:
        page, body = await raw(
            signed_in,
            "GET",
            "/oauth/authorize",
            params=authorize_params(app, challenge),
            headers=GZIP,
        )
    assert page.status_code == 200 and b'name="csrf_token"' in body
    assert_identity(page, body)


async def test_any_page_is_never_compressed_by_its_type(forced_client):
    """A page outside the listed paths (here the docs page) is kept plain by its
    Content-Type, so a page added later with a form is covered without a new entry."""
    page, body = await raw(forced_client, "GET", "/v1/docs", headers=GZIP)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert_identity(page, body)
    script, script_body = await raw(
        forced_client, "GET", "/v1/docs/assets/swagger-init.js", headers=GZIP
    )
    assert script.status_code == 200
    assert_gzip(script, script_body)


SECRET_MEMBERS = ("secret", "client_secret", "access_token", "refresh_token")


def _success_members(document: dict[str, Any], operation: dict[str, Any]) -> set[str]:
    schemas = document["components"]["schemas"]
    members: set[str] = set()
    for status, answer in operation.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        for content in answer.get("content", {}).values():
            pending = [content.get("schema", {})]
            while pending:
                schema = pending.pop()
                if "$ref" in schema:
                    schema = schemas[schema["$ref"].rsplit("/", 1)[-1]]
                members |= set(schema.get("properties", {}))
                pending += schema.get("anyOf", []) + schema.get("oneOf", [])
    return members


def test_every_documented_answer_holding_a_secret_is_in_the_rule():
    """An operation whose success answer has a secret's member (a webhook's `secret`, a
    token) is never compressed; a new one fails here until the rule names it."""
    document = inline(build_offline_app().openapi())
    holding = [
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if set(SECRET_MEMBERS) & _success_members(document, operation)
    ]
    assert ("POST", "/v1/webhooks") in holding and ("POST", "/oauth/token") in holding
    assert [found for found in holding if not never_compressed(*found)] == []


def test_every_endpoint_that_keeps_a_member_from_replay_is_in_the_rule():
    """`not_replayed` marks a member too secret to store for an Idempotency-Key replay:
    the same member is too secret to compress."""
    marked = [
        (method, context.path)
        for context in iter_route_contexts(build_offline_app().routes)
        if getattr(getattr(context.route, "endpoint", None), OMIT_ATTRIBUTE, None)
        for method in context.methods or ()
    ]
    assert ("POST", "/v1/webhooks") in marked
    assert [found for found in marked if not never_compressed(*found)] == []
