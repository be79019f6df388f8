"""Logs (issue 16, item 1): with HOMEBASE_LOG_FORMAT=json every line a real `homebase`
process writes (uvicorn's, Alembic's, the worker's, ours) is one JSON object; each request
logs one line at its end with its id, workspace, credential (never the secret), method,
route template, status and duration; worker outcomes log their ids; and no key, token,
password, secret, message body or unmasked phone or email appears anywhere."""

import asyncio
import json
import logging
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from homebase.kit import logs
from tests.console_support import sign_in
from tests.test_ratelimit import HOMEBASE, admin_json, clean_env, free_port

PASSWORD = "Correct-Horse-Battery-9"
BODY = "Private note: the seller accepts 1.2M, keep quiet"
PHONE, EMAIL = "+14155550199", "dana.secretive@example.com"


def test_the_formatters_mask_credentials_and_carry_the_context():
    record = logging.LogRecord("homebase.test", logging.INFO, __file__, 1,
                               "got %s and whsec_AbCdEfGh123456 in hbo_at_Zz9-._x", (
                                   "hbk_live_abcdef0123456789",), None)
    record.fields = {"delivery_id": "dlv_1"}
    logs.clear()
    logs.bind(request_id="req_1", workspace_id="wsp_1")
    try:
        line = json.loads(logs.JsonFormatter().format(record))
        text = logs.TextFormatter().format(record)
    finally:
        logs.clear()
    assert line["message"] == "got hbk_*** and whsec_*** in hbo_at_***"
    assert (line["level"], line["logger"], line["request_id"], line["workspace_id"],
            line["delivery_id"]) == ("info", "homebase.test", "req_1", "wsp_1", "dlv_1")
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


def _wait(predicate, what: str, within: float = 40) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    pytest.fail(f"{what} not within {within} s")


def _serve(env: dict, cwd: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([str(HOMEBASE), "serve", "--port", str(port)], env=env, cwd=cwd,
                            stdout=(cwd / "stdout.log").open("wb"),
                            stderr=(cwd / "stderr.log").open("wb"))


async def _drive(base: str, key: str, member_email: str) -> dict:
    """Requests carrying everything that must never be logged."""
    seen: dict = {}
    async with httpx.AsyncClient(base_url=base, timeout=20,
                                 headers={"Authorization": f"token {key}"}) as api:
        missing = await api.get("/v1/contacts/con_01nothere0000000000000000")
        seen["missing"] = (missing.status_code, missing.headers["x-request-id"])
        contact = await api.post("/v1/contacts", json={
            "first_name": "Dana", "email": EMAIL, "phone": PHONE})
        assert contact.status_code == 201, contact.text
        sent = await api.post("/v1/messages", json={
            "channel": "EMAIL", "to": EMAIL, "subject": "Offer", "body": BODY})
        assert sent.status_code in (201, 422), sent.text
        hook = await api.post("/v1/webhooks", json={
            "url": f"http://127.0.0.1:{free_port()}/hook", "event_types": ["contact.created"]})
        assert hook.status_code == 201, hook.text
        seen["secret"] = hook.json()["secret"]
        await api.post("/v1/contacts", json={"first_name": "Eli"})  # a delivery to attempt
        bogus = await api.get("/v1/contacts", headers={
            "Authorization": "token hbk_bogus0123456789abcdefghij"})
        assert bogus.status_code == 401
    async with httpx.AsyncClient(base_url=base, timeout=20) as browser:
        await sign_in(browser, member_email, PASSWORD)
    return seen


def test_json_logs_of_a_real_server_are_json_lines_without_secrets(tmp_path):
    env = clean_env(HOMEBASE_LOG_FORMAT="json", HOMEBASE_SECRET_KEY="logs-test-secret-key",
                    HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="true",
                    HOMEBASE_WEBHOOK_BACKOFF_UNIT_SECONDS="30",
                    HOMEBASE_WORKER_POLL_SECONDS="0.2")
    migrated = subprocess.run([str(HOMEBASE), "migrate"], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
    assert migrated.returncode == 0, migrated.stderr
    for raw in migrated.stderr.splitlines():
        json.loads(raw)
    workspace = admin_json(env, tmp_path, "admin", "create-workspace", "--name", "Logs")
    key = admin_json(env, tmp_path, "admin", "create-api-key", "--workspace", workspace["id"],
                     "--scopes", "contacts:read contacts:write messages:send webhooks:manage")
    member_email = "agent.logs@example.com"
    admin_json(env, tmp_path, "admin", "create-user", "--workspace", workspace["id"],
               "--email", member_email, "--name", "Agent", "--password", PASSWORD)
    port = free_port()
    server = _serve(env, tmp_path, port)
    stderr = tmp_path / "stderr.log"
    try:
        _wait(lambda: "Application startup complete" in stderr.read_text(), "startup")
        seen = asyncio.run(_drive(f"http://127.0.0.1:{port}", key["key"], member_email))
        _wait(lambda: '"webhook delivery attempt"' in stderr.read_text()
              and '"message send"' in stderr.read_text()
              or '"message refused by compliance gate"' in stderr.read_text(),
              "the worker's outcomes")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=40)
    # uvicorn re-raises the SIGTERM it handled once it has shut down gracefully.
    assert server.returncode in (0, -signal.SIGTERM)
    lines = _lines(stderr) + _lines(tmp_path / "stdout.log")
    loggers = {line["logger"] for line in lines}
    assert {"uvicorn.error", "alembic.runtime.migration", "homebase.worker",
            "homebase.request", "homebase.webhooks"} <= loggers, loggers

    status, request_id = seen["missing"]
    [line] = [line for line in lines if line.get("request_id") == request_id
              and line["message"] == "request"]
    assert line["workspace_id"] == workspace["id"]
    assert (line["credential_kind"], line["credential_id"]) == ("api_key", key["id"])
    assert (line["method"], line["route"], line["status"]) == (
        "GET", "/v1/contacts/{id}", status)
    assert line["client"] == "127.0.0.1" and line["duration_ms"] >= 0
    requests = [line for line in lines if line["message"] == "request"]
    assert len({line["request_id"] for line in requests}) == len(requests)  # once each
    [attempt] = [line for line in lines if line["message"] == "webhook delivery attempt"][:1]
    assert attempt["delivery_id"].startswith("whd_") and attempt["event_id"]
    assert attempt["workspace_id"] == workspace["id"] and attempt["outcome"] == "failed"

    text = stderr.read_text() + (tmp_path / "stdout.log").read_text()
    for secret in (key["key"], "hbk_bogus0123456789abcdefghij", PASSWORD, BODY,
                   seen["secret"], EMAIL, PHONE, PHONE[2:], member_email):
        assert secret not in text, f"{secret!r} was logged"
