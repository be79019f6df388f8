"""Tracing: opt-in OpenTelemetry through the standard OTEL_* variables.

A real `homebase serve` exports to a real OTLP/HTTP collector on loopback
(tests/otlp_support.py): spans for its requests (with the request id the response's
X-Request-Id carries), its SQL (every statement goes through SQLAlchemy's engine),
Redis, a webhook's outgoing POST and the worker job that made it; none of them carries
a secret, a body value or a query string. Without OTEL_* variables nothing is set up:
the SDK is not even imported.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from homebase import tracing
from homebase.tracing.export import RedactingExporter
from tests.otlp_support import Collector, Span
from tests.ratelimit.test_ratelimit import (  # noqa: F401  (shared_database is a fixture)
    HOMEBASE,
    REDIS_URL,
    _forget_key,
    admin_json,
    shared_database,
    workspace_with_key,
)
from tests.served_support import Started, start_serve, wait_until_healthy

EMAIL, PHONE = "dana.traced@example.com", "+14155550123"
HOOK_PATH = "/hooks/tok_Sup3rSecretPathToken"


def _env(**values: str) -> dict[str, str]:
    """The test's environment without any HOMEBASE_* or OTEL_* it may have inherited."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("HOMEBASE_", "OTEL_"))
    }
    env.update(values)
    return env


class _Hooks:
    """A webhook receiver on loopback that answers 204 and counts what arrived."""

    def __init__(self) -> None:
        self.received: list[str] = []
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                hooks.received.append(self.path)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{HOOK_PATH}?sig=abc123"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _serve(env: dict, cwd: Path, *extra: str) -> Started:
    with (cwd / "stdout.log").open("ab") as stdout, (cwd / "stderr.log").open("ab") as stderr:
        return start_serve(cwd, env, *extra, log=cwd / "stderr.log", stdout=stdout, stderr=stderr)


def _wait_healthy(server: Started, cwd: Path) -> None:
    wait_until_healthy(server.base_url, server.process, cwd / "stderr.log")


def _stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=40)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def _server_span(spans: list[Span], request_id: str) -> Span:
    [span] = [
        span
        for span in spans
        if span.kind == "SERVER" and span.attributes.get("homebase.request_id") == request_id
    ]
    return span


def _in_trace(spans: list[Span], root: Span) -> list[Span]:
    return [span for span in spans if span.trace_id == root.trace_id and span is not root]


