"""Logs: with HOMEBASE_LOG_FORMAT=json every line a real `homebase`
process writes (uvicorn's, Alembic's, the worker's, ours) is one JSON object; each request
logs one line at its end with its id, workspace, credential (never the secret), method,
route template, status and duration; worker outcomes log their ids; and no key, token,
password, secret, message body or unmasked phone or email appears anywhere."""

import asyncio
import json
import logging
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from homebase.console.sessions import SESSION_COOKIE
from homebase.kit import logs
from homebase.messaging.jobs import send_due
from homebase.oauth import admin as oauth_admin
from homebase.webhooks import jobs as webhook_jobs
from tests.automations_support import (
    FULL_STEPS,
    automation,
    contact,
    frozen,
    sendable,
    step_runs,
    tick,
)
from tests.console_support import PASSWORD as CONSOLE_PASSWORD
from tests.console_support import browser as console_browser
from tests.console_support import make_member, post_form, sign_in
from tests.messaging_support import NEW_YORK, add_consent, add_sender, freeze, set_status
from tests.oauth_support import (
    REDIRECT,
    App,
    authorize_params,
    consent,
    exchange,
    grant_code,
    ping,
    pkce_pair,
    redirect_query,
    refresh,
)
from tests.ratelimit.test_ratelimit import (
    HOMEBASE,
    admin_json,
    clean_env,
    workspace_with_key,
)
from tests.served_support import Started, start_serve
from tests.support import closed_port, until

PASSWORD = "Correct-Horse-Battery-9"
BODY = "Private note: the seller accepts 1.2M, keep quiet"
PHONE, EMAIL = "+14155550199", "dana.secretive@example.com"


def test_the_formatters_mask_credentials_and_carry_the_context():
    record = logging.LogRecord(
        "homebase.test",
        logging.INFO,
        __file__,
        1,
        "got %s and whsec_AbCdEfGh123456 in hbo_at_Zz9-._x",
        ("hbk_live_abcdef0123456789",),
        None,
    )
    record.fields = {"delivery_id": "dlv_1"}
    logs.clear()
    logs.bind(request_id="req_1", workspace_id="wsp_1")
    try:
        line = json.loads(logs.JsonFormatter().format(record))
        text = logs.TextFormatter().format(record)
    finally:
        logs.clear()
    assert line["message"] == "got hbk_*** and whsec_*** in hbo_at_***"
    assert (
        line["level"],
        line["logger"],
        line["request_id"],
        line["workspace_id"],
        line["delivery_id"],
    ) == ("info", "homebase.test", "req_1", "wsp_1", "dlv_1")
    assert line["time"].endswith("Z")
    assert "abcdef0123456789" not in text and "request_id=req_1" in text
    assert "delivery_id=dlv_1" in text


def _lines(path: Path) -> list[dict]:
    """Every line of the file, each required to be one JSON object."""
    parsed = []
    for raw in path.read_text().splitlines():
        try:
            line = json.loads(raw)
        except json.JSONDecodeError:
            pytest.fail(f"not a JSON line in {path.name}: {raw!r}")
        assert isinstance(line, dict) and {"time", "level", "logger", "message"} <= set(line)
        parsed.append(line)
    return parsed


def _serve(env: dict, cwd: Path) -> Started:
    with (cwd / "stdout.log").open("wb") as stdout, (cwd / "stderr.log").open("wb") as stderr:
        return start_serve(cwd, env, log=cwd / "stderr.log", stdout=stdout, stderr=stderr)


async def _drive(base: str, key: str, member_email: str) -> dict:
    """Requests carrying everything that must never be logged."""
    seen: dict = {}
    async with httpx.AsyncClient(
        base_url=base, timeout=20, headers={"Authorization": f"token {key}"}
    ) as api:
        missing = await api.get("/v1/contacts/con_01nothere0000000000000000")
        seen["missing"] = (missing.status_code, missing.headers["x-request-id"])
        contact = await api.post(
            "/v1/contacts", json={"first_name": "Dana", "email": EMAIL, "phone": PHONE}
        )
        assert contact.status_code == 201, contact.text
        sent = await api.post(
            "/v1/messages", json={"channel": "EMAIL", "to": EMAIL, "subject": "Offer", "body": BODY}
        )
        assert sent.status_code in (201, 422), sent.text
        hook = await api.post(
            "/v1/webhooks",
            json={
                "url": f"http://127.0.0.1:{closed_port()}/hook",
                "event_types": ["contact.created"],
            },
        )
        assert hook.status_code == 201, hook.text
        seen["secret"] = hook.json()["secret"]
        await api.post("/v1/contacts", json={"first_name": "Eli"})  # a delivery to attempt
        bogus = await api.get(
            "/v1/contacts", headers={"Authorization": "token hbk_bogus0123456789abcdefghij"}
        )
        assert bogus.status_code == 401
    async with httpx.AsyncClient(base_url=base, timeout=20) as browser:
        await sign_in(browser, member_email, PASSWORD)
    return seen


