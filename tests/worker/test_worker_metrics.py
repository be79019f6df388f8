"""A standalone `homebase worker` (scripts/cluster's topology runs two) answers GET /metrics
on HOMEBASE_WORKER_METRICS_PORT, with HOMEBASE_METRICS_TOKEN honoured as on the API, so
what only the worker counts (webhook attempts, sends, job durations) can be scraped.
Off unless the port is set."""

import signal
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.metrics_support import parse, value
from tests.ratelimit.test_ratelimit import (
    HOMEBASE,
    admin_json,
    clean_env,
    workspace_with_key,
)
from tests.ratelimit.test_ratelimit_workers import _wait_for_workers
from tests.served_support import start_serve, tail
from tests.support import reserved_port, until

TOKEN = "worker-metrics-token"


class _Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def _scrape(url: str, **headers: str) -> httpx.Response:
    return httpx.get(url, headers={"Connection": "close", **headers}, timeout=10)


def _wait_for(condition, what: str, log, seconds: float = 60):
    return until(condition, seconds, every=0.2, what=lambda: f"{what}:\n{tail(log)}")


def _start_worker(env: dict, cwd, log) -> tuple[subprocess.Popen, int]:
    """`homebase worker` with its GET /metrics on a reserved port (the setting takes no
    0), once it listens there."""
    port = reserved_port()
    with log.open("wb") as sink:
        worker = subprocess.Popen(
            [str(HOMEBASE), "worker"],
            env={**env, "HOMEBASE_WORKER_METRICS_PORT": str(port)},
            cwd=cwd,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    _wait_for(
        lambda: "worker metrics at" in log.read_text() or worker.poll() is not None,
        "the worker's metrics did not start",
        log,
    )
    assert worker.poll() is None, log.read_text()
    return worker, port


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def test_standalone_worker_serves_its_metrics_behind_the_token(tmp_path):
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    receiver.daemon_threads = True
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    env = clean_env(
        HOMEBASE_SECRET_KEY="worker-metrics-secret",
        HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="true",
        HOMEBASE_WORKER_POLL_SECONDS="0.2",
        HOMEBASE_METRICS_TOKEN=TOKEN,
    )
    admin_json(env, tmp_path, "migrate")
    workspace, created = workspace_with_key(
        env, tmp_path, "Scraped", "contacts:write webhooks:manage"
    )
    key = created["key"]
    worker_log, api_log = tmp_path / "worker.log", tmp_path / "api.log"
    worker, metrics_port = _start_worker(env, tmp_path, worker_log)
    # The API alone, so only the worker delivers.
    served = start_serve(tmp_path, env, "--no-worker", log=api_log)
    api, api_port = served.process, served.port
    url = f"http://127.0.0.1:{metrics_port}/metrics"
    try:
        refused = _scrape(url)
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"]["code"] == "unauthenticated"
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert _scrape(url, Authorization="Bearer not-the-token").status_code == 401
        assert (
            _scrape(
                f"http://127.0.0.1:{metrics_port}/v1/ping", Authorization=f"Bearer {TOKEN}"
            ).status_code
            == 404
        )

        def job_ran():
            scraped = _scrape(url, Authorization=f"Bearer {TOKEN}")
            assert scraped.status_code == 200, scraped.text
            assert scraped.headers["content-type"].startswith("text/plain; version=0.0.4")
            samples = parse(scraped.text)
            return (
                samples
                if value(
                    samples,
                    "homebase_worker_job_duration_seconds_count",
                    job="webhooks.deliver",
                    outcome="ok",
                )
                > 0
                else None
            )

        samples = _wait_for(job_ran, "no worker job in the scrape", worker_log)
        assert value(samples, "homebase_worker_job_failures_total", job="webhooks.deliver") == 0
        # The queue gauges come along, read through the worker's own database connection.
        assert ("homebase_webhook_due_deliveries", ()) in samples

        # Work made through the API is delivered by the worker and counted there.
        _wait_for_workers(api, f"http://127.0.0.1:{api_port}", api_log, count=1)
        base, headers = f"http://127.0.0.1:{api_port}", {"Authorization": f"token {key}"}
        assert (
            httpx.post(
                f"{base}/v1/webhooks",
                headers=headers,
                timeout=20,
                json={
                    "url": f"http://127.0.0.1:{receiver.server_port}/hook",
                    "event_types": ["contact.created"],
                },
            ).status_code
            == 201
        )
        assert (
            httpx.post(
                f"{base}/v1/contacts", headers=headers, timeout=20, json={"first_name": "Ada"}
            ).status_code
            == 201
        )

        def delivered():
            samples = parse(_scrape(url, Authorization=f"Bearer {TOKEN}").text)
            return (
                samples
                if value(samples, "homebase_webhook_attempts_total", outcome="succeeded") == 1
                else None
            )

        samples = _wait_for(delivered, "the delivery was not counted", worker_log)
        assert value(samples, "homebase_worker_job_items_total", job="webhooks.deliver") == 1

        # SIGTERM: the worker and its listener stop (within 30 s: a stuck test's deadline).
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) in (0, -signal.SIGTERM), worker_log.read_text()
        assert "worker stopped" in worker_log.read_text()
        with pytest.raises(httpx.ConnectError):
            _scrape(url, Authorization=f"Bearer {TOKEN}")
    finally:
        _stop(worker)
        api.terminate()
        try:
            api.wait(timeout=20)
        except subprocess.TimeoutExpired:
            _stop(api)
        receiver.shutdown()


def test_the_worker_refuses_to_start_when_its_metrics_port_is_taken(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        env = clean_env(
            HOMEBASE_SECRET_KEY="worker-metrics-secret", HOMEBASE_WORKER_METRICS_PORT=str(port)
        )
        admin_json(env, tmp_path, "migrate")
        done = subprocess.run(
            [str(HOMEBASE), "worker"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert f"HOMEBASE_WORKER_METRICS_HOST/PORT 127.0.0.1:{port}" in done.stderr, done.stderr
