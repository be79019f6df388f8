"""A real several-instance topology on one machine, for tests and benchmarks (scripts/cluster).

Two `homebase serve --no-worker` instances and two `homebase worker` processes behind HAProxy
(Debian's package; configured here, its own process, never the system service), on
PostgreSQL and Redis: the given ones, or a throwaway PostgreSQL cluster (`initdb` in a
temporary folder, as the `postgres` user) and a throwaway `redis-server`, each on a port of
its own, reserved by this process (reserve_port) so that no other process takes it first
and a process killed and started again finds it free.
Everything listens on 127.0.0.1. The standard library only: the script needs no venv of its
own, it runs the project's `.venv/bin/homebase`. docs/operations.md ("Deployment").

The instances and workers are started from the systemd units an operator installs
(deploy/systemd/homebase-api.service, homebase-worker.service; scripts/systemd.py reads
them): their ExecStart= with the project's venv and this topology's host and port, and their
Environment= with paths under the unit's WorkingDirectory moved into the run directory.
Over those come the caller's environment (in the place of the units' EnvironmentFile=,
which wins over Environment= in systemd too), then the topology's own settings.

The run directory holds state.json (pids, ports, the shared secret; mode 0600), haproxy.cfg,
and one log per process. `stop` ends exactly the processes state.json names (checked against
their command line, so a reused pid is never signalled).
"""

import glob
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from scripts import haproxy, systemd

ROOT = Path(__file__).resolve().parents[1]
HOMEBASE = ROOT / ".venv" / "bin" / "homebase"
UNITS = ROOT / "deploy" / "systemd"
API_UNIT = UNITS / "homebase-api.service"
WORKER_UNIT = UNITS / "homebase-worker.service"
INSTANCES = ("api-1", "api-2")
WORKERS = ("worker-1", "worker-2")
# What a process's command line must contain before `stop` signals its pid.
_COMMANDS = {"homebase": "homebase", "haproxy": "haproxy", "redis": "redis-server"}


def reserve_port() -> socket.socket:
    """A loopback port held for a process that will listen on it: bound with SO_REUSEADDR
    and never listening. The process binds it beside the hold (HAProxy, PostgreSQL,
    redis-server and homebase all set SO_REUSEADDR), and the system gives it to no other
    process meanwhile, nor while the process is down and started again. A port bound and
    closed again would be free for any process on the machine to take first."""
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    return held


