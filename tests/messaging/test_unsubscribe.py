"""One-click unsubscribe for email (RFC 8058), for real: the mail reaches an aiosmtpd server
carrying List-Unsubscribe and List-Unsubscribe-Post; a POST to the link, with no
credential, suppresses the address in that workspace; the page; bad links; key rotation;
erasure. On SQLite and PostgreSQL."""

import email
import email.policy
import secrets
from urllib.parse import urlsplit

import pytest
from pydantic import ValidationError
from sqlalchemy import select

from homebase.config import Settings
from homebase.messaging import jobs, unsubscribe
from homebase.models import Suppression
from tests.messaging_support import (
    smtp_server_fixture,  # noqa: F401  (`smtp_server`)
    smtp_settings,
)
from tests.support import assert_error, make_tenant

PUBLIC_URL = "https://crm.demo-realty.example"
ADDRESS = "dana.whitfield@example.com"
ONE_CLICK = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def settings_overrides(smtp_server):
    return {
        **smtp_settings(smtp_server),
        "public_url": PUBLIC_URL,
        "messaging_provider_timeout_seconds": 5,
        "rate_limit_unauthenticated_per_min": 2,
        "max_body_bytes": 2048,
    }


async def send_email(tenant, to=ADDRESS):
    return await tenant.post(
        "/v1/messages",
        json={"channel": "email", "to": to, "subject": "New listing", "body": "3 bed, 2 bath."},
    )


async def mailed(runtime, tenant, smtp_server, to=ADDRESS):
    """Sends one email through the worker; the message as the SMTP server received it."""
    created = await send_email(tenant, to)
    assert created.status_code == 201, created.text
    smtp_server.mailbox.messages.clear()
    assert await jobs.send_due(runtime) == 1
    [envelope] = smtp_server.mailbox.messages
    return created.json(), envelope.content


def link_of(raw: bytes) -> str:
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    value = parsed["List-Unsubscribe"]
    assert value.startswith("<") and value.endswith(">"), value
    return value[1:-1]


async def suppressions(runtime) -> list[dict]:
    async with runtime.db.transaction() as connection:
        rows = await connection.execute(select(Suppression.__table__))
        return [dict(row) for row in rows.mappings()]


async def test_every_email_carries_one_click_unsubscribe_and_the_link_suppresses(
    runtime, tenant, client, smtp_server
):
    created, raw = await mailed(runtime, tenant, smtp_server)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = link_of(raw)
    assert link.startswith(f"{PUBLIC_URL}/unsubscribe/")
    # one header line as sent, never RFC 2047 encoded words, which no provider reads as a URL
    assert f"\r\nList-Unsubscribe: <{link}>\r\n".encode() in raw
    # the link is opaque: neither the address nor its parts show
    assert "dana" not in link.lower() and "example.com" not in link
    assert "=?" not in raw.decode()

    path = urlsplit(link).path
    done = await client.post(path, content="List-Unsubscribe=One-Click", headers=ONE_CLICK)
    assert done.status_code == 200, done.text
    assert done.headers["content-type"].startswith("text/html")
    assert "will receive no more email from Test Realty" in done.text
    again = await client.post(path)  # an empty body, and a repeat: nothing new
    assert again.status_code == 200 and "no more email" in again.text
    [row] = await suppressions(runtime)
    assert (row["kind"], row["address"], row["reason"]) == ("email", ADDRESS, "unsubscribe_link")
    assert row["lifted_at"] is None and row["workspace_id"] == tenant.id
    assert row["evidence"]["message_id"] == created["id"]
    assert row["evidence"]["request"] == "one_click"
    assert row["evidence"]["method"] == "list_unsubscribe"

    refused = await send_email(tenant)
    error = assert_error(refused, 422, "compliance_blocked")
    assert error["details"]["reason"] == "opted_out"


async def test_the_page_confirms_with_a_button_and_get_changes_nothing(
    runtime, tenant, client, smtp_server
):
    _, raw = await mailed(runtime, tenant, smtp_server)
    path = urlsplit(link_of(raw)).path
    page = await client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "script-src 'none'" in page.headers["content-security-policy"]
    assert "form-action 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert f'<form method="post" action="{path}">' in page.text
    assert 'name="List-Unsubscribe" value="One-Click"' in page.text
    assert "Stop email from Test Realty to d***@example.com?" in page.text  # masked
    assert ADDRESS not in page.text
    assert await suppressions(runtime) == []  # a GET (a link scanner) changes nothing

    pressed = await client.post(
        path, content="List-Unsubscribe=One-Click&via=page", headers=ONE_CLICK
    )
    assert pressed.status_code == 200 and "no more email" in pressed.text
    [row] = await suppressions(runtime)
    assert row["evidence"]["request"] == "page"


async def test_the_suppression_is_the_workspaces_own(
    runtime, tenant, other_tenant, client, smtp_server
):
    _, raw = await mailed(runtime, tenant, smtp_server)
    assert (await client.post(urlsplit(link_of(raw)).path)).status_code == 200
    assert (await send_email(other_tenant)).status_code == 201
    [row] = await suppressions(runtime)
    assert row["workspace_id"] == tenant.id


def altered(token: str) -> str:
    middle = len(token) // 2
    return token[:middle] + ("A" if token[middle] != "A" else "B") + token[middle + 1 :]


