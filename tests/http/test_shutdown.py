"""SIGTERM drains within a bound: a real `homebase serve` whose
in-process worker is mid-delivery to a slow local receiver. When the delivery answers
within HOMEBASE_SHUTDOWN_TIMEOUT_SECONDS it is recorded (succeeded, lease released) before
the process exits; when the receiver never answers, the process still exits within the
bound instead of waiting out the webhook timeout: it is gone before the receiver answers.
Which came first is what is checked, never how long it took."""

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
    admin_json,
    clean_env,
    workspace_with_key,
)
from tests.served_support import start_serve
from tests.support import until


class _SlowReceiver(BaseHTTPRequestHandler):
    delay = 0.0
    arrived = threading.Event()
    answering = threading.Event()  # its delay is over: the answer goes out now

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        self.rfile.read(int(self.headers.get("content-length", 0)))
        type(self).arrived.set()
        time.sleep(self.delay)
        type(self).answering.set()
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def _run(tmp_path: Path, delay: float, shutdown_seconds: int) -> tuple[bool, int, Path]:
    """Serve, deliver one event to a receiver taking `delay` s, SIGTERM mid-delivery:
    (whether the receiver had answered when the process exited, exit code, the database
    file)."""
    handler = type(
        "Receiver",
        (_SlowReceiver,),
        {"delay": delay, "arrived": threading.Event(), "answering": threading.Event()},
    )
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
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, log=log)
    server = started.process
    try:
        _wait_for_startup(server, log)
        base, headers = started.base_url, {"Authorization": f"token {key}"}
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
        assert handler.arrived.wait(60), log.read_text()
        server.send_signal(signal.SIGTERM)
        # Long enough for the receiver to answer: a process that waited for it is caught.
        _wait_for_exit(server, delay + shutdown_seconds + 30)
        return (
            handler.answering.is_set(),
            server.returncode,
            tmp_path / "var" / "homebase.sqlite3",
        )
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        receiver.shutdown()


def _wait_for_startup(server: subprocess.Popen, log: Path) -> None:
    def started() -> bool:
        assert server.poll() is None, log.read_text()
        return "Application startup complete" in log.read_text()

    until(started, 60, what=lambda: f"startup: {log.read_text()[-2000:]}")


def _wait_for_exit(server: subprocess.Popen, within: float) -> None:
    """The process ends: how soon is not asserted (a loaded machine is slow); `within`
    only ends a test whose server never stops."""
    try:
        server.wait(timeout=within)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {within:.0f} s after SIGTERM")


def _delivery(database: Path) -> tuple:
    with sqlite3.connect(database) as connection:
        return connection.execute(
            "SELECT status, lease_expires_at, lease_attempt_id FROM webhook_deliveries"
        ).fetchone()


def test_sigterm_lets_the_delivery_in_flight_finish_and_release_its_lease(tmp_path):
    answered, code, database = _run(tmp_path, delay=2, shutdown_seconds=10)
    assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    assert answered  # the process was still there when the receiver answered
    assert _delivery(database) == ("succeeded", None, None)


def test_sigterm_exits_within_the_bound_when_a_delivery_hangs(tmp_path):
    # The receiver answers after 45 s, the webhook timeout is 60 s, the bound is 2 s.
    answered, code, _ = _run(tmp_path, delay=45, shutdown_seconds=2)
    assert code in (0, -signal.SIGTERM)
    assert not answered  # gone before the receiver answered: it did not wait for it


def _read_interim(connection: socket.socket) -> int:
    """The status of an interim (1xx) response, which has no body; nothing follows it
    until the client sends more."""
    data = b""
    while not data.endswith(b"\r\n\r\n"):
        chunk = connection.recv(1)
        assert chunk, f"connection closed before the interim response: {data!r}"
        data += chunk
    return int(data.split()[1])


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
    its headers and answered its `Expect: 100-continue`: the endpoint waits for the body):
    it is answered in full, 201 and the contact stored, while the listener is already
    closed to new connections; the process then exits."""
    shutdown_seconds = 30  # the bound: the request in flight ends well before it
    env = clean_env(
        HOMEBASE_SECRET_KEY="shutdown-test-secret",
        HOMEBASE_SHUTDOWN_TIMEOUT_SECONDS=str(shutdown_seconds),
    )
    admin_json(env, tmp_path, "migrate")
    workspace, created = workspace_with_key(env, tmp_path, "Drain", "contacts:read contacts:write")
    key = created["key"]
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, log=log)
    server, port = started.process, started.port
    try:
        _wait_for_startup(server, log)
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
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Expect: 100-continue\r\n\r\n".encode()
            )
            # The endpoint asked for the body: the request is in flight.
            assert _read_interim(connection) == 100
            server.send_signal(signal.SIGTERM)

            # The listener closes at once: a new connection is refused.
            def refused() -> bool:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                except ConnectionRefusedError:
                    return True
                return False

            until(refused, shutdown_seconds, what="new connections refused after SIGTERM")
            assert server.poll() is None  # still draining the request in flight
            connection.sendall(body)
            status, headers, answer = _read_response(connection)
        assert status == 201, answer
        created = json.loads(answer)
        assert (created["first_name"], created["last_name"]) == ("Inflight", "Drained")
        assert headers.get("connection") == "close"  # no further request on it
        _wait_for_exit(server, shutdown_seconds + 30)
        assert server.returncode in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    with sqlite3.connect(tmp_path / "var" / "homebase.sqlite3") as database:
        assert database.execute("SELECT first_name FROM contacts").fetchall() == [("Inflight",)]
