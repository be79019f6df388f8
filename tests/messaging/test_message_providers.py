"""Providers for real: email through an aiosmtpd server, SMS and WhatsApp through a local
HTTP server speaking Twilio's Messages API, delivery callbacks, two workers, leases."""

import asyncio
import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import pytest

from homebase.messaging import jobs
from tests.messaging_support import (
    NEW_YORK,
    NO_SUCH_USER,
    SENDER,
    TOKEN,
    add_consent,
    add_sender,
    closed_port,
    freeze,
    provider_post,
    smtp_server_fixture,  # noqa: F401  (the module's aiosmtpd server: `smtp_server`)
    smtp_settings,
)
from tests.support import assert_error

ACCOUNT = "AC0123456789"
REFUSED_NUMBER = "+13105550000"
CUT_OFF_NUMBER = "+13105550001"  # the API takes the request and closes without answering


class TwilioShaped(BaseHTTPRequestHandler):
    requests: list = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        length = int(self.headers.get("content-length", 0))
        form = {
            key: values[0] for key, values in parse_qs(self.rfile.read(length).decode()).items()
        }
        self.requests.append(
            {"path": self.path, "auth": self.headers.get("authorization"), "form": form}
        )
        if form.get("To") == CUT_OFF_NUMBER:
            self.close_connection = True
            return
        if form.get("To") == REFUSED_NUMBER:
            status, body = (
                400,
                {"code": 21211, "message": "Invalid 'To' Phone Number", "status": 400},
            )
        else:
            status, body = 201, {"sid": f"SM{len(self.requests):032d}", "status": "queued"}
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def twilio_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), TwilioShaped)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def settings_overrides(smtp_server, twilio_server):
    TwilioShaped.requests = []
    return {
        **smtp_settings(smtp_server),
        "sms_provider": "twilio",
        "twilio_base_url": f"http://127.0.0.1:{twilio_server.server_address[1]}",
        "twilio_account_sid": ACCOUNT,
        "twilio_auth_token": TOKEN,
        "messaging_provider_timeout_seconds": 5,
    }


@pytest.fixture
async def ready(runtime, tenant):
    freeze(runtime, 18)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)
    await add_consent(runtime, tenant, REFUSED_NUMBER)
    await add_consent(runtime, tenant, CUT_OFF_NUMBER)
    return tenant


async def send(tenant, **body):
    response = await tenant.post("/v1/messages", json={"channel": "sms", "body": "Hi!", **body})
    assert response.status_code == 201, response.text
    return response.json()


async def message(tenant, message_id):
    return (await tenant.get(f"/v1/messages/{message_id}")).json()


async def test_email_through_a_real_smtp_server(runtime, ready, smtp_server):
    created = await send(
        ready,
        channel="email",
        to="dana@example.com",
        subject="Showing",
        body="See you Saturday at 11.",
    )
    assert created["from"] == "agent@demo-realty.example"
    assert await jobs.send_due(runtime) == 1
    [envelope] = smtp_server.mailbox.messages
    assert envelope.rcpt_tos == ["dana@example.com"]
    assert envelope.mail_from == "agent@demo-realty.example"
    text = envelope.content.decode()
    assert "Subject: Showing" in text and "See you Saturday at 11." in text
    assert created["id"] in text
    stored = await message(ready, created["id"])
    assert stored["status"] == "SENT" and stored["provider"] == "smtp"


async def test_smtp_refusal_becomes_failed_with_reason(runtime, ready, smtp_server):
    created = await send(ready, channel="email", to=NO_SUCH_USER, subject="s")
    await jobs.send_due(runtime)
    stored = await message(ready, created["id"])
    assert stored["status"] == "FAILED" and stored["blocked_reason"] is None
    assert stored["failure_reason"].startswith(
        "Provider smtp refused: SMTP SMTPRecipientsRefused: "
    )
    assert "No such user" in stored["failure_reason"]
    runtime.clock.advance(hours=1)  # a refusal is final: nothing is tried again
    await jobs.send_due(runtime)
    assert smtp_server.mailbox.messages == []


