"""The systemd units of deploy/systemd, as scripts/cluster reads them (scripts/systemd.py):
the parser against systemd's syntax, the units' own content (the command, the settings, the
hardening), and the command line and environment the topology starts each process with.
No process is started here: the fault tests (make test-faults) run what these build."""

import shutil
import subprocess
from pathlib import Path

import pytest

from homebase.config import Settings
from scripts import systemd
from scripts.topology import API_UNIT, HOMEBASE, INSTANCES, UNITS, WORKER_UNIT, WORKERS, Cluster
from tests.support import clean_env

# -- The parser ------------------------------------------------------------------------------


def test_repeated_environment_lines_quotes_and_resets():
    unit = systemd.parse(
        "[Unit]\n"
        "Description=x\n"
        "\n"
        "[Service]\n"
        "# a comment\n"
        "; another\n"
        "Environment=A=1\n"
        'Environment="B=two words" C=3 \'D=it said "hi"\'\n'
        "Environment=A=overridden\n"
        "Environment=E=100%%\n"
        "ExecStart=-/opt/venv/bin/homebase serve \\\n"
        "    --port 8000\n"
    )
    assert unit.environment == {
        "A": "overridden",
        "B": "two words",
        "C": "3",
        "D": 'it said "hi"',
        "E": "100%",
    }
    assert unit.exec_start == ["/opt/venv/bin/homebase", "serve", "--port", "8000"]
    assert unit.value("Unit", "Description") == "x"
    reset = systemd.parse("[Service]\nEnvironment=A=1\nEnvironment=\nEnvironment=B=2\n")
    assert reset.environment == {"B": "2"}  # an empty assignment resets the list


def test_a_later_exec_start_replaces_an_earlier_one():
    unit = systemd.parse("[Service]\nExecStart=/bin/a\nExecStart=\nExecStart=/bin/b x\n")
    assert unit.exec_start == ["/bin/b", "x"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("[Service]\nExecStart=/bin/a %h\n", "specifiers"),
        ("[Service]\nExecStart=/bin/a ${PORT}\n", "VARIABLE"),
        ("[Service]\nEnvironment=JUSTANAME\n", "not NAME=value"),
        ("Environment=A=1\n", "not a Key=Value line of a section"),
        ("[Service]\nUser=homebase\n", "no ExecStart"),
    ],
)
def test_what_the_parser_does_not_read_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        unit = systemd.parse(text)
        unit.environment  # noqa: B018
        unit.exec_start  # noqa: B018


# -- The units -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [API_UNIT, WORKER_UNIT], ids=["api", "worker"])
def test_the_units_run_as_a_user_restart_and_are_hardened(path):
    unit = systemd.load(path)
    service = {key: unit.value("Service", key) for key in unit.sections["Service"]}
    assert service["User"] == "homebase" and service["Group"] == "homebase"
    assert service["Restart"] == "on-failure"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ProtectHome"] == "yes"
    assert service["PrivateTmp"] == "yes"
    assert service["EnvironmentFile"] == "/etc/homebase/homebase.env"
    # What ProtectSystem=strict leaves writable holds every path the unit gives the service.
    assert service["StateDirectory"] == "homebase"
    assert service["WorkingDirectory"] == "/var/lib/homebase"
    for name, value in unit.environment.items():
        if value.startswith("/"):
            assert value.startswith("/var/lib/homebase/"), name
    assert unit.value("Install", "WantedBy") == "multi-user.target"


def test_systemd_reads_the_units_without_a_warning(tmp_path):
    """systemd's own reader, where the machine has it: every key known, every value valid.
    (The venv's homebase stands in for /opt/homebase/venv/bin/homebase, which it checks.)"""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("NOTICE: systemd-analyze is not installed; the units are read by ours only")
    copies = []
    for path in (API_UNIT, WORKER_UNIT):
        copy = tmp_path / path.name
        copy.write_text(path.read_text().replace("/opt/homebase/venv/bin/homebase", str(HOMEBASE)))
        copies.append(str(copy))
    checked = subprocess.run(
        [analyze, "verify", "--man=no", *copies], capture_output=True, text=True, timeout=60
    )
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")


