"""The two servers the benchmark drives, each a child process on loopback."""

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.backends import Backend

REPO = Path(__file__).resolve().parent.parent
# leads:write for the POST /v1/leads scenario; without contacts:read:pii, so PII is masked.
BENCH_SCOPES = "contacts:read contacts:write leads:write"
RATE_LIMIT = "100000000"


_RESERVED: list[socket.socket] = []
# `homebase serve` of another checkout (--against) without its own migration step: the
# database is this tree's, migrated by this tree, and an older checkout refuses revisions it
# does not know. Its `upgrade` is replaced by one that leaves the schema as it is; the rest
# of `serve` is the checkout's own.
SERVE_WITHOUT_MIGRATING = """
import sys
import homebase.db.migrate as migrate
async def keep(url, revision="head"):
    return "left as this tree migrated it"
migrate.upgrade = keep
import runpy
sys.argv[0] = "homebase"
runpy.run_module("homebase", run_name="__main__", alter_sys=True)
"""


def free_port() -> int:
    """A loopback port reserved for a server this process starts: bound with SO_REUSEADDR
    and never listening, for the benchmark's whole run, so the server binds it beside the
    hold (uvicorn and homebase set SO_REUSEADDR too) and no other process is given it
    first, as it could be a port bound and closed again. A checkout measured against this
    one may predate `serve --port-file`, so the port is chosen here."""
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    _RESERVED.append(held)
    return held.getsockname()[1]


class Server:
    """A child process serving HTTP on 127.0.0.1:port; stopped by its own pid only."""

    def __init__(
        self,
        name: str,
        command: list[str],
        *,
        port: int,
        health: str,
        log: Path,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ):
        self.name, self.command, self.port, self.health = name, command, port, health
        self.log_path, self.env, self.cwd = log, env, cwd
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> "Server":
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.cwd
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited early:\n{self.log_tail()}")
            try:
                if httpx.get(self.base_url + self.health, timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.name} did not become healthy:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()


def hello_server(directory: Path) -> Server:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "bench.hello:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    return Server(
        "hello-world", command, port=port, health="/", log=directory / "hello.log", cwd=REPO
    )