async def test_sms_through_a_twilio_shaped_api_and_status_callbacks(runtime, ready, client):
    created = await send(ready, to=NEW_YORK, body="Open house Saturday")
    await jobs.send_due(runtime)
    [request] = TwilioShaped.requests
    assert request["path"] == f"/2010-04-01/Accounts/{ACCOUNT}/Messages.json"
    assert request["auth"] == "Basic " + base64.b64encode(f"{ACCOUNT}:{TOKEN}".encode()).decode()
    assert request["form"]["To"] == NEW_YORK and request["form"]["From"] == SENDER
    assert request["form"]["Body"] == "Open house Saturday"
    assert request["form"]["StatusCallback"].endswith("/providers/sms/status")
    stored = await message(ready, created["id"])
    assert stored["status"] == "SENT" and stored["provider"] == "twilio"

    sid = f"SM{1:032d}"
    callback = {
        "MessageSid": sid,
        "MessageStatus": "delivered",
        "From": SENDER,
        "To": NEW_YORK,
        "AccountSid": ACCOUNT,
    }
    assert_error(
        await provider_post(client, "/providers/sms/status", callback, token="x"),
        403,
        "invalid_signature",
    )
    assert (await provider_post(client, "/providers/sms/status", callback)).status_code == 200
    stored = await message(ready, created["id"])
    assert stored["status"] == "DELIVERED" and stored["delivered_at"]
    late = {**callback, "MessageStatus": "sent"}  # never moves backwards
    await provider_post(client, "/providers/sms/status", late)
    assert (await message(ready, created["id"]))["status"] == "DELIVERED"
    unknown = {**callback, "MessageSid": "SMnope"}
    assert_error(await provider_post(client, "/providers/sms/status", unknown), 404, "not_found")


async def test_undelivered_callback_fails_the_message(runtime, ready, client):
    created = await send(ready, to=NEW_YORK)
    await jobs.send_due(runtime)
    await provider_post(
        client,
        "/providers/sms/status",
        {
            "MessageSid": f"SM{1:032d}",
            "MessageStatus": "undelivered",
            "ErrorCode": "30003",
            "From": SENDER,
            "To": NEW_YORK,
        },
    )
    stored = await message(ready, created["id"])
    assert stored["status"] == "FAILED" and "30003" in stored["failure_reason"]


async def test_provider_refusal_becomes_failed(runtime, ready):
    created = await send(ready, to=REFUSED_NUMBER)
    await jobs.send_due(runtime)
    stored = await message(ready, created["id"])
    assert stored["status"] == "FAILED"
    assert "21211" in stored["failure_reason"] and "Invalid 'To'" in stored["failure_reason"]


async def test_whatsapp_addresses(runtime, ready):
    await add_sender(runtime, ready, channel="whatsapp")
    await send(ready, channel="whatsapp", to=NEW_YORK)
    await jobs.send_due(runtime)
    [request] = TwilioShaped.requests
    assert request["form"]["To"] == f"whatsapp:{NEW_YORK}"
    assert request["form"]["From"] == f"whatsapp:{SENDER}"


async def test_two_workers_send_each_message_once(runtime, ready):
    created = [await send(ready, to=NEW_YORK, body=f"n{i}") for i in range(6)]
    runtime.settings = runtime.settings.model_copy(update={"messaging_send_batch": 2})
    for _ in range(4):
        await asyncio.gather(jobs.send_due(runtime), jobs.send_due(runtime))
    bodies = sorted(request["form"]["Body"] for request in TwilioShaped.requests)
    assert bodies == [f"n{i}" for i in range(6)]
    for item in created:
        assert (await message(ready, item["id"]))["status"] == "SENT"


async def test_expired_lease_fails_instead_of_resending(runtime, ready):
    created = await send(ready, to=NEW_YORK)
    [claimed] = await jobs.claim(runtime, 10)
    assert await jobs.begin_send(runtime, claimed)  # handed to the provider; no answer
    runtime.clock.advance(seconds=runtime.settings.messaging_lease_seconds + 1)
    assert await jobs.sweep(runtime) == 1
    stored = await message(ready, created["id"])
    assert stored["status"] == "FAILED" and "not retried" in stored["failure_reason"]
    assert "outcome unknown" in stored["failure_reason"]
    await jobs.send_one(runtime, claimed)  # the late worker's answer is fenced off
    assert (await message(ready, created["id"]))["status"] == "FAILED"


async def test_twilio_unreachable_is_retried_and_a_lost_answer_never_is(
    runtime, ready, twilio_server
):
    real = runtime.settings
    runtime.settings = real.model_copy(
        update={"twilio_base_url": f"http://127.0.0.1:{closed_port()}"}
    )
    retried = await send(ready, to=NEW_YORK, body="retried")
    await jobs.send_due(runtime)
    assert (await message(ready, retried["id"]))["status"] == "QUEUED"
    runtime.settings = real
    lost = await send(ready, to=CUT_OFF_NUMBER, body="lost")
    await jobs.send_due(runtime)
    stored = await message(ready, lost["id"])
    assert stored["status"] == "FAILED" and "outcome unknown" in stored["failure_reason"]
    runtime.clock.advance(seconds=jobs.RETRY_BACKOFF_SECONDS)
    await jobs.send_due(runtime)
    assert (await message(ready, retried["id"]))["status"] == "SENT"
    assert sorted(request["form"]["Body"] for request in TwilioShaped.requests) == [
        "lost",
        "retried",
    ]
