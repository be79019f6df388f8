"""`homebase serve` started by the tests: on port 0, reporting the port it bound through
`--port-file` (`start_serve`), so no test picks a port another process may take first; and
a live server with a fresh SQLite file (`serve`) for tests that drive the service from
outside over HTTP (schemathesis, the generated clients, the browsers), with the `homebase
admin` commands that set up its data (CONTRACT.md)."""

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.support import until

HOMEBASE = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "homebase"


@dataclass(frozen=True)
class Started:
    process: subprocess.Popen
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_serve(
    cwd: Path,
    env: Mapping[str, str],
    *args: str,
    log: Path | None = None,
    program: Sequence[str] = (str(HOMEBASE),),
    **popen: Any,
) -> Started:
    """`homebase serve --port 0 ARGS` in `cwd`, and the port it bound, once it listens (it
    may still be migrating: wait for /healthz). Its output goes to `log` (both streams)
    unless `popen` redirects them; `log` is what a failure quotes. The port file lives in
    `cwd`, under a name of its own."""
    port_file = cwd / f"serve-{uuid.uuid4().hex[:8]}.port"
    command = [*program, "serve", "--port", "0", "--port-file", str(port_file), *args]
    if log is not None and "stdout" not in popen:
        with log.open("ab") as sink:  # the child keeps its own descriptor
            process = subprocess.Popen(
                command, env=env, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, **popen
            )
    else:
        process = subprocess.Popen(command, env=env, cwd=cwd, **popen)

    def bound() -> int | None:
        if port_file.exists():
            return int(port_file.read_text())
        if process.poll() is not None:
            raise AssertionError(f"serve exited ({process.returncode}): {tail(log)}")
        return None

    try:
        return Started(process, until(bound, 60, what="serve's --port-file"))
    except BaseException:
        stop(process)
        raise


def tail(log: Path | None, size: int = 3000) -> str:
    return log.read_text(errors="replace")[-size:] if log is not None and log.exists() else ""


def healthy(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def wait_until_healthy(base_url: str, process: subprocess.Popen, log: Path | None) -> None:
    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"serve exited: {tail(log)}")
        return healthy(base_url)

    until(up, 60, what=f"{base_url}/healthz")


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM, and SIGKILL if it is still there after `timeout` seconds."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


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


@contextmanager
def serve(folder: Path, *, worker: bool, **settings: str) -> Iterator[Served]:
    """`homebase serve` in `folder` (its database and recordings live there), on loopback,
    with generous rate limits and no Redis; `settings` are extra HOMEBASE_* variables
    (`webhook_allow_private_urls="true"`). Stopped when the block ends. Its public URL is
    the address it serves on (serve's own default without HOMEBASE_PUBLIC_URL)."""
    env = {
        **os.environ,
        "HOMEBASE_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/db.sqlite3",
        "HOMEBASE_ENV": "test",
        "HOMEBASE_SECRET_KEY": "served-test-secret",
        "HOMEBASE_RECORDINGS_DIR": str(folder / "rec"),
        "HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN": "100000000",
        "HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN": "100000000",
        # A loaded machine's seed-demo or import batch is not rolled back as too slow
        # (HOMEBASE_ENV=test lets the settle delay stay what a test sets).
        "HOMEBASE_DATABASE_WRITE_TIMEOUT_SECONDS": "30",
        # Host names resolve to localhost only; the machine's resolver is never asked.
        "HOMEBASE_TESTING_LOOPBACK_RESOLVER": "true",
        **{f"HOMEBASE_{name.upper()}": value for name, value in settings.items()},
    }
    env.pop("HOMEBASE_REDIS_URL", None)
    env.pop("HOMEBASE_PUBLIC_URL", None)
    env.pop("HOMEBASE_CALLS_PROVIDER_SECRET", None)  # the call callback's switched-off answer
    args = ["--host", "127.0.0.1", "--log-level", "warning", *([] if worker else ["--no-worker"])]
    log = folder / "serve.log"  # a file, not a pipe nobody reads that could fill and block
    with log.open("wb") as stderr:
        started = start_serve(
            folder,
            env,
            *args,
            log=log,
            program=(sys.executable, "-m", "homebase"),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        wait_until_healthy(started.base_url, started.process, log)
        # The admin commands hand out the same links the server does.
        yield Served(
            started.base_url,
            {**env, "HOMEBASE_PUBLIC_URL": started.base_url},
            folder,
            started.process.pid,
        )
    finally:
        stop(started.process, 10)
