"""A live `homebase serve` on a free loopback port with a fresh SQLite file, for tests that
drive the service from outside over HTTP (schemathesis, the generated Python client), and
the `homebase admin` commands that set up its data (CONTRACT.md)."""

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.support import free_port


@dataclass(frozen=True)
class Served:
    base_url: str
    env: dict[str, str]  # the server's environment, for admin commands on its database
    folder: Path
    pid: int = 0  # the serving process (its /proc/<pid>/status, for memory tests)

    def admin(self, *args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "homebase", "admin", *args],
            env=self.env,
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


def wait_until_healthy(base_url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("serve did not become healthy")


@contextmanager
def serve(folder: Path, *, worker: bool, **settings: str) -> Iterator[Served]:
    """`homebase serve` in `folder` (its database and recordings live there), on loopback,
    with generous rate limits and no Redis; `settings` are extra HOMEBASE_* variables
    (`webhook_allow_private_urls="true"`). Stopped when the block ends."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "HOMEBASE_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/db.sqlite3",
        "HOMEBASE_ENV": "test",
        "HOMEBASE_SECRET_KEY": "served-test-secret",
        "HOMEBASE_PUBLIC_URL": base_url,
        "HOMEBASE_RECORDINGS_DIR": str(folder / "rec"),
        "HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN": "100000000",
        "HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN": "100000000",
        # Host names resolve to localhost only; the machine's resolver is never asked.
        "HOMEBASE_TESTING_LOOPBACK_RESOLVER": "true",
        **{f"HOMEBASE_{name.upper()}": value for name, value in settings.items()},
    }
    env.pop("HOMEBASE_REDIS_URL", None)
    env.pop("HOMEBASE_CALLS_PROVIDER_SECRET", None)  # the call callback's switched-off answer
    command = [
        sys.executable,
        "-m",
        "homebase",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    log = folder / "serve.log"  # a file, not a pipe nobody reads that could fill and block
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            command + ([] if worker else ["--no-worker"]),
            env=env,
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        wait_until_healthy(base_url, process, log)
        yield Served(base_url, env, folder, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