def test_json_logs_of_a_real_server_are_json_lines_without_secrets(tmp_path):
    env = clean_env(
        HOMEBASE_LOG_FORMAT="json",
        HOMEBASE_SECRET_KEY="logs-test-secret-key",
        HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="true",
        HOMEBASE_WEBHOOK_BACKOFF_UNIT_SECONDS="30",
        HOMEBASE_WORKER_POLL_SECONDS="0.2",
    )
    migrated = subprocess.run(
        [str(HOMEBASE), "migrate"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert migrated.returncode == 0, migrated.stderr
    for raw in migrated.stderr.splitlines():
        json.loads(raw)
    workspace, key = workspace_with_key(
        env, tmp_path, "Logs", "contacts:read contacts:write messages:send webhooks:manage"
    )
    member_email = "agent.logs@example.com"
    admin_json(
        env,
        tmp_path,
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        member_email,
        "--name",
        "Agent",
        "--password",
        PASSWORD,
    )
    served = _serve(env, tmp_path)
    server = served.process
    stderr = tmp_path / "stderr.log"
    try:
        until(lambda: "Application startup complete" in stderr.read_text(), 60, what="startup")
        seen = asyncio.run(_drive(served.base_url, key["key"], member_email))
        # The delivery attempt, and the email's outcome: sent, or refused by a gate.
        until(
            lambda: (
                '"webhook delivery attempt"' in (text := stderr.read_text())
                and ('"message send"' in text or '"message refused by compliance gate"' in text)
            ),
            60,
            what="the worker's outcomes",
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=40)
    # uvicorn re-raises the SIGTERM it handled once it has shut down gracefully.
    assert server.returncode in (0, -signal.SIGTERM)
    lines = _lines(stderr) + _lines(tmp_path / "stdout.log")
    loggers = {line["logger"] for line in lines}
    assert {
        "uvicorn.error",
        "alembic.runtime.migration",
        "homebase.worker",
        "homebase.request",
        "homebase.webhooks",
    } <= loggers, loggers

    status, request_id = seen["missing"]
    [line] = [
        line
        for line in lines
        if line.get("request_id") == request_id and line["message"] == "request"
    ]
    assert line["workspace_id"] == workspace["id"]
    assert (line["credential_kind"], line["credential_id"]) == ("api_key", key["id"])
    assert (line["method"], line["route"], line["status"]) == ("GET", "/v1/contacts/{id}", status)
    assert line["client"] == "127.0.0.1" and line["duration_ms"] >= 0
    requests = [line for line in lines if line["message"] == "request"]
    assert len({line["request_id"] for line in requests}) == len(requests)  # once each
    [attempt] = [line for line in lines if line["message"] == "webhook delivery attempt"][:1]
    assert attempt["delivery_id"].startswith("whd_") and attempt["event_id"]
    assert attempt["workspace_id"] == workspace["id"] and attempt["outcome"] == "failed"

    text = stderr.read_text() + (tmp_path / "stdout.log").read_text()
    for secret in (
        key["key"],
        "hbk_bogus0123456789abcdefghij",
        PASSWORD,
        BODY,
        seen["secret"],
        EMAIL,
        PHONE,
        PHONE[2:],
        member_email,
    ):
        assert secret not in text, f"{secret!r} was logged"


# In-process, on SQLite and PostgreSQL: every record any logger writes, at DEBUG, taken at
# the moment it is emitted and formatted as HOMEBASE_LOG_FORMAT=json formats it.


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.setFormatter(logs.JsonFormatter())
        self.json: list[dict] = []
        self.raw: list[str] = []  # before the formatter's redaction backstop

    def emit(self, record: logging.LogRecord) -> None:
        self.json.append(json.loads(self.format(record)))
        own = {
            name: value
            for name, value in record.__dict__.items()
            if name not in ("msg", "args", "message")
        }
        self.raw.append(f"{record.getMessage()} {own!r} {logs.context()!r}")

    def named(self, message: str) -> list[dict]:
        return [line for line in self.json if line["message"] == message]


@pytest.fixture
def captured():
    root = logging.getLogger()
    handler, level = _Lines(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.fixture
async def sender_ready(runtime, tenant):
    freeze(runtime, 18)  # daytime in every US zone
    await add_sender(runtime, tenant)
    return tenant


async def _queue(tenant, to: str = NEW_YORK) -> str:
    response = await tenant.post("/v1/messages", json={"channel": "SMS", "to": to, "body": BODY})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_a_send_logs_one_line_with_its_ids(runtime, sender_ready, captured):
    await add_consent(runtime, sender_ready, NEW_YORK)
    message_id = await _queue(sender_ready)
    assert await send_due(runtime) == 1
    [line] = captured.named("message send")
    assert line["logger"] == "homebase.messaging.send" and line["level"] == "info"
    assert (
        line["message_id"],
        line["workspace_id"],
        line["channel"],
        line["provider"],
        line["outcome"],
    ) == (message_id, sender_ready.id, "SMS", "local", "sent")
    assert captured.named("message refused by compliance gate") == []


async def test_a_refusal_at_request_time_logs_one_line_with_its_gate(
    runtime, sender_ready, captured
):
    await add_consent(runtime, sender_ready, NEW_YORK)
    await set_status(runtime, sender_ready, "suspended")
    response = await sender_ready.post(
        "/v1/messages", json={"channel": "SMS", "to": NEW_YORK, "body": BODY}
    )
    assert response.status_code == 422, response.text
    message_id = response.json()["error"]["details"]["message_id"]
    [line] = captured.named("message refused by compliance gate")
    assert line["logger"] == "homebase.messaging" and line["level"] == "warning"
    assert (
        line["message_id"],
        line["workspace_id"],
        line["channel"],
        line["gate"],
        line["at"],
    ) == (message_id, sender_ready.id, "SMS", "account_suspended", "request")
    assert await send_due(runtime) == 0 and captured.named("message send") == []


async def test_a_refusal_at_send_time_logs_one_line_with_its_gate(runtime, sender_ready, captured):
    await add_consent(runtime, sender_ready, NEW_YORK)
    message_id = await _queue(sender_ready)
    await set_status(runtime, sender_ready, "suspended")  # after it was queued
    await send_due(runtime)
    [line] = captured.named("message refused by compliance gate")
    assert line["logger"] == "homebase.messaging.send" and line["level"] == "warning"
    assert (
        line["message_id"],
        line["workspace_id"],
        line["channel"],
        line["gate"],
        line["at"],
    ) == (message_id, sender_ready.id, "SMS", "account_suspended", "send")
    assert captured.named("message send") == []


async def test_each_automation_step_logs_one_line_with_its_ids(runtime, tenant, captured):
    frozen(runtime)
    await sendable(runtime, tenant)
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0], FULL_STEPS[2]])
    response = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": await contact(tenant)}
    )
    assert response.status_code == 202, response.text
    enrolment_id = response.json()["id"]
    assert await tick(runtime) == 2
    runs = await step_runs(runtime, enrolment_id)
    lines = captured.named("automation step")
    assert len(lines) == len(runs) == 2
    for line, run in zip(lines, runs, strict=True):
        assert line["logger"] == "homebase.automations"
        assert (
            line["enrolment_id"],
            line["automation_id"],
            line["workspace_id"],
            line["step_run_id"],
            line["step_index"],
            line["step_type"],
            line["outcome"],
        ) == (
            enrolment_id,
            automation_id,
            tenant.id,
            run["id"],
            run["step_index"],
            run["step_type"],
            run["outcome"],
        )
        assert line.get("message_id") == run["message_id"]
        assert line.get("task_id") == run["task_id"]
    assert lines[0]["message_id"].startswith("msg_") and lines[1]["task_id"]
    [finished] = captured.named("automation enrolment finished")
    assert (finished["enrolment_id"], finished["status"]) == (enrolment_id, "completed")


