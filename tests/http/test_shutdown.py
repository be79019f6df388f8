"""SIGTERM drains within a bound: a real `homebase serve` whose
in-process worker is mid-delivery to a slow local receiver. When the delivery answers
within HOMEBASE_SHUTDOWN_TIMEOUT_SECONDS it is recorded (succeeded, lease released) before
the process exits; when the receiver never answers, the process still exits within the
bound instead of waiting out the webhook timeout."""

import json
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.ratelimit.test_ratelimit import (
    HOMEBASE,
    admin_json,
    clean_env,
    free_port,
    workspace_with_key,
)


class _SlowReceiver(BaseHTTPRequestHandler):
    delay = 0.0
    arrived = threading.Event()

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        self.rfile.read(int(self.headers.get("content-length", 0)))
        type(self).arrived.set()
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def _run(tmp_path: Path, delay: float, shutdown_seconds: int) -> tuple[float, int, Path]:
    """Serve, deliver one event to a receiver taking `delay` s, SIGTERM mid-delivery:
    (seconds from SIGTERM to exit, exit code, the database file)."""
    handler = type("Receiver", (_SlowReceiver,), {"delay": delay, "arrived": threading.Event()})
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    receiver.daemon_threads = True
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    env = clean_env(
        HOMEBASE_SECRET_KEY="shutdown-test-secret",
        HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="true",
        HOMEBASE_WEBHOOK_TIMEOUT_SECONDS="60",
        HOMEBASE_WEBHOOK_LEASE_SECONDS="120",
        HOMEBASE_WORKER_POLL_SECONDS="0.2",
        HOMEBASE_SHUTDOWN_TIMEOUT_SECONDS=str(shutdown_seconds),
    )
    admin_json(env, tmp_path, "migrate")
    workspace, created = workspace_with_key(
        env, tmp_path, "Drain", "contacts:write webhooks:manage"
    )
    key = created["key"]
    port = free_port()
    log = tmp_path / "server.log"
    server = subprocess.Popen(
        [str(HOMEBASE), "serve", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while "Application startup complete" not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        base, headers = f"http://127.0.0.1:{port}", {"Authorization": f"token {key}"}
        hook = httpx.post(
            f"{base}/v1/webhooks",
            headers=headers,
            timeout=20,
            json={
                "url": f"http://127.0.0.1:{receiver.server_port}/hook",
                "event_types": ["contact.created"],
            },
        )
        assert hook.status_code == 201, hook.text
        assert (
            httpx.post(
                f"{base}/v1/contacts", headers=headers, timeout=20, json={"first_name": "Ada"}
            ).status_code
            == 201
        )
        assert handler.arrived.wait(30), log.read_text()
        signalled = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=shutdown_seconds * 2 + 15)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {time.monotonic() - signalled:.0f} s after SIGTERM")
        return (
            time.monotonic() - signalled,
            server.returncode,
            tmp_path / "var" / "homebase.sqlite3",
        )
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        receiver.shutdown()


def _delivery(database: Path) -> tuple:
    with sqlite3.connect(database) as connection:
        return connection.execute(
            "SELECT status, lease_expires_at, lease_attempt_id FROM webhook_deliveries"
        ).fetchone()


def test_sigterm_lets_the_delivery_in_flight_finish_and_release_its_lease(tmp_path):
    elapsed, code, database = _run(tmp_path, delay=2, shutdown_seconds=10)
    assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    assert elapsed < 15
    assert _delivery(database) == ("succeeded", None, None)


def test_sigterm_exits_within_the_bound_when_a_delivery_hangs(tmp_path):
    elapsed, code, _ = _run(tmp_path, delay=45, shutdown_seconds=2)
    assert code in (0, -signal.SIGTERM)
    assert elapsed < 15, f"exited {elapsed:.0f} s after SIGTERM"


def _read_response(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length, read whole."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"connection closed before the response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in header_lines)
    }
    while len(body) < int(headers["content-length"]):
        chunk = connection.recv(65536)
        assert chunk, "connection closed mid-body"
        body += chunk
    return int(status_line.split()[1]), headers, body


def test_sigterm_lets_the_request_in_flight_finish_and_refuses_new_connections(tmp_path):
    """A request whose body is still arriving when SIGTERM lands is in flight (uvicorn has
    its headers; the endpoint waits for the body): it is answered in full, 201 and the
    contact stored, while the listener is already closed to new connections; the process
    then exits within the bound."""
    shutdown_seconds = 5
    env = clean_env(
        HOMEBASE_SECRET_KEY="shutdown-test-secret",
        HOMEBASE_SHUTDOWN_TIMEOUT_SECONDS=str(shutdown_seconds),
    )
    admin_json(env, tmp_path, "migrate")
    workspace, created = workspace_with_key(env, tmp_path, "Drain", "contacts:read contacts:write")
    key = created["key"]
    port = free_port()
    log = tmp_path / "server.log"
    server = subprocess.Popen(
        [str(HOMEBASE), "serve", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while "Application startup complete" not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        connection = socket.create_connection(("127.0.0.1", port), timeout=30)
        with connection:
            # A first request on the connection: the server has accepted it.
            connection.sendall(
                f"GET /v1/ping HTTP/1.1\r\nHost: test\r\nAuthorization: token "
                f"{key}\r\n\r\n".encode()
            )
            assert _read_response(connection)[0] == 200
            body = json.dumps({"first_name": "Inflight", "last_name": "Drained"}).encode()
            connection.sendall(
                f"POST /v1/contacts HTTP/1.1\r\nHost: test\r\nAuthorization: token {key}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                + body[:10]
            )
            time.sleep(1)  # the headers are parsed: the request is in flight
            signalled = time.monotonic()
            server.send_signal(signal.SIGTERM)
            # The listener closes at once: a new connection is refused.
            refused = False
            while not refused and time.monotonic() - signalled < shutdown_seconds:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                    time.sleep(0.05)
                except ConnectionRefusedError:
                    refused = True
            assert refused, "new connections were still accepted after SIGTERM"
            assert server.poll() is None  # still draining the request in flight
            connection.sendall(body[10:])
            status, headers, answer = _read_response(connection)
        assert status == 201, answer
        created = json.loads(answer)
        assert (created["first_name"], created["last_name"]) == ("Inflight", "Drained")
        assert headers.get("connection") == "close"  # no further request on it
        server.wait(timeout=shutdown_seconds * 2 + 15)
        assert time.monotonic() - signalled < shutdown_seconds + 5
        assert server.returncode in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    with sqlite3.connect(tmp_path / "var" / "homebase.sqlite3") as database:
        assert database.execute("SELECT first_name FROM contacts").fetchall() == [("Inflight",)]