def test_a_served_instance_traces_requests_sql_webhooks_and_jobs(tmp_path):
    collector, hooks = Collector().start(), _Hooks()
    env = _env(
        OTEL_EXPORTER_OTLP_ENDPOINT=collector.endpoint,  # on, by the endpoint alone
        OTEL_BSP_SCHEDULE_DELAY="100",
        HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
        HOMEBASE_SECRET_KEY="tracing-test-secret-key",
        HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="true",
        HOMEBASE_WORKER_POLL_SECONDS="0.2",
    )
    admin_json(env, tmp_path, "migrate")
    workspace, key = workspace_with_key(
        env, tmp_path, "Traced", "contacts:read contacts:write webhooks:manage"
    )
    served = _serve(env, tmp_path)
    server = served.process
    try:
        _wait_healthy(served, tmp_path)
        with httpx.Client(
            base_url=served.base_url,
            timeout=20,
            headers={"Authorization": f"token {key['key']}"},
        ) as api:
            hook = api.post(
                "/v1/webhooks", json={"url": hooks.url, "event_types": ["contact.created"]}
            )
            assert hook.status_code == 201, hook.text
            created = api.post(
                "/v1/contacts", json={"first_name": "Dana", "email": EMAIL, "phone": PHONE}
            )
            assert created.status_code == 201, created.text
            found = api.get("/v1/contacts", params={"q": EMAIL})
            assert found.status_code == 200 and found.json()["data"], found.text
        create_id, search_id = created.headers["x-request-id"], found.headers["x-request-id"]
        collector.wait_for(
            lambda spans: (
                any(span.name == "job webhooks.deliver" for span in spans)
                and any(span.attributes.get("homebase.request_id") == search_id for span in spans)
            ),
            "the delivery job and the requests",
        )
    finally:
        _stop(server)
        hooks.stop()
        collector.stop()
    spans = collector.snapshot()
    assert hooks.received == [HOOK_PATH + "?sig=abc123"]
    assert {span.resource.get("service.name") for span in spans} == {"homebase"}

    # The request: its server span carries the id the response header did, the workspace
    # and the route template; its SQL spans are its children.
    create = _server_span(spans, create_id)
    assert create.name == "POST /v1/contacts"
    assert create.attributes["homebase.workspace_id"] == workspace["id"]
    assert create.attributes["homebase.credential_kind"] == "api_key"
    assert create.attributes["http.route"] == "/v1/contacts"
    assert create.attributes["http.status_code"] == 201
    statements = [
        span for span in _in_trace(spans, create) if span.attributes.get("db.system") == "sqlite"
    ]
    inserts = [
        span.attributes["db.statement"]
        for span in statements
        if span.attributes.get("db.statement", "").startswith("INSERT INTO contacts")
    ]
    assert len(inserts) == 1 and "?" in inserts[0], [s.name for s in statements]
    assert {span.scope for span in statements} == {"opentelemetry.instrumentation.sqlalchemy"}

    # The search: its query string (an email) is not exported; the route is.
    search = _server_span(spans, search_id)
    assert search.attributes["http.url"].endswith("/v1/contacts")
    assert "url.query" not in search.attributes

    # The worker: the delivery job's run is a trace of its own, with the outgoing POST
    # (cut to its origin) inside it.
    [deliver] = [span for span in spans if span.name == "job webhooks.deliver"]
    assert deliver.parent_id == "" and deliver.attributes["homebase.job.items"] == 1
    [post] = [
        span
        for span in _in_trace(spans, deliver)
        if span.kind == "CLIENT" and span.scope == "opentelemetry.instrumentation.httpx"
    ]
    assert post.attributes["http.url"] == f"http://127.0.0.1:{hooks.server.server_address[1]}"
    assert post.attributes["http.status_code"] == 204
    assert any(span.name == "job webhooks.fan_out" for span in spans)

    # Idle runs (the worker polled every 0.2 s) are not exported, nor their statements:
    # every job span did something, and no exported span lost its parent.
    jobs = [span for span in spans if "homebase.job" in span.attributes]
    assert all(span.attributes["homebase.job.items"] > 0 for span in jobs), [
        (span.name, span.attributes) for span in jobs
    ]
    ids = {span.span_id for span in spans}
    assert all(span.parent_id in ids for span in spans if span.parent_id)
    assert not any(span.name.startswith(("GET /healthz", "GET /readyz")) for span in spans)

    text = "\n".join(value for span in spans for value in span.texts())
    for secret in (
        key["key"],
        hook.json()["secret"],
        EMAIL,
        PHONE,
        PHONE[2:],
        "Dana",
        "tok_Sup3rSecretPathToken",
        "sig=abc123",
        EMAIL.replace("@", "%40"),
    ):
        assert secret not in text, f"{secret!r} was exported"


def test_postgresql_and_redis_are_traced_under_the_request(request, tmp_path):
    database = request.getfixturevalue("shared_database")  # its own PostgreSQL database
    collector = Collector().start()
    env = _env(
        OTEL_TRACES_EXPORTER="otlp",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=f"{collector.endpoint}/v1/traces",
        OTEL_BSP_SCHEDULE_DELAY="100",
        OTEL_SERVICE_NAME="homebase-api",
        HOMEBASE_DATABASE_URL=database,
        HOMEBASE_REDIS_URL=REDIS_URL,
        HOMEBASE_SECRET_KEY="tracing-test-secret-key",
    )
    admin_json(env, tmp_path, "migrate")
    workspace, key = workspace_with_key(env, tmp_path, "Traced PG", "contacts:read")
    served = _serve(env, tmp_path, "--no-worker")
    server = served.process
    try:
        _wait_healthy(served, tmp_path)
        answer = httpx.get(
            f"{served.base_url}/v1/contacts",
            timeout=20,
            headers={"Authorization": f"token {key['key']}"},
        )
        assert answer.status_code == 200, answer.text
        request_id = answer.headers["x-request-id"]
        collector.wait_for(
            lambda spans: any(
                span.attributes.get("homebase.request_id") == request_id for span in spans
            ),
            "the request's span",
        )
    finally:
        _stop(server)
        collector.stop()
        asyncio.run(_forget_key(key["id"]))
    spans = collector.snapshot()
    assert {span.resource.get("service.name") for span in spans} == {"homebase-api"}
    request = _server_span(spans, request_id)
    assert request.name == "GET /v1/contacts"
    assert request.attributes["homebase.workspace_id"] == workspace["id"]
    children = _in_trace(spans, request)
    sql = [
        span
        for span in children
        if span.attributes.get("db.system") == "postgresql" and "db.statement" in span.attributes
    ]  # (the pool's "connect" spans have none)
    assert any("contacts" in span.attributes["db.statement"] for span in sql), [
        span.name for span in children
    ]
    redis = [span for span in children if span.attributes.get("db.system") == "redis"]
    assert redis, [span.name for span in children]
    # Commands without their arguments (the limiter's key names the API key's id).
    assert all(set(span.attributes["db.statement"].split()[1:]) <= {"?"} for span in redis)
    assert key["id"] not in "\n".join(value for span in spans for value in span.texts())


