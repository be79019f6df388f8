"""`homebase serve` as an operator starts it, in a subprocess: a port already taken is one
line and a non-zero exit before anything says it serves; `--port 0` takes a free port and
`--port-file` names it; without HOMEBASE_PUBLIC_URL the links it hands out name the port it
serves on; a database URL of a kind homebase does not run on is one line from every
command that reads the settings."""

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.served_support import start_serve, stop, wait_until_healthy
from tests.support import clean_env, until

SECRET = "serve-test-secret-key"


def _env(folder: Path, **settings: str) -> dict[str, str]:
    defaults = {
        "HOMEBASE_DATABASE_URL": f"sqlite+aiosqlite:///{folder}/db.sqlite3",
        "HOMEBASE_SECRET_KEY": SECRET,
        "HOMEBASE_STORAGE_DIR": str(folder / "storage"),
    }
    return clean_env(**{**defaults, **settings})


def _homebase(folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "homebase", *args],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_port_already_taken_is_one_line_before_anything_says_it_serves(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = _homebase(tmp_path, _env(tmp_path), "serve", "--port", str(port), "--demo")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert lines == [
        f"error: serve --host 127.0.0.1 --port {port}: cannot listen on 127.0.0.1:{port}: "
        "Address already in use"
    ]
    assert "serving" not in done.stdout + done.stderr
    assert done.stdout == ""
    # Refused before migrating: no database was made.
    assert not (tmp_path / "db.sqlite3").exists()


def test_port_0_is_a_free_port_and_the_port_file_names_it(tmp_path):
    """`--port 0`: the system's choice, written to `--port-file` (the port and a newline)
    once bound, before the migrations; the same port the server answers on."""
    env = _env(tmp_path)
    port_file = tmp_path / "serve.port"
    log = tmp_path / "serve.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "homebase", "serve", "--port", "0", "--port-file", port_file],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        written = until(lambda: port_file.exists() and port_file.read_text(), 60)
        assert re.fullmatch(r"[1-9][0-9]*\n", written), written
        port = int(written)
        wait_until_healthy(f"http://127.0.0.1:{port}", process, log)
        with socket.socket() as taken:  # really bound there: nobody else can bind it
            with pytest.raises(OSError):
                taken.bind(("127.0.0.1", port))
    finally:
        stop(process)


def test_a_port_file_that_cannot_be_written_is_one_line(tmp_path):
    done = _homebase(
        tmp_path, _env(tmp_path), "serve", "--port", "0", "--port-file", str(tmp_path / "no/x")
    )
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"error: serve --port-file {tmp_path}/no/x: cannot write it: "), line
    assert not (tmp_path / "db.sqlite3").exists()  # before anything was migrated


def test_without_a_public_url_links_name_the_port_served(tmp_path):
    env = _env(tmp_path, HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="100000")
    log = tmp_path / "serve.log"
    with log.open("wb") as stderr:
        started = start_serve(
            tmp_path,
            env,
            program=(sys.executable, "-m", "homebase"),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    process, base_url = started.process, started.base_url
    try:
        wait_until_healthy(base_url, process, log)
        workspace = json.loads(
            _homebase(tmp_path, env, "admin", "create-workspace", "--name", "Links").stdout
        )["id"]
        created = _homebase(
            tmp_path,
            env,
            "admin",
            "create-api-key",
            "--workspace",
            workspace,
            "--scopes",
            "contacts:read",
        )
        assert created.returncode == 0, created.stderr
        headers = {"Authorization": f"token {json.loads(created.stdout)['key']}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=10) as client:
            posted = client.post("/v1/exports", json={"object": "contacts", "format": "csv"})
            assert posted.status_code == 202, posted.text
            path = f"/v1/exports/{posted.json()['id']}"

            def completed() -> dict | None:  # the in-process worker writes the file
                export = client.get(path).json()
                return export if export["status"] == "completed" else None

            export = until(completed, 60, every=0.2, what="the export")
            assert export["download_url"].startswith(f"{base_url}/exports/")
            assert client.get(export["download_url"]).status_code == 200
    finally:
        stop(process)


FOO = ("foo://x", "'foo'")


@pytest.mark.parametrize(
    "url, named, command",
    [  # every kind of refusal once, and every command that reads the settings once
        ("mysql://homebase:hunter2@db.example.com/homebase", "'mysql'", ["migrate"]),
        ("postgresql://homebase:hunter2@127.0.0.1/homebase", "'postgresql'", ["migrate"]),
        ("not a url", "is not a database URL", ["migrate"]),
        (*FOO, ["serve", "--port", "0"]),
        (*FOO, ["worker"]),
        (*FOO, ["admin", "create-workspace", "--name", "Acme"]),
    ],
    ids=["mysql", "postgresql-without-asyncpg", "not-a-url", "serve", "worker", "admin"],
)
def test_an_unsupported_database_url_is_one_line_naming_the_supported_kinds(
    tmp_path, url, named, command
):
    done = _homebase(tmp_path, _env(tmp_path, HOMEBASE_DATABASE_URL=url), *command)
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("error: HOMEBASE_DATABASE_URL: ")
    assert named in line
    assert "sqlite:///PATH" in line and "postgresql+asyncpg://" in line
    assert "hunter2" not in line  # the URL's password is never repeated
    assert "Traceback" not in done.stderr