async def test_a_bad_link_is_a_404_page_and_no_failed_sign_in(runtime, tenant, client, smtp_server):
    _, raw = await mailed(runtime, tenant, smtp_server)
    token = urlsplit(link_of(raw)).path.rsplit("/", 1)[1]
    forged = unsubscribe.token(
        runtime.settings.model_copy(update={"secret_key": "another-key"}).keys,
        tenant.id,
        ADDRESS,
        "msg_x",
    )
    bad = [
        "nope",
        "v1.",
        "v1.AAAA",
        "v2." + token[3:],
        altered(token),
        forged,
        token + "A",
        "v1." + "A" * 5000,
        "%C3%A9t%C3%A9",
        "v1.%00%ff",
    ]
    for value in bad:
        for method in ("GET", "POST"):
            response = await client.request(method, f"/unsubscribe/{value}")
            assert response.status_code == 404, (method, value, response.text)
            assert response.headers["content-type"].startswith("text/html"), value
            assert "This unsubscribe link is not valid" in response.text
            assert response.headers["cache-control"] == "no-store"
    assert await suppressions(runtime) == []
    # twenty refused links later, the address's unauthenticated budget (2) is untouched
    wrong_key = await client.get("/v1/ping", headers={"Authorization": "token hbk_wrong"})
    assert_error(wrong_key, 401, "unauthenticated")


async def test_the_body_is_bounded(runtime, tenant, client, smtp_server):
    _, raw = await mailed(runtime, tenant, smtp_server)
    path = urlsplit(link_of(raw)).path
    declared = await client.post(path, content=b"x" * 4096, headers=ONE_CLICK)
    assert_error(declared, 413, "payload_too_large")

    async def chunks():
        for _ in range(4):
            yield b"List-Unsubscribe=One-Click&" * 40

    chunked = await client.post(path, content=chunks(), headers=ONE_CLICK)
    assert_error(chunked, 413, "payload_too_large")
    assert await suppressions(runtime) == []


async def test_the_link_still_works_after_a_key_rotation(runtime, tenant, client, smtp_server):
    _, raw = await mailed(runtime, tenant, smtp_server)
    path = urlsplit(link_of(raw)).path
    old = runtime.settings.secret_key
    runtime.settings = runtime.settings.model_copy(
        update={"secret_key": "the-new-secret-key", "secret_key_previous": ""}
    )
    assert (await client.post(path)).status_code == 404  # the old key is gone: not valid
    runtime.settings = runtime.settings.model_copy(update={"secret_key_previous": old})
    assert (await client.get(path)).status_code == 200
    assert (await client.post(path)).status_code == 200
    assert len(await suppressions(runtime)) == 1
    assert_error(await send_email(tenant), 422, "compliance_blocked")


async def test_erasing_the_contact_keeps_the_suppression(runtime, tenant, client, smtp_server):
    person = await tenant.post("/v1/contacts", json={"first_name": "Dana", "email": ADDRESS})
    assert person.status_code == 201, person.text
    _, raw = await mailed(runtime, tenant, smtp_server)
    assert (await client.post(urlsplit(link_of(raw)).path)).status_code == 200
    assert (await tenant.delete(f"/v1/contacts/{person.json()['id']}")).status_code in (200, 204)
    [row] = await suppressions(runtime)
    assert row["address"] == ADDRESS and row["lifted_at"] is None
    error = assert_error(await send_email(tenant), 422, "compliance_blocked")
    assert error["details"]["reason"] == "opted_out"
    # the link keeps working after erasure: it needs no message row
    assert (await client.post(urlsplit(link_of(raw)).path)).status_code == 200


PRODUCTION_KEY = secrets.token_urlsafe(32)


def test_production_smtp_needs_an_https_public_url():
    with pytest.raises(ValidationError, match="HOMEBASE_PUBLIC_URL must be an https://"):
        Settings(
            env="production",
            secret_key=PRODUCTION_KEY,
            email_provider="smtp",
            public_url="http://crm.example.com",
        )
    https = Settings(
        env="production",
        secret_key=PRODUCTION_KEY,
        email_provider="smtp",
        public_url=PUBLIC_URL,
        ai_provider="local",
    )
    assert https.public_url == PUBLIC_URL


async def test_the_page_escapes_the_workspace_name(runtime, client, smtp_server):
    hostile = await make_tenant(runtime, client, name='<img src=x onerror="alert(1)">')
    _, raw = await mailed(runtime, hostile, smtp_server)
    page = await client.get(urlsplit(link_of(raw)).path)
    assert page.status_code == 200
    assert "<img" not in page.text
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in page.text


async def test_an_address_in_capitals_is_suppressed_in_the_form_the_gate_compares(
    runtime, tenant, client, smtp_server
):
    """A contact's email keeps its casing; sent by contact_id, the mail goes to the
    canonical (lower-cased) address, so the link's suppression matches what the gate
    compares however the address is written later."""
    contact = await tenant.post("/v1/contacts", json={"email": "Dana.Whitfield@Example.com"})
    assert contact.status_code == 201, contact.text
    body = {"channel": "EMAIL", "contact_id": contact.json()["id"], "subject": "Hi", "body": "x"}
    assert (await tenant.post("/v1/messages", json=body)).status_code == 201
    smtp_server.mailbox.messages.clear()
    assert await jobs.send_due(runtime) == 1
    [envelope] = smtp_server.mailbox.messages
    path = urlsplit(link_of(envelope.content)).path
    assert (
        await client.post(path, content="List-Unsubscribe=One-Click", headers=ONE_CLICK)
    ).status_code == 200
    [row] = await suppressions(runtime)
    assert row["address"] == ADDRESS
    for target in ({"contact_id": contact.json()["id"]}, {"to": "DANA.whitfield@example.com"}):
        refused = await tenant.post("/v1/messages", json={**body, "contact_id": None, **target})
        error = assert_error(refused, 422, "compliance_blocked")
        assert error["details"]["reason"] == "opted_out"