def test_without_otel_variables_nothing_is_set_up(tmp_path):
    """The app `serve` runs, built as it builds it: no tracer provider installed (the
    API's no-op proxy stays), the SDK's tracing, the exporters and the instrumentations
    never imported. (redis-py imports the SDK's metrics module for its own opt-in
    observability when the SDK is installed; that sets nothing up either.)"""
    probe = (
        "import json, sys\n"
        "import homebase.root.asgi\n"
        "from opentelemetry import trace\n"
        "from homebase import tracing\n"
        "print(json.dumps({'active': tracing.ACTIVE,\n"
        "  'provider': type(trace.get_tracer_provider()).__name__,\n"
        "  'loaded': sorted(m for m in sys.modules if m.startswith(\n"
        "      ('opentelemetry.sdk.trace', 'opentelemetry.instrumentation',\n"
        "       'homebase.tracing.setup', 'homebase.tracing.export',\n"
        "       'opentelemetry.exporter')))}))\n"
    )
    env = _env(
        HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
        HOMEBASE_SECRET_KEY="tracing-test-secret-key",
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "active": False,
        "provider": "ProxyTracerProvider",
        "loaded": [],
    }


@pytest.mark.parametrize(
    ("environ", "exporters"),
    [
        ({}, ()),
        ({"OTEL_SERVICE_NAME": "x", "OTEL_RESOURCE_ATTRIBUTES": "a=b"}, ()),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, ("otlp",)),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, ("otlp",)),
        ({"OTEL_TRACES_EXPORTER": "otlp"}, ("otlp",)),
        ({"OTEL_TRACES_EXPORTER": "console"}, ("console",)),
        ({"OTEL_TRACES_EXPORTER": "otlp, console"}, ("otlp", "console")),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x:4318"}, ()),
        ({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, ()),
    ],
)
def test_which_variables_switch_tracing_on(environ, exporters):
    assert tracing.exporters_from(environ) == exporters


