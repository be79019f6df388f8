"""`homebase serve --workers 2`: both server processes count into prometheus-client's
multiprocess files, and every scrape, whichever process answers it, adds them all up."""

import json
import os
import re
import subprocess

import httpx
from prometheus_client.multiprocess import MultiProcessCollector

from homebase.metrics import multiprocess
from tests.metrics_support import parse, value
from tests.ratelimit.test_ratelimit import (
    admin_json,
    clean_env,
    workspace_with_key,
)
from tests.ratelimit.test_ratelimit_workers import _wait_for_workers
from tests.served_support import start_serve

SENT = 40


def _ping_counts_per_process(directory) -> list[float]:
    """The ping count in each process's own counter file (MultiProcessCollector.merge is
    the library's public reader)."""
    counts = []
    for path in sorted(directory.glob("counter_*.db")):
        for family in MultiProcessCollector.merge([str(path)], accumulate=True):
            counts += [
                sample.value
                for sample in family.samples
                if sample.name == "homebase_http_requests_total"
                and sample.labels.get("route") == "/v1/ping"
            ]
    return counts


def test_two_server_processes_add_up(tmp_path):
    directory = tmp_path / "prometheus"
    directory.mkdir()
    (directory / "counter_999999.db").write_bytes(b"")  # a previous run's: cleared at start
    env = clean_env(
        HOMEBASE_SECRET_KEY="metrics-workers-secret",
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="100000",
        PROMETHEUS_MULTIPROC_DIR=str(directory),
    )
    admin_json(env, tmp_path, "migrate")
    workspace, key = workspace_with_key(env, tmp_path, "Metrics", "contacts:read")
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, "--workers", "2", "--no-worker", log=log)
    server, base = started.process, started.base_url
    try:
        _wait_for_workers(server, base, log, count=2)
        headers = {"Authorization": f"token {key['key']}", "Connection": "close"}
        # A new connection each time, so both processes take requests.
        for _ in range(SENT):
            assert httpx.get(f"{base}/v1/ping", headers=headers, timeout=10).status_code == 200
        for _ in range(6):  # scrapes land on either process; each sees the whole count
            scraped = httpx.get(f"{base}/metrics", headers={"Connection": "close"}, timeout=10)
            assert scraped.status_code == 200, scraped.text
            samples = parse(scraped.text)
            assert (
                value(
                    samples,
                    "homebase_http_requests_total",
                    method="GET",
                    route="/v1/ping",
                    status=200,
                )
                == SENT
            ), log.read_text()[-2000:]
            assert (
                value(
                    samples,
                    "homebase_http_request_duration_seconds_count",
                    method="GET",
                    route="/v1/ping",
                    status=200,
                )
                == SENT
            )
            assert (
                value(
                    samples,
                    "homebase_rate_limit_decisions_total",
                    limit="api_key",
                    decision="allowed",
                )
                == SENT
            )
            # One SQLite connection per process (more if uvicorn replaced a stuck one).
            assert value(samples, "homebase_db_pool_connections_max") >= 2
        per_process = _ping_counts_per_process(directory)
        assert len([count for count in per_process if count]) == 2, per_process
        assert sum(per_process) == SENT
        assert not (directory / "counter_999999.db").exists()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    # Each process that shut down removed its live gauges (mark_process_dead).
    finished = re.findall(r"Finished server process \[(\d+)\]", log.read_text())
    assert len(finished) >= 2
    assert not [pid for pid in finished if list(directory.glob(f"gauge_live*_{pid}.db"))], (
        os.listdir(directory)
    )


def test_serve_makes_a_fresh_directory_for_several_processes(monkeypatch):
    monkeypatch.setenv(multiprocess.ENV, "")
    assert multiprocess.prepare(1) is None and not multiprocess.enabled()
    directory = multiprocess.prepare(2)
    try:
        assert directory.is_dir() and not list(directory.iterdir())
        assert os.environ[multiprocess.ENV] == str(directory) and multiprocess.enabled()
    finally:
        monkeypatch.setenv(multiprocess.ENV, "")
        multiprocess.remove(directory)
    assert not directory.exists()


def test_readyz_and_json_logs_under_two_server_processes(tmp_path):
    """Under `serve --workers 2`, /readyz answers 200 from whichever
    process takes the connection, and with HOMEBASE_LOG_FORMAT=json every line either
    process writes (uvicorn's, the request lines) is one JSON object."""
    env = clean_env(
        HOMEBASE_SECRET_KEY="metrics-workers-secret",
        HOMEBASE_LOG_FORMAT="json",
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="100000",
    )
    admin_json(env, tmp_path, "migrate")
    workspace, created = workspace_with_key(env, tmp_path, "Ready", "contacts:read")
    key = created["key"]
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, "--workers", "2", "--no-worker", log=log)
    server, base = started.process, started.base_url
    try:
        _wait_for_workers(server, base, log, count=2)
        for _ in range(20):  # a new connection each time: both processes answer some
            ready = httpx.get(f"{base}/readyz", headers={"Connection": "close"}, timeout=10)
            assert ready.status_code == 200, ready.text
            assert ready.json() == {
                "status": "ok",
                "checks": {"database": "ok", "redis": "not_configured"},
            }
            assert (
                httpx.get(
                    f"{base}/v1/ping",
                    timeout=10,
                    headers={"Authorization": f"token {key}", "Connection": "close"},
                ).status_code
                == 200
            )
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    lines = [json.loads(raw) for raw in log.read_text().splitlines() if raw.strip()]
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    started = {
        match
        for line in lines
        for match in re.findall(r"Started server process \[(\d+)\]", line["message"])
    }
    finished = {
        match
        for line in lines
        for match in re.findall(r"Finished server process \[(\d+)\]", line["message"])
    }
    assert len(started) == 2 and finished == started, lines[:10]
    requests = [line for line in lines if line["logger"] == "homebase.request"]
    assert [line["route"] for line in requests].count("/readyz") == 20
    assert [line["route"] for line in requests].count("/v1/ping") == 20
    assert {line["credential_kind"] for line in requests if line["route"] == "/v1/ping"} == {
        "api_key"
    }