def peer_server(directory: Path, env: dict[str, str]) -> Server:
    """bench/peer.py over the service's database and Redis (`env`), served as hello_server."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "bench.peer:app", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1", "--loop", "uvloop", "--http"]
    command += ["httptools", "--log-level", "warning", "--no-access-log"]
    return Server(
        "peer", command, port=port, health="/docs", log=directory / "peer.log", env=env, cwd=REPO
    )


@dataclass
class Service:
    """A homebase instance's database, workspace and API keys, ready to serve."""

    directory: Path
    database_url: str
    env: dict[str, str]
    workspace_id: str
    key: str
    pii_key: str  # contacts:read:pii as well: search by email and phone digits

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"token {self.key}"}

    @property
    def pii_auth(self) -> dict[str, str]:
        return {"Authorization": f"token {self.pii_key}"}

    def _child_env(self, redis_url: str | None | bool, tree: Path | None) -> dict[str, str]:
        env = dict(self.env)
        if redis_url is None:
            env.pop("HOMEBASE_REDIS_URL", None)
        elif redis_url is not True:
            env["HOMEBASE_REDIS_URL"] = redis_url
        if tree is not None:
            # Ahead of site-packages, so ahead of this tree's editable install; the child's
            # working directory (self.directory) holds no package of its own.
            env["PYTHONPATH"] = str(tree)
        return env

    def server(
        self,
        *,
        workers: int = 1,
        redis_url: str | None | bool = True,
        tree: Path | None = None,
        worker: bool = False,
    ) -> Server:
        """`homebase serve`; `redis_url=True` keeps the service's limiter (Redis with
        PostgreSQL), None runs without Redis, a URL sets it. `tree`, another checkout of
        this repository, serves that checkout's homebase package instead of this one's.
        `worker` runs the background worker in-process (`--no-worker` otherwise)."""
        env = self._child_env(redis_url, tree)
        port = free_port()
        launch = ["-m", "homebase"] if tree is None else ["-c", SERVE_WITHOUT_MIGRATING]
        command = [sys.executable, *launch, "serve", "--workers", str(workers)]
        if not worker:
            command.append("--no-worker")
        command += ["--port", str(port), "--log-level", "warning"]
        return Server(
            f"homebase ({tree or REPO}, {self.directory.name}, {workers} worker(s))",
            command,
            port=port,
            health="/healthz",
            log=self.directory / f"homebase-{port}.log",
            env=env,
            cwd=self.directory,
        )

    def worker(self) -> Server:
        """`homebase worker` alone; its metrics listener (HOMEBASE_WORKER_METRICS_PORT)
        answers the health check, so `start` returns once the worker runs."""
        env = self._child_env(True, None)
        port = free_port()
        env["HOMEBASE_WORKER_METRICS_PORT"] = str(port)
        return Server(
            f"homebase worker ({self.directory.name})",
            [sys.executable, "-m", "homebase", "worker"],
            port=port,
            health="/metrics",
            log=self.directory / f"worker-{port}.log",
            env=env,
            cwd=self.directory,
        )

    def admin(self, *args: str) -> dict:
        """`homebase admin ...` on this service's database: its JSON answer."""
        return _homebase(self.env, self.directory, "admin", *args)

    def homebase_file(self, tree: Path | None = None) -> Path:
        """The file `import homebase` loads in a child started as `server(tree=tree)` is
        (the same interpreter, environment and working directory)."""
        completed = subprocess.run(
            [sys.executable, "-c", "import homebase; print(homebase.__file__)"],
            env=self._child_env(True, tree),
            cwd=self.directory,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return Path(completed.stdout.strip()).resolve()


def _homebase(env: dict[str, str], cwd: Path, *args: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "homebase", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"homebase {' '.join(args)} failed: {completed.stderr.strip()}")
    return json.loads(completed.stdout)


def prepare_service(
    directory: Path, secret_key: str, backend: Backend, *, lead_fixtures: bool = False
) -> Service:
    """A fresh database (SQLite file or PostgreSQL database, bench/backends.py) with one
    workspace, a contacts key (masked PII) and a key that may see PII; with
    `lead_fixtures`, the routing set of the POST /v1/leads scenario (bench/leads.py)."""
    directory.mkdir(parents=True, exist_ok=True)
    database_url = backend.new_database(directory, directory.name)
    env = {
        **os.environ,
        "HOMEBASE_DATABASE_URL": database_url,
        "HOMEBASE_SECRET_KEY": secret_key,
        "HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN": RATE_LIMIT,
    }
    env.pop("HOMEBASE_REDIS_URL", None)
    if backend.redis_url:
        env["HOMEBASE_REDIS_URL"] = backend.redis_url
    _homebase(env, directory, "migrate")
    workspace = _homebase(env, directory, "admin", "create-workspace", "--name", "Bench Realty")
    keys = []
    for scopes, name in ((BENCH_SCOPES, "bench"), (BENCH_SCOPES + " contacts:read:pii", "pii")):
        created = _homebase(
            env,
            directory,
            "admin",
            "create-api-key",
            "--workspace",
            workspace["id"],
            "--scopes",
            scopes,
            "--name",
            name,
        )
        backend.key_ids.append(created["id"])
        keys.append(created["key"])
    if lead_fixtures:
        from bench.leads import write_fixtures

        _homebase(
            env,
            directory,
            "admin",
            "load-fixtures",
            "--workspace",
            workspace["id"],
            str(write_fixtures(directory)),
        )
    return Service(
        directory=directory,
        database_url=database_url,
        env=env,
        workspace_id=workspace["id"],
        key=keys[0],
        pii_key=keys[1],
    )