async def test_no_credential_or_personal_data_in_any_line_at_debug(
    runtime, app, client, sender_ready, captured
):
    """Every secret the service hands out or is handed, through every path that carries
    one (the API, the OAuth flow, the console), at DEBUG: none in any line, before or
    after the formatter's redaction."""
    tenant = sender_ready
    secrets = {
        "api key": tenant.key,
        "body": BODY,
        "phone": NEW_YORK,
        "phone digits": NEW_YORK[2:],
        "email": EMAIL,
        "password": CONSOLE_PASSWORD,
    }
    await add_consent(runtime, tenant, NEW_YORK)
    person = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "email": EMAIL, "phone": NEW_YORK}
    )
    assert person.status_code == 201, person.text
    assert (
        await tenant.post(
            "/v1/messages", json={"channel": "SMS", "contact_id": person.json()["id"], "body": BODY}
        )
    ).status_code == 201
    assert await send_due(runtime) == 1
    hook = await tenant.post(
        "/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "event_types": ["contact.created"]}
    )
    assert hook.status_code == 201, hook.text
    secrets["webhook secret"] = hook.json()["secret"]

    # The console: a failed and a good sign-in, a page, the consent screen, sign-out.
    member_email = "owner.logs@example.com"
    secrets["member email"] = member_email
    await make_member(runtime, tenant.id, email=member_email)
    async with console_browser(app) as browser:
        refused = await sign_in(browser, member_email, "Wrong-Password-42")
        assert refused.status_code != 303 and SESSION_COOKIE not in browser.cookies
        signed_in = await sign_in(browser, member_email)
        assert signed_in.status_code == 303, signed_in.text
        secrets["console session"] = browser.cookies[SESSION_COOKIE]
        assert (await browser.get("/console")).status_code == 200

        # OAuth: a client made by the admin function, the code flow, a refresh, a revoke.
        async with runtime.db.transaction() as connection:
            registered = await oauth_admin.create_client(
                connection, runtime.clock(), name="Logs CRM", redirect_uris=[REDIRECT]
            )
        oauth_app = App(registered["client_id"], registered["client_secret"], REDIRECT)
        secrets["client secret"] = oauth_app.client_secret
        verifier, challenge = pkce_pair()
        secrets["code verifier"] = verifier
        approved = await consent(
            browser, authorize_params(oauth_app, challenge, scope="contacts:read")
        )
        code = redirect_query(approved)["code"]
        secrets["authorization code"] = code
        issued = await exchange(
            client, oauth_app, code, verifier, client_secret=oauth_app.client_secret
        )
        assert issued.status_code == 200, issued.text
        secrets["access token"] = issued.json()["access_token"]
        secrets["refresh token"] = issued.json()["refresh_token"]
        assert (await exchange(client, oauth_app, code, verifier)).status_code == 400  # reuse
        assert (await ping(client, secrets["access token"])).status_code == 401  # revoked
        secrets["wrong client secret"] = oauth_app.client_secret[:-4] + "AAAA"
        bad_secret = await exchange(
            client, oauth_app, code, verifier, client_secret=secrets["wrong client secret"]
        )
        assert bad_secret.status_code in (400, 401)
        again = await exchange(client, oauth_app, *await _code(runtime, oauth_app, tenant))
        assert again.status_code == 200, again.text
        secrets["second access token"] = again.json()["access_token"]
        assert (await ping(client, secrets["second access token"])).status_code == 200
        rotated = await refresh(client, oauth_app, again.json()["refresh_token"])
        assert rotated.status_code == 200, rotated.text
        secrets["second refresh token"] = again.json()["refresh_token"]
        secrets["rotated access token"] = rotated.json()["access_token"]
        secrets["rotated refresh token"] = rotated.json()["refresh_token"]
        assert (
            await refresh(client, oauth_app, secrets["second refresh token"])
        ).status_code == 400  # a retired refresh token: the family is revoked
        assert (
            await client.post(
                "/oauth/revoke",
                data={
                    "token": secrets["rotated refresh token"],
                    "client_id": oauth_app.client_id,
                    "client_secret": oauth_app.client_secret,
                },
            )
        ).status_code == 200
        logout = await post_form(browser, "/console", "/console/logout", {})
        assert logout.status_code == 303, logout.text
    assert (
        await client.get(
            "/v1/contacts", headers={"Authorization": f"Bearer {secrets['rotated access token']}"}
        )
    ).status_code == 401

    routes = {line.get("route") for line in captured.named("request")}
    assert {
        "/v1/messages",
        "/oauth/token",
        "/oauth/revoke",
        "/oauth/authorize",
        "/console/login",
        "/console/logout",
    } <= routes, routes
    await webhook_jobs.fan_out(runtime)
    await webhook_jobs.deliver_due(runtime)  # nothing listens on port 9: a failed attempt
    assert captured.named("message send") and captured.named("webhook delivery attempt")
    formatted = "\n".join(json.dumps(line) for line in captured.json)
    for what, secret in secrets.items():
        assert secret not in formatted, f"the {what} was logged"
        leaked = [raw for raw in captured.raw if secret in raw]
        assert not leaked, f"the {what} was logged (before redaction): {leaked[0]!r}"


async def _code(runtime, oauth_app, tenant) -> tuple[str, str]:
    verifier, challenge = pkce_pair()
    return await grant_code(runtime, oauth_app, tenant.id, challenge), verifier