def test_the_units_run_the_venvs_homebase():
    assert systemd.load(API_UNIT).exec_start == [
        "/opt/homebase/venv/bin/homebase",
        "serve",
        "--no-worker",
        "--host",
        "127.0.0.1",
        "--port",
        "8000",
    ]
    assert systemd.load(WORKER_UNIT).exec_start == ["/opt/homebase/venv/bin/homebase", "worker"]


def test_every_variable_the_units_and_the_example_set_is_a_setting():
    fields = {f"HOMEBASE_{name.upper()}" for name in Settings.model_fields}
    named = set(systemd.load(API_UNIT).environment) | set(systemd.load(WORKER_UNIT).environment)
    example = (UNITS / "homebase.env.example").read_text().splitlines()
    named |= {line.split("=", 1)[0] for line in example if line and not line.startswith("#")}
    homebase = {name for name in named if name.startswith("HOMEBASE_")}
    assert homebase - fields == set()
    assert named - homebase == {"PYTHONUNBUFFERED"}
    assert "HOMEBASE_ENV" in homebase and "HOMEBASE_PUBLIC_URL" in homebase


# -- What the topology starts ----------------------------------------------------------------


def _cluster(tmp_path: Path, **settings: str) -> Cluster:
    cluster = Cluster(tmp_path / "run", env=clean_env(**settings))
    cluster.state.update(
        secret_key="k" * 43,
        database_url="postgresql+asyncpg://postgres@127.0.0.1:5999/homebase",
        redis_url="redis://127.0.0.1:6999/0",
    )
    cluster.state["ports"] = {"haproxy": 7000, "api-1": 7001, "api-2": 7002}
    cluster.state["ports"].update({"worker-1": 7003, "worker-2": 7004})
    return cluster


def test_the_topology_starts_each_process_with_its_units_command_and_environment(tmp_path):
    cluster = _cluster(tmp_path)
    run = str(cluster.run_dir)
    for name in INSTANCES:
        command, env = cluster.process(name)
        port = str(cluster.state["ports"][name])
        assert command == [
            str(HOMEBASE), "serve", "--no-worker", "--host", "127.0.0.1", "--port", port
        ]  # fmt: skip
        assert "HOMEBASE_WORKER_METRICS_PORT" not in env
    for name in WORKERS:
        command, env = cluster.process(name)
        assert command == [str(HOMEBASE), "worker"]
        # The unit's metrics port (9464) is replaced by the worker's own.
        assert env["HOMEBASE_WORKER_METRICS_PORT"] == str(cluster.state["ports"][name])
    for name in (*INSTANCES, *WORKERS):
        _, env = cluster.process(name)
        # The unit's paths, moved from its WorkingDirectory into the run directory.
        assert env["HOMEBASE_RECORDINGS_DIR"] == f"{run}/recordings"
        assert env["HOMEBASE_STORAGE_DIR"] == f"{run}/storage"
        assert env["PYTHONUNBUFFERED"] == "1"
        # The topology's own settings.
        assert env["HOMEBASE_DATABASE_URL"] == cluster.state["database_url"]
        assert env["HOMEBASE_PUBLIC_URL"] == "http://127.0.0.1:7000"
        assert env["HOMEBASE_SECRET_KEY"] == "k" * 43


def test_the_callers_environment_wins_over_the_units_as_an_environment_file_would(tmp_path):
    cluster = _cluster(tmp_path, HOMEBASE_STORAGE_DIR="/srv/shared", PYTHONUNBUFFERED="0")
    _, env = cluster.process("api-1")
    assert (env["HOMEBASE_STORAGE_DIR"], env["PYTHONUNBUFFERED"]) == ("/srv/shared", "0")
    assert env["HOMEBASE_RECORDINGS_DIR"] == f"{cluster.run_dir}/recordings"


def test_a_unit_without_host_and_port_is_refused(tmp_path, monkeypatch):
    unit = tmp_path / "homebase-api.service"
    unit.write_text("[Service]\nExecStart=/opt/homebase/venv/bin/homebase serve --port 8000\n")
    monkeypatch.setattr("scripts.topology.API_UNIT", unit)
    with pytest.raises(RuntimeError, match="must name --host, then --port"):
        _cluster(tmp_path).process("api-1")
