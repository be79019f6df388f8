"""Hostile bytes in credentials and signatures: every credential and
signature parse refuses with 401/403 (or the OAuth error), never 500.

Header values are sent as raw bytes: latin-1 bytes such as 0xff reach the app as
non-ASCII characters, which a str `compare_digest` or an unguarded base64 decode used to
turn into a 500."""

import base64

import pytest

from homebase.console.sessions import LOGIN_COOKIE, SESSION_COOKIE
from homebase.webhooks.signing import (
    SignatureMismatch,
    signature,
    standard_signature,
    verify,
)
from tests.calls.test_calls import SECRET as CALLS_SECRET
from tests.console_support import browser, form_value, make_member, member_browser
from tests.messaging_support import TOKEN as TWILIO_TOKEN
from tests.oauth_support import make_app
from tests.support import assert_error

HOSTILE = [b"\xff", b"\xc3\xa9t\xc3\xa9", b"abc\xffdef", b"\x80" * 64]
FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def settings_overrides(tmp_path):
    return {
        "recordings_dir": tmp_path / "recordings",
        "calls_provider_secret": CALLS_SECRET,
        "twilio_auth_token": TWILIO_TOKEN,
    }


@pytest.mark.parametrize("raw", HOSTILE)
async def test_api_credentials_with_non_ascii_bytes_are_401(client, raw):
    for header in (
        b"token hbk_" + raw,
        b"Bearer hbo_at_" + raw,
        b"token " + raw,
        b"tok\xffen hbk_abc",
        raw,
    ):
        response = await client.get("/v1/ping", headers={"authorization": header})
        assert_error(response, 401, "unauthenticated")


@pytest.mark.parametrize("raw", HOSTILE)
async def test_http_basic_with_non_ascii_bytes_is_invalid_client(runtime, client, raw):
    app = await make_app(runtime)
    encoded_secret = base64.b64encode(f"{app.client_id}:".encode() + raw)
    for credentials in (raw, b"=" + raw, encoded_secret, b"\xffbase64\xff=="):
        for path, form in (
            ("/oauth/token", "grant_type=client_credentials"),
            ("/oauth/revoke", "token=hbo_at_x"),
        ):
            response = await client.post(
                path, content=form, headers={**FORM, "authorization": b"Basic " + credentials}
            )
            assert response.status_code == 401, (path, credentials, response.text)
            assert response.json()["error"] == "invalid_client"
            assert response.headers["www-authenticate"].startswith("Basic")


@pytest.mark.parametrize("raw", HOSTILE)
async def test_sms_provider_signature_with_non_ascii_bytes_is_403(client, raw):
    for path in ("/providers/sms/inbound", "/providers/sms/status"):
        response = await client.post(
            path,
            content="From=%2B14155550142&To=%2B14155550100",
            headers={**FORM, "x-twilio-signature": raw},
        )
        assert_error(response, 403, "invalid_signature")


@pytest.mark.parametrize("raw", HOSTILE)
async def test_call_callback_signature_with_non_ascii_bytes_is_401(client, raw):
    for header in (raw, b"sha256=" + raw, b"sha256=" + b"0" * 63 + raw):
        response = await client.post(
            "/providers/calls/completed",
            content=b"{}",
            headers={"content-type": "application/json", "x-homebase-signature": header},
        )
        assert_error(response, 401, "unauthenticated")


@pytest.mark.parametrize("raw", HOSTILE)
async def test_console_cookies_with_non_ascii_bytes_are_ignored(app, runtime, tenant, raw):
    async with browser(app) as anonymous:
        page = await anonymous.get(
            "/console", headers={"cookie": SESSION_COOKIE.encode() + b"=hbs_" + raw}
        )
        assert page.status_code == 303
        assert page.headers["location"].startswith("/console/login")
        form = await anonymous.get("/console/login")
        token = form_value(form.text, "csrf_token")
        refused = await anonymous.post(
            "/console/login",
            content=f"csrf_token={token}&email=a%40example.com&password=x",
            headers={**FORM, "cookie": LOGIN_COOKIE.encode() + b"=" + raw},
        )
        assert refused.status_code == 403, refused.text


@pytest.mark.parametrize("raw", HOSTILE)
async def test_console_csrf_and_origin_with_non_ascii_bytes_are_403(app, runtime, tenant, raw):
    user_id = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user_id) as member:
        page = await member.get("/console/api-keys")
        token = form_value(page.text, "csrf_token")
        for headers in ({"origin": b"http://" + raw}, {}):
            body = f"csrf_token={token}" if headers else "csrf_token=%FF%C3"
            refused = await member.post(
                "/console/logout", content=body, headers={**FORM, **headers}
            )
            assert refused.status_code == 403, refused.text


@pytest.mark.parametrize("raw", ["%FF", "%C3%A9t%C3%A9", "abc%FFdef", "\u00e9" * 20])
async def test_signed_tokens_with_non_ascii_characters_are_refused(client, tenant, raw):
    link = await client.get(f"/recordings/{raw}")
    assert_error(link, 403, "recording_link_invalid")
    # A cursor that does not open starts the list again, as any malformed cursor does.
    page = await tenant.get(f"/v1/contacts?cursor={raw}")
    assert page.status_code == 200, page.text


def test_webhook_verify_refuses_hostile_headers_with_its_own_error():
    """The receivers' helper (webhooks/signing.py) raises SignatureMismatch, never a
    TypeError or ValueError, whatever the headers hold."""
    secret, body = "whsec_test", b'{"event":"contact.created"}'
    good = {"X-Webhook-Signature": signature(secret, body), "webhook-id": "evt_1"}
    for headers in (
        {"X-Webhook-Signature": "\xff" * 10},
        # signed, but "²" passes str.isdigit() and int() refuses it
        {
            **good,
            "webhook-timestamp": "\xb2",
            "webhook-signature": standard_signature(secret, "evt_1", "\xb2", body),
        },
        {**good, "webhook-timestamp": "1", "webhook-signature": "\xe9"},
        {**good, "webhook-timestamp": "1", "webhook-signature": "v1,\udcff"},
    ):
        with pytest.raises(SignatureMismatch):
            verify(secret, body, headers, now=1)


@pytest.mark.parametrize("raw", ["\u00e9" * 30, "\x00\x01", "%FF", "a" * 40 + "\u00ff"])
async def test_signed_form_blobs_with_non_ascii_characters_are_refused(app, runtime, tenant, raw):
    """The consent screen's signed request and the sign-in's workspace pick: a page that
    says the form expired, never a 500."""
    user_id = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user_id) as member:
        token = form_value((await member.get("/console/api-keys")).text, "csrf_token")
        consent = await member.post(
            "/oauth/authorize", data={"csrf_token": token, "request": raw, "decision": "approve"}
        )
        assert consent.status_code == 400, consent.text
    async with browser(app) as anonymous:
        token = form_value((await anonymous.get("/console/login")).text, "csrf_token")
        pick = await anonymous.post(
            "/console/login/workspace", data={"csrf_token": token, "pick": raw, "user_id": user_id}
        )
        assert pick.status_code == 400, pick.text