@pytest.mark.parametrize(
    "environ",
    [
        {"OTEL_TRACES_EXPORTER": "zipkin"},
        {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
    ],
)
def test_an_exporter_not_shipped_is_refused_in_one_line(environ, tmp_path):
    with pytest.raises(tracing.TracingConfigError):
        tracing.exporters_from(environ)
    env = _env(**environ, HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3")
    done = subprocess.run(
        [str(HOMEBASE), "serve", "--port", "0"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "OTEL_" in done.stderr, done.stderr


def test_exported_spans_lose_values_urls_and_exception_messages():
    """The redaction every exporter sits behind (tracing/export.py), on spans the SDK made
    (a private provider: the process's global one is left alone)."""
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(RedactingExporter(memory)))
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span(
        "POST",
        kind=SpanKind.CLIENT,
        attributes={
            "http.url": "https://user:pw@hooks.example.com:8443/t/tok_123?sig=9",
            "url.full": "https://hooks.example.com/t/tok_123",
            "url.query": "sig=9",
            "http.method": "POST",
        },
    ):
        pass
    with tracer.start_as_current_span(
        "GET /v1/contacts",
        kind=SpanKind.SERVER,
        attributes={
            "http.url": "http://127.0.0.1:8000/v1/contacts?q=dana@example.com",
            "url.path": "/v1/contacts",
            "url.query": "q=dana@example.com",
            "note": "got hbk_live_abcdef0123456789",
        },
    ) as span:
        try:
            raise ValueError("Key (email)=(dana@example.com) already exists")
        except ValueError as error:
            span.record_exception(error)
            span.set_status(StatusCode.ERROR, str(error))
    client, server = memory.get_finished_spans()
    assert client.attributes == {
        "http.url": "https://hooks.example.com:8443",
        "url.full": "https://hooks.example.com",
        "http.method": "POST",
    }
    assert server.attributes == {
        "http.url": "http://127.0.0.1:8000/v1/contacts",
        "url.path": "/v1/contacts",
        "note": "got hbk_***",
    }
    assert server.status.status_code is StatusCode.ERROR and not server.status.description
    [event] = server.events
    assert dict(event.attributes) == {"exception.type": "ValueError", "exception.escaped": "False"}


def test_an_ai_reply_s_model_call_is_a_span_without_the_text(tmp_path):
    """The AI responder's model call (docs/ai.md) is its own span, inside the ai.respond
    job's trace, naming the provider and the outcome; no text of the lead's is exported."""
    from urllib.parse import urlencode

    from homebase.providers.signing import signature

    collector = Collector().start()
    token, lead = "tracing-twilio-token", "+14155550188"
    env = _env(
        OTEL_EXPORTER_OTLP_ENDPOINT=collector.endpoint,
        OTEL_BSP_SCHEDULE_DELAY="100",
        HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
        HOMEBASE_SECRET_KEY="tracing-test-secret-key",
        HOMEBASE_WORKER_POLL_SECONDS="0.2",
        HOMEBASE_TWILIO_AUTH_TOKEN=token,
        # No HOMEBASE_PUBLIC_URL: serve's own address, which the signature below names.
    )
    admin_json(env, tmp_path, "migrate")
    workspace, _ = workspace_with_key(env, tmp_path, "Traced AI", "contacts:read")
    admin_json(
        env, tmp_path, "admin", "add-sender-number", "--workspace", workspace["id"],
        "--number", "+14155550100", "--channel", "sms", "--a2p-status", "approved",
    )  # fmt: skip
    fixtures = tmp_path / "ai.json"
    fixtures.write_text(
        json.dumps(
            {
                "personas": [
                    {
                        "name": "Ava",
                        "tone": "brief",
                        "channels": ["SMS"],
                        "responder": True,
                        "disclosure": "Automated assistant for the team.",
                    }
                ],
                "leads": [
                    {
                        "phone": lead,
                        "source": "Zillow",
                        "first_name": "Dana",
                        "skip_routing": True,
                        "consent": {"captured_at": "2026-11-20T17:03:58Z"},
                    }
                ],
            }
        )
    )
    admin_json(
        env, tmp_path, "admin", "load-fixtures", "--workspace", workspace["id"], str(fixtures)
    )
    served = _serve(env, tmp_path)
    server, base = served.process, served.base_url
    secret_text = "hello, my budget is 1.2M and my door code is 4471"
    try:
        _wait_healthy(served, tmp_path)
        form = {"From": lead, "To": "+14155550100", "Body": secret_text, "MessageSid": "SM1"}
        path = "/providers/sms/inbound"
        answer = httpx.post(
            base + path,
            content=urlencode(form),
            headers={
                "content-type": "application/x-www-form-urlencoded",
                "x-twilio-signature": signature(token, base + path, form.items()),
            },
            timeout=20,
        )
        assert answer.status_code == 200, answer.text
        collector.wait_for(
            lambda spans: any(span.name == "ai.model" for span in spans), "the model call"
        )
    finally:
        _stop(server)
        collector.stop()
    spans = collector.snapshot()
    [model] = [span for span in spans if span.name == "ai.model"]
    assert model.attributes["homebase.ai.provider"] == "local"
    assert model.attributes["homebase.ai.outcome"] == "answered"
    [job] = [span for span in spans if span.span_id == model.parent_id]
    assert job.name == "job ai.respond"
    text = "\n".join(value for span in spans for value in span.texts())
    for secret in (secret_text, "door code", lead, lead[2:], "Dana"):
        assert secret not in text, f"{secret!r} was exported"