def http_status(url: str, timeout: float = 2.0) -> int | None:
    """The status of a GET, or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (OSError, urllib.error.URLError):
        return None


def redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def pg_bin(name: str) -> str:
    """A PostgreSQL program: on PATH, else Debian's newest /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(Path(path).parts[-3])
    )
    if not candidates:
        raise RuntimeError(f"{name} not found (install postgresql)")
    return candidates[-1]


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the `postgres` OS user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def _wait(check, timeout: float, what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
    raise RuntimeError(f"{what} not ready within {timeout:.0f} s\n{tail}")


def _command(unit: systemd.Unit, port: str | None) -> list[str]:
    """The unit's ExecStart= on this checkout's venv; `serve`'s --host and --port replaced
    by the topology's (the unit must name both: a unit that does not is not tested)."""
    executable, *args = unit.exec_start
    if Path(executable).name != "homebase":
        raise RuntimeError(f"{unit.path}: ExecStart= runs {executable}, not a venv's homebase")
    if port is None:
        return [str(HOMEBASE), *args]
    wanted = {"--host": "127.0.0.1", "--port": port}
    if [word for word in args if word in wanted] != list(wanted):
        raise RuntimeError(f"{unit.path}: ExecStart= must name --host, then --port")
    replaced = list(args)
    for index, word in enumerate(args[:-1]):
        if word in wanted:
            replaced[index + 1] = wanted[word]
    return [str(HOMEBASE), *replaced]


def _alive(pid: int, command: str) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z" and command in cmdline


class Cluster:
    """One topology. `start()` brings it up, `stop()` ends it; `Cluster.load(run_dir)` finds a
    running one again (the CLI's stop and status)."""

    def __init__(
        self,
        run_dir: Path,
        *,
        database_url: str | None = None,
        redis_url: str | None = None,
        env: Mapping[str, str] | None = None,
        request_log: bool = True,
    ):
        self.run_dir = Path(run_dir).resolve()
        self.state: dict = {
            "database_url": database_url,
            "redis_url": redis_url,
            "processes": {},
            "ports": {},
            "pg_dir": None,
            "request_log": request_log,
        }
        self.base_env = dict(os.environ if env is None else env)
        self.children: dict[str, subprocess.Popen] = {}  # this Python process's own
        # The ports this Python process chose, held until stop() (reserve_port).
        self.reserved: list[socket.socket] = []

    # -- state --------------------------------------------------------------------------

    @classmethod
    def load(cls, run_dir: Path) -> "Cluster":
        cluster = cls(run_dir)
        cluster.state = json.loads((cluster.run_dir / "state.json").read_text())
        return cluster

    def _save(self) -> None:
        path = self.run_dir / "state.json"
        descriptor = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
        with os.fdopen(descriptor, "w") as file:  # the secret key is in it
            json.dump(self.state, file, indent=2)

    @property
    def url(self) -> str:
        """The load balancer: the address clients use."""
        return f"http://127.0.0.1:{self.state['ports']['haproxy']}"

    @property
    def env(self) -> dict[str, str]:
        """Settings every instance shares (docs/operations.md): one database, one Redis,
        one secret key, one public address, the load balancer as trusted proxy."""
        env = dict(self.base_env)
        env.update(
            HOMEBASE_DATABASE_URL=self.state["database_url"],
            HOMEBASE_REDIS_URL=self.state["redis_url"],
            HOMEBASE_SECRET_KEY=self.state["secret_key"],
            HOMEBASE_PUBLIC_URL=self.url,
            HOMEBASE_TRUSTED_PROXIES="127.0.0.1",
        )
        return env

    def process(self, name: str) -> tuple[list[str], dict[str, str]]:
        """The command line and environment of one API instance or worker, from its unit."""
        unit = systemd.load(API_UNIT if name in INSTANCES else WORKER_UNIT)
        port = str(self.state["ports"][name])
        command = _command(unit, port if name in INSTANCES else None)
        env = {**self._unit_environment(unit), **self.env}
        if name in WORKERS:  # each worker's GET /metrics on a port of its own
            env["HOMEBASE_WORKER_METRICS_PORT"] = port
        return command, env

    def _unit_environment(self, unit: systemd.Unit) -> dict[str, str]:
        """The unit's Environment=, its state paths (under WorkingDirectory) in run_dir."""
        state = (unit.value("Service", "WorkingDirectory") or "").rstrip("/")
        env = unit.environment
        if state:
            for name, value in env.items():
                if value == state or value.startswith(state + "/"):
                    env[name] = str(self.run_dir) + value[len(state) :]
        return env

    # -- start and stop -----------------------------------------------------------------

    def start(self, timeout: float = 120) -> "Cluster":
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.state["secret_key"] = secrets.token_urlsafe(32)  # 43 characters
        ports = self.state["ports"]
        # A worker's port is its GET /metrics (HOMEBASE_WORKER_METRICS_PORT).
        ports.update(
            haproxy=self._reserve(), **{name: self._reserve() for name in (*INSTANCES, *WORKERS)}
        )
        self._save()
        try:
            if not self.state["database_url"]:
                self.start_postgres(timeout)
                self._createdb()
            if not self.state["redis_url"]:
                ports["redis"] = self._reserve()
                self.state["redis_url"] = f"redis://127.0.0.1:{ports['redis']}/0"
                self.start_redis(timeout)
            self._save()
            self.homebase("migrate", timeout=timeout)
            for name in (*INSTANCES, *WORKERS):
                self.start_process(name)
            for name in (*INSTANCES, *WORKERS):
                self.wait_process(name, timeout)
            self.start_haproxy(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _reserve(self) -> int:
        held = reserve_port()
        self.reserved.append(held)
        return held.getsockname()[1]

    def stop(self, timeout: float = 30) -> None:
        """SIGTERM every process (the load balancer first, so no new request reaches an
        instance that is draining), wait, SIGKILL what is left; then PostgreSQL."""
        names = ["haproxy", *INSTANCES, *WORKERS, "redis"]
        for name in names:
            self.send_signal(name, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for name in names:
            if not self._wait_gone(name, max(0.1, deadline - time.monotonic())):
                self.send_signal(name, signal.SIGKILL)
                self._wait_gone(name, 5)
        self.stop_postgres()
        if self.state.get("pg_dir"):
            shutil.rmtree(self.state["pg_dir"], ignore_errors=True)
            self.state["pg_dir"] = None
        if (self.run_dir / "state.json").exists():
            self._save()
        for held in self.reserved:
            held.close()
        self.reserved.clear()

    def status(self) -> dict:
        processes = {
            name: {
                "pid": entry["pid"],
                "alive": self.alive(name),
                **({"port": self.state["ports"][name]} if name in self.state["ports"] else {}),
            }
            for name, entry in self.state["processes"].items()
        }
        if self.state.get("pg_dir"):
            processes["postgres"] = {
                "port": self.state["ports"]["postgres"],
                "alive": self.postgres_running(),
            }
        return {
            "url": self.url,
            "database_url": self.state["database_url"],
            "redis_url": self.state["redis_url"],
            "processes": processes,
            "load_balancer": self.backends() if self.alive("haproxy") else {},
        }

    # -- processes ----------------------------------------------------------------------

    def _spawn(self, name: str, command: list[str], kind: str, env=None, cwd=None) -> None:
        log = (self.run_dir / f"{name}.log").open("ab")
        with log:  # the child keeps its own copy of the descriptor
            child = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                cwd=cwd,
                start_new_session=True,
            )  # a terminal's ^C is not theirs
        self.children[name] = child
        self.state["processes"][name] = {"pid": child.pid, "kind": kind}
        self._save()

    def start_process(self, name: str) -> None:
        """Start (or start again) one API instance or worker."""
        command, env = self.process(name)
        self._spawn(name, command, "homebase", env=env, cwd=self.run_dir)

    def wait_process(self, name: str, timeout: float = 60) -> None:
        log = self.run_dir / f"{name}.log"

        def ready() -> bool:
            if not self.alive(name):
                raise RuntimeError(f"{name} exited\n{log.read_text(errors='replace')[-3000:]}")
            if name in INSTANCES:
                port = self.state["ports"][name]
                return http_status(f"http://127.0.0.1:{port}{haproxy.HEALTH_PATH}") == 200
            return "worker started" in log.read_text(errors="replace")

        _wait(ready, timeout, name, log)

    def alive(self, name: str) -> bool:
        entry = self.state["processes"].get(name)
        if not entry:
            return False
        child = self.children.get(name)
        if child is not None and child.poll() is not None:
            return False
        return _alive(entry["pid"], _COMMANDS[entry["kind"]])

    def send_signal(self, name: str, signum: int) -> None:
        if self.alive(name):
            os.kill(self.state["processes"][name]["pid"], signum)

    def _wait_gone(self, name: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.alive(name):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        child = self.children.pop(name, None)
        if child is not None:
            child.wait(timeout=5)  # reap it
        return True

    def kill(self, name: str, signum: int = signal.SIGKILL, timeout: float = 30) -> None:
        self.send_signal(name, signum)
        if not self._wait_gone(name, timeout):
            raise RuntimeError(f"{name} still running {timeout:.0f} s after signal {signum}")

    def homebase(self, *args: str, timeout: float = 120) -> dict:
        """One `homebase` command against the topology's database; its JSON answer."""
        done = subprocess.run(
            [str(HOMEBASE), *args],
            env={**self._unit_environment(systemd.load(API_UNIT)), **self.env},
            cwd=self.run_dir,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"homebase {' '.join(args[:2])}: {done.stderr.strip()}")
        return json.loads(done.stdout)

    # -- Redis ----------------------------------------------------------------------------

    def start_redis(self, timeout: float = 30) -> None:
        """A throwaway redis-server (nothing saved: Redis holds nothing durable here)."""
        port = self.state["ports"]["redis"]
        folder = self.run_dir / "redis"
        folder.mkdir(exist_ok=True)
        self._spawn(
            "redis",
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            "redis",
        )
        _wait(lambda: redis_ping(port), timeout, "redis-server", self.run_dir / "redis.log")

    def stop_redis(self, timeout: float = 30) -> None:
        self.kill("redis", signal.SIGTERM, timeout)

    # -- PostgreSQL -----------------------------------------------------------------------

    def start_postgres(self, timeout: float = 120) -> None:
        """A throwaway cluster in a temporary folder of its own (the postgres user cannot
        enter a run directory under a root-only folder such as pytest's)."""
        if not self.state.get("pg_dir"):
            folder = Path(tempfile.mkdtemp(prefix="homebase-pg-"))
            self.state["pg_dir"] = str(folder)
            self.state["ports"]["postgres"] = self._reserve()
            self._save()
            if os.geteuid() == 0:
                shutil.chown(folder, "postgres", "postgres")
            subprocess.run(
                _as_postgres(
                    [
                        pg_bin("initdb"),
                        "-D",
                        str(folder / "data"),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "--no-sync",
                        "-E",
                        "UTF8",
                        "--locale=C",
                    ]
                ),
                check=True,
                capture_output=True,
                timeout=timeout,
            )
        folder, port = Path(self.state["pg_dir"]), self.state["ports"]["postgres"]
        options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
        subprocess.run(
            _as_postgres(
                [
                    pg_bin("pg_ctl"),
                    "-D",
                    str(folder / "data"),
                    "-l",
                    str(folder / "postgres.log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    str(int(timeout)),
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
            timeout=timeout + 10,
        )

    def postgres_running(self) -> bool:
        folder = self.state.get("pg_dir")
        return bool(folder) and (Path(folder) / "data" / "postmaster.pid").exists()

    def stop_postgres(self, mode: str = "fast", timeout: float = 60) -> None:
        if not self.postgres_running():
            return
        folder = self.state["pg_dir"]
        subprocess.run(
            _as_postgres(
                [
                    pg_bin("pg_ctl"),
                    "-D",
                    f"{folder}/data",
                    "-m",
                    mode,
                    "-w",
                    "-t",
                    str(int(timeout)),
                    "stop",
                ]
            ),
            capture_output=True,
            timeout=timeout + 10,
        )

    def _createdb(self) -> None:
        port = self.state["ports"]["postgres"]
        subprocess.run(
            [pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "homebase"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        self.state["database_url"] = f"postgresql+asyncpg://postgres@127.0.0.1:{port}/homebase"

    # -- HAProxy --------------------------------------------------------------------------

    def start_haproxy(self, timeout: float = 60) -> None:
        config = self.run_dir / "haproxy.cfg"
        if len(str(self.run_dir / "haproxy.sock")) > 100:  # a Unix socket path's limit
            raise RuntimeError(f"run directory path too long for a socket: {self.run_dir}")
        servers = {name: self.state["ports"][name] for name in INSTANCES}
        config.write_text(
            haproxy.config(
                self.state["ports"]["haproxy"],
                servers,
                self.run_dir / "haproxy.sock",
                self.state.get("request_log", True),
            )
        )
        subprocess.run(
            ["haproxy", "-c", "-q", "-f", str(config)], check=True, capture_output=True, timeout=30
        )
        self._spawn("haproxy", ["haproxy", "-db", "-f", str(config)], "haproxy")
        # Up means: the load balancer answers and every instance passed its health checks.
        _wait(
            lambda: set(self.backends().values()) == {"UP"},
            timeout,
            "haproxy",
            self.run_dir / "haproxy.log",
        )

    def backends(self) -> dict[str, str]:
        """The load balancer's view of each instance: UP, DOWN, or a transition."""
        try:
            return haproxy.server_states(self.run_dir / "haproxy.sock")
        except OSError:
            return {}

    def wait_backend(self, name: str, state: str, timeout: float = 30) -> float:
        """Seconds until the load balancer reports `name` in `state`."""
        started = time.monotonic()
        _wait(
            lambda: self.backends().get(name) == state,
            timeout,
            f"{name} {state} at the load balancer",
        )
        return time.monotonic() - started
