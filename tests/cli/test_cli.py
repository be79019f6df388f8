"""The operator commands of ../shared/CONTRACT.md, run as an operator runs them: the
`homebase` console script in a subprocess, against a SQLite file.

Success: exactly one JSON object on stdout, exit 0. Failure: one line on stderr, non-zero
exit, nothing written. Then `homebase serve --demo`: the key it prints works, and a second
start prints the same key.
"""

import fcntl
import io
import json
import os
import pty
import queue
import re
import select
import sqlite3
import subprocess
import termios
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import httpx
import pytest
from alembic.script import ScriptDirectory

from homebase.auth.scopes import ALL_SCOPES
from homebase.config import Settings, get_settings
from homebase.db.engine import Database
from homebase.db.migrate import alembic_config
from homebase.kit.passwords import verify_all
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.root.main import main
from homebase.runtime import Runtime
from tests.served_support import start_serve, wait_until_healthy
from tests.support import GENEROUS_WRITES, clean_env, until

HOMEBASE = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "homebase"
SECRET = "cli-test-secret-key"


class Cli:
    def __init__(self, directory: Path):
        self.directory = directory
        self.db_path = directory / "homebase.sqlite3"
        self.url = f"sqlite+aiosqlite:///{self.db_path}"
        self.env = clean_env(
            HOMEBASE_DATABASE_URL=self.url, HOMEBASE_SECRET_KEY=SECRET, **GENEROUS_WRITES
        )

    def start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [str(HOMEBASE), *args],
            env=self.env,
            cwd=self.directory,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return finish(self.start(*args), list(args))

    def ok(self, *args: str) -> dict:
        return assert_ok(self.run(*args))

    def in_process(
        self, *args: str, stdin: str = "", env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        """The `main()` the console script calls, in this process: no Python start-up
        (about a second each on a small machine), for set-up steps and the failure matrix.
        `stdin` is what standard input holds (not a terminal), `env` more variables. The
        environment is restored and the settings cache cleared afterwards."""
        values = {
            "HOMEBASE_DATABASE_URL": self.url,
            "HOMEBASE_SECRET_KEY": SECRET,
            **GENEROUS_WRITES,
            **(env or {}),
        }
        names = {"HOMEBASE_DATABASE_URL", "HOMEBASE_SECRET_KEY", "HOMEBASE_ADMIN_PASSWORD"}
        saved = {k: os.environ.get(k) for k in names | set(values)}
        stdout, stderr = io.StringIO(), io.StringIO()
        try:
            for name in saved:
                os.environ.pop(name, None)
            os.environ.update(values)
            get_settings.cache_clear()
            with (
                redirect_stdout(stdout),
                redirect_stderr(stderr),
                mock.patch("sys.stdin", io.StringIO(stdin)),
            ):
                # main() calls asyncio.run: give it a thread of its own, since async tests
                # call this from inside their running loop.
                with ThreadPoolExecutor(1) as pool:
                    code = pool.submit(_call_main, list(args)).result(timeout=60)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            get_settings.cache_clear()
        return subprocess.CompletedProcess(list(args), code, stdout.getvalue(), stderr.getvalue())

    def quick(self, *args: str) -> dict:
        return assert_ok(self.in_process(*args))

    def count(self, table: str, workspace_id: str) -> int:
        with sqlite3.connect(self.db_path) as db:
            return db.execute(
                f"SELECT count(*) FROM {table} WHERE workspace_id = ?", (workspace_id,)
            ).fetchone()[0]

    def row(self, table: str, id_: str) -> dict:
        with sqlite3.connect(self.db_path) as db:
            db.row_factory = sqlite3.Row
            found = db.execute(f"SELECT * FROM {table} WHERE id = ?", (id_,)).fetchone()
        assert found is not None, f"no {table} row {id_}"
        return dict(found)

    async def get(self, key: str, path: str) -> httpx.Response:
        """The API over this same database, in-process: do the printed keys work?"""
        settings = Settings(env="test", database_url=self.url, secret_key=SECRET)
        runtime = Runtime(settings=settings, db=Database(self.url), limiter=MemoryLimiter())
        transport = httpx.ASGITransport(app=create_app(runtime))
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://cli") as client:
                return await client.get(path, headers={"Authorization": f"token {key}"})
        finally:
            await runtime.close()


def _call_main(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return 0


def finish(
    process: subprocess.Popen, args: list[str], timeout: float = 60
) -> subprocess.CompletedProcess:
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return subprocess.CompletedProcess(args, process.returncode, stdout, stderr)


def assert_ok(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, f"{done.args}: exit {done.returncode}\n{done.stderr}"
    lines = done.stdout.splitlines()
    assert len(lines) == 1, f"{done.args}: stdout is not one line:\n{done.stdout}"
    payload = json.loads(lines[0])
    assert isinstance(payload, dict), payload
    return payload


def assert_failed(done: subprocess.CompletedProcess) -> str:
    assert done.returncode != 0, f"{done.args} succeeded: {done.stdout}"
    assert done.stdout == "", f"{done.args}: printed on stdout: {done.stdout}"
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].strip(), f"{done.args}: stderr:\n{done.stderr}"
    return lines[0]


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def cli(tmp_path_factory) -> Cli:
    """One migrated SQLite file for the module (each command starts a Python process;
    migrating once keeps the file fast). `migrate`'s own output is checked below."""
    cli = Cli(tmp_path_factory.mktemp("cli"))
    cli.first_migrate = cli.ok("migrate")
    return cli


@pytest.fixture(scope="module")
def workspace(cli) -> dict:
    return cli.quick("admin", "create-workspace", "--name", "CLI Realty")


# --- Commands that succeed ----------------------------------------------------------------


def test_migrate_prints_ok_and_the_head_revision(cli):
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert cli.first_migrate == {"ok": True, "revision": head}
    assert cli.quick("migrate") == {"ok": True, "revision": head}  # again: nothing to do


def test_create_workspace_and_set_its_status(cli):
    created = cli.ok("admin", "create-workspace", "--name", "  Status Realty ")
    assert created["id"].startswith("wsp_")
    assert (created["name"], created["status"]) == ("Status Realty", "active")

    suspended = cli.ok(
        "admin", "set-workspace-status", "--workspace", created["id"], "--status", "suspended"
    )
    assert {k: suspended[k] for k in ("id", "name", "status")} == {
        "id": created["id"],
        "name": "Status Realty",
        "status": "suspended",
    }
    assert cli.row("workspaces", created["id"])["status"] == "suspended"
    active = cli.quick(
        "admin", "set-workspace-status", "--workspace", created["id"], "--status", "active"
    )
    assert active["status"] == "active"


def test_set_the_workspace_s_time_zone(cli):
    created = cli.ok("admin", "create-workspace", "--name", "Zone Realty")
    zoned = cli.quick(
        "admin",
        "set-workspace-time-zone",
        "--workspace",
        created["id"],
        "--time-zone",
        "America/Chicago",
    )
    assert (zoned["id"], zoned["time_zone"]) == (created["id"], "America/Chicago")
    settings = json.loads(cli.row("workspaces", created["id"])["settings"])
    assert settings["time_zone"] == "America/Chicago"


def test_create_user(cli, workspace):
    user = cli.ok(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "Maya@Example.com",
        "--name",
        "Maya Chen",
        "--password",
        "pw-123456-long-enough",
        "--office",
        "off_1",
        "--team",
        "team_1",
    )
    assert user["id"].startswith("usr_")
    row = cli.row("users", user["id"])
    assert (row["workspace_id"], row["email"], row["name"]) == (
        workspace["id"],
        "maya@example.com",
        "Maya Chen",
    )
    assert (row["office_id"], row["team_id"]) == ("off_1", "team_1")
    assert row["password_hash"] and "pw-123456-long-enough" not in row["password_hash"]


def _password_of(cli: Cli, user_id: str, password: str) -> bool:
    return verify_all(password, [cli.row("users", user_id)["password_hash"]]) == [True]


def test_set_password_reads_one_line_of_standard_input(cli, workspace):
    user = cli.quick(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "stdin@example.com",
        "--name",
        "Stdin",
    )
    process = subprocess.run(
        [
            str(HOMEBASE),
            "admin",
            "set-password",
            "--workspace",
            workspace["id"],
            "--email",
            " Stdin@Example.com ",
        ],
        env=cli.env,
        cwd=cli.directory,
        input="  spaces count too \nsecond line\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    printed = assert_ok(process)
    assert printed == {"id": user["id"], "password_changed": True, "sessions_ended": 0}
    assert _password_of(cli, user["id"], "  spaces count too ")  # the line, as typed

    refused = cli.in_process(
        "admin",
        "set-password",
        "--workspace",
        workspace["id"],
        "--email",
        "stdin@example.com",
        stdin="qwertyuiop123\n",
    )
    assert "the password is one of the most common passwords" in assert_failed(refused)
    assert _password_of(cli, user["id"], "  spaces count too ")  # unchanged


def test_the_environment_variable_wins_over_standard_input(cli, workspace):
    user = cli.quick(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "env@example.com",
        "--name",
        "Env",
    )
    changed = cli.in_process(
        "admin",
        "set-password",
        "--workspace",
        workspace["id"],
        "--email",
        "env@example.com",
        stdin="from standard input\n",
        env={"HOMEBASE_ADMIN_PASSWORD": "from the environment"},
    )
    assert assert_ok(changed)["password_changed"] is True
    assert _password_of(cli, user["id"], "from the environment")


def test_create_user_takes_the_password_from_stdin_or_the_environment(cli, workspace):
    piped = assert_ok(
        cli.in_process(
            "admin",
            "create-user",
            "--workspace",
            workspace["id"],
            "--email",
            "piped@example.com",
            "--name",
            "Piped",
            "--password-stdin",
            stdin="a piped password\n",
        )
    )
    assert _password_of(cli, piped["id"], "a piped password")
    from_env = assert_ok(
        cli.in_process(
            "admin",
            "create-user",
            "--workspace",
            workspace["id"],
            "--email",
            "fromenv@example.com",
            "--name",
            "From Env",
            env={"HOMEBASE_ADMIN_PASSWORD": "an exported password"},
        )
    )
    assert _password_of(cli, from_env["id"], "an exported password")
    both = cli.in_process(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "both@example.com",
        "--name",
        "Both",
        "--password",
        "another long password",
        env={"HOMEBASE_ADMIN_PASSWORD": "an exported password"},
    )
    assert "not --password and HOMEBASE_ADMIN_PASSWORD" in assert_failed(both)


async def test_create_api_key_prints_a_working_key(cli, workspace):
    before = datetime.now(UTC)
    created = cli.ok(
        "admin",
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        "contacts:read leads:read",
        "--name",
        "CI key",
    )
    assert set(created) >= {"id", "key", "scopes", "expires_at"}
    assert created["id"].startswith("key_") and created["key"].startswith("hbk_")
    assert created["scopes"] == ["contacts:read", "leads:read"]
    expires = parse_time(created["expires_at"])  # the default lifetime: 90 days
    assert before + timedelta(days=89) < expires < datetime.now(UTC) + timedelta(days=91)

    ping = await cli.get(created["key"], "/v1/ping")
    assert ping.status_code == 200, ping.text
    assert ping.json()["tenant_id"] == workspace["id"]
    assert ping.json()["scopes"] == ["contacts:read", "leads:read"]

    short = cli.quick(
        "admin",
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        "listings:read",
        "--expires-in-days",
        "7",
    )
    assert abs(parse_time(short["expires_at"]) - (before + timedelta(days=7))) < timedelta(
        minutes=5
    )


async def test_expires_in_days_zero_makes_an_already_expired_key(cli, workspace):
    created = cli.ok(
        "admin",
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        "contacts:read",
        "--expires-in-days",
        "0",
    )
    assert parse_time(created["expires_at"]) <= datetime.now(UTC)
    ping = await cli.get(created["key"], "/v1/ping")
    assert ping.status_code == 401
    assert "expired" in ping.json()["error"]["message"]


async def test_revoke_api_key(cli, workspace):
    created = cli.quick(
        "admin", "create-api-key", "--workspace", workspace["id"], "--scopes", "contacts:read"
    )
    assert (await cli.get(created["key"], "/v1/ping")).status_code == 200
    assert cli.ok("admin", "revoke-api-key", "--id", created["id"]) == {
        "id": created["id"],
        "revoked": True,
    }
    ping = await cli.get(created["key"], "/v1/ping")
    assert ping.status_code == 401
    assert "revoked" in ping.json()["error"]["message"]


def test_add_sender_number(cli, workspace):
    added = cli.ok(
        "admin",
        "add-sender-number",
        "--workspace",
        workspace["id"],
        "--number",
        "+14155550188",
        "--channel",
        "sms",
        "--a2p-status",
        "pending",
    )
    assert added["id"].startswith("snd_")
    row = cli.row("sender_numbers", added["id"])
    assert (row["workspace_id"], row["number"], row["channel"], row["a2p_status"]) == (
        workspace["id"],
        "+14155550188",
        "sms",
        "pending",
    )


def test_simulate_inbound_records_a_text_as_the_provider_callback_would(cli):
    target = cli.quick("admin", "create-workspace", "--name", "Inbound Realty")
    refused = cli.in_process(
        "admin", "simulate-inbound", "--workspace", target["id"],
        "--from", "+14155550142", "--body", "hi",
    )  # fmt: skip
    assert refused.returncode == 1
    assert "no SMS number to receive on" in refused.stderr
    cli.quick(
        "admin", "add-sender-number", "--workspace", target["id"],
        "--number", "+14155550100", "--channel", "sms", "--a2p-status", "approved",
    )  # fmt: skip
    recorded = cli.quick(
        "admin", "simulate-inbound", "--workspace", target["id"],
        "--from", "+1 415 555 0142", "--body", "hi there",
    )  # fmt: skip
    assert recorded["keyword_reply"] is None and recorded["contact_id"] is None
    row = cli.row("messages", recorded["message_id"])
    assert (row["direction"], row["status"], row["from_address"], row["to_address"]) == (
        "INBOUND",
        "RECEIVED",
        "+14155550142",
        "+14155550100",
    )
    stop = cli.quick(
        "admin", "simulate-inbound", "--workspace", target["id"],
        "--from", "+14155550142", "--body", "STOP",
    )  # fmt: skip
    assert "unsubscribed" in stop["keyword_reply"]
    bad = cli.in_process(
        "admin", "simulate-inbound", "--workspace", target["id"], "--from", "nope", "--body", "x"
    )
    assert bad.returncode == 1 and "is not a phone number" in bad.stderr


def test_load_fixtures_prints_the_ids_it_created_by_kind(cli, tmp_path):
    target = cli.quick("admin", "create-workspace", "--name", "Fixture Realty")
    document = {
        "members": [{"ref": "ana", "email": "ana@fixture.example", "name": "Ana"}],
        "sender_numbers": [{"number": "+14155550177", "channel": "whatsapp"}],
        "contacts": [
            {"first_name": "Dana", "stage": "HOT_LEAD", "owner": "ana"},
            {"first_name": "Sam", "tags": ["seller"]},
        ],
    }
    path = tmp_path / "fixtures.json"
    path.write_text(json.dumps(document))
    created = cli.ok("admin", "load-fixtures", "--workspace", target["id"], str(path))
    assert {kind: len(ids) for kind, ids in created.items()} == {
        "members": 1,
        "sender_numbers": 1,
        "contacts": 2,
    }
    dana = cli.row("contacts", created["contacts"][0])
    assert (dana["workspace_id"], dana["first_name"], dana["owner_id"]) == (
        target["id"],
        "Dana",
        created["members"][0],
    )
    assert cli.count("contacts", target["id"]) == 2


async def test_seed_demo(cli):
    seeded = cli.ok("admin", "seed-demo")
    assert seeded["workspace"]["status"] == "active"
    assert seeded["api_key"]["scopes"] == list(ALL_SCOPES)
    assert seeded["created"]["contacts"] and seeded["created"]["members"]
    assert len(seeded["created"]["messages"]) == 1 and len(seeded["created"]["tasks"]) == 1
    workspace_id = seeded["workspace"]["id"]
    for contact_id in seeded["created"]["contacts"]:
        assert cli.row("contacts", contact_id)["workspace_id"] == workspace_id

    listed = await cli.get(seeded["api_key"]["key"], "/v1/contacts?limit=200")
    assert listed.status_code == 200, listed.text
    assert set(seeded["created"]["contacts"]) <= {c["id"] for c in listed.json()["data"]}
    for path, kind in (
        ("/v1/messages", "messages"),
        ("/v1/tasks", "tasks"),
        ("/v1/appointments", "appointments"),
        ("/v1/automations", "automations"),
    ):
        page = await cli.get(seeded["api_key"]["key"], path)
        assert page.status_code == 200, page.text
        assert {item["id"] for item in page.json()["data"]} >= set(seeded["created"][kind])
    # One responder persona, with everything the AI needs, and listings with their pages.
    personas = (await cli.get(seeded["api_key"]["key"], "/v1/personas")).json()["data"]
    (responder,) = [persona for persona in personas if persona["responder"]]
    assert responder["instructions"] and "commission" in responder["instructions"]
    assert responder["disclosure"].startswith("Automated assistant for Maya Chen")
    assert responder["handoff_reply"] and responder["phone"] == "+14155550100"
    assert responder["handoff_assignee"] == seeded["created"]["members"][0]
    assert responder["links"] == ["https://www.demo-realty.example/"]
    listings = (await cli.get(seeded["api_key"]["key"], "/v1/listings")).json()["data"]
    assert listings and all(item["url"].startswith("https://") for item in listings)


# --- Commands that fail: one line on stderr, non-zero exit, nothing written ---------------

NO_SUCH = "wsp_doesnotexist"
BAD_THIRD_ITEM = {
    "members": [{"ref": "bo", "email": "bo@fixture.example", "name": "Bo"}],
    "contacts": [
        {"first_name": "One", "owner": "bo"},
        {"first_name": "Two"},
        {"first_name": "Three", "stage": "NOT_A_STAGE"},
    ],
}
FILES = {
    "bad-third-item.json": json.dumps(BAD_THIRD_ITEM),
    "not-json.json": "{not json",
    "a-list.json": "[]",
    "unknown-kind.json": json.dumps({"contacts": [{"first_name": "X"}], "spaceships": []}),
    "bad-ref.json": json.dumps({"contacts": [{"first_name": "X", "owner": "nobody"}]}),
    "non-member-owner.json": json.dumps(
        {"contacts": [{"first_name": "X"}, {"first_name": "Y", "owner": "usr_nobody"}]}
    ),
}

# name -> (arguments, with {ws} for the failure workspace and {dir} for its files;
#          a fragment the one-line reason names)
FAILURES = {
    "create-user unknown workspace": (
        ["create-user", "--workspace", NO_SUCH, "--email", "a@b.example", "--name", "A"],
        NO_SUCH,
    ),
    "create-user duplicate email": (
        ["create-user", "--workspace", "{ws}", "--email", "Only@Member.example", "--name", "B"],
        "already a member",
    ),
    "create-user bad email": (
        ["create-user", "--workspace", "{ws}", "--email", "not-an-email", "--name", "C"],
        "email",
    ),
    "create-user short password": (
        [
            "create-user",
            "--workspace",
            "{ws}",
            "--email",
            "d@b.example",
            "--name",
            "D",
            "--password",
            "short-pw",
        ],
        "the password must be at least 12 characters",
    ),
    "create-user common password": (
        [
            "create-user",
            "--workspace",
            "{ws}",
            "--email",
            "e@b.example",
            "--name",
            "E",
            "--password",
            "Password1234",
        ],
        "the password is one of the most common passwords",
    ),
    "create-user password is the email": (
        [
            "create-user",
            "--workspace",
            "{ws}",
            "--email",
            "long-name@b.example",
            "--name",
            "F",
            "--password",
            " Long-Name@B.example ",
        ],
        "the password must not be the email address",
    ),
    "create-user two password sources": (
        [
            "create-user",
            "--workspace",
            "{ws}",
            "--email",
            "g@b.example",
            "--name",
            "G",
            "--password",
            "a fine long password",
            "--password-stdin",
        ],
        "give the password one way, not --password and --password-stdin",
    ),
    "set-password nothing on stdin": (
        ["set-password", "--workspace", "{ws}", "--email", "only@member.example"],
        "no password on standard input",
    ),
    "set-password unknown workspace": (
        ["set-password", "--workspace", NO_SUCH, "--email", "only@member.example"],
        NO_SUCH,
    ),
    "remove-member unknown email": (
        ["remove-member", "--workspace", "{ws}", "--email", "nobody@member.example"],
        "no member nobody@member.example in workspace",
    ),
    "remove-member unknown workspace": (
        ["remove-member", "--workspace", NO_SUCH, "--email", "only@member.example"],
        NO_SUCH,
    ),
    "create-api-key unknown workspace": (
        ["create-api-key", "--workspace", NO_SUCH, "--scopes", "contacts:read"],
        NO_SUCH,
    ),
    "create-api-key unknown scope": (
        ["create-api-key", "--workspace", "{ws}", "--scopes", "contacts:read contacts:fly"],
        "contacts:fly",
    ),
    "create-api-key negative days": (
        [
            "create-api-key",
            "--workspace",
            "{ws}",
            "--scopes",
            "contacts:read",
            "--expires-in-days",
            "-1",
        ],
        "expires-in-days",
    ),
    "set-workspace-status bad status": (
        ["set-workspace-status", "--workspace", "{ws}", "--status", "closed"],
        "closed",
    ),
    "set-workspace-status unknown workspace": (
        ["set-workspace-status", "--workspace", NO_SUCH, "--status", "active"],
        NO_SUCH,
    ),
    "set-workspace-time-zone not a zone": (
        ["set-workspace-time-zone", "--workspace", "{ws}", "--time-zone", "EST5EDT-ish"],
        "EST5EDT-ish",
    ),
    "set-workspace-time-zone unknown workspace": (
        ["set-workspace-time-zone", "--workspace", NO_SUCH, "--time-zone", "UTC"],
        NO_SUCH,
    ),
    "revoke-api-key unknown key": (
        ["revoke-api-key", "--id", "key_doesnotexist"],
        "key_doesnotexist",
    ),
    "add-sender-number bad number": (
        [
            "add-sender-number",
            "--workspace",
            "{ws}",
            "--number",
            "555-0100",
            "--channel",
            "sms",
            "--a2p-status",
            "approved",
        ],
        "E.164",
    ),
    "add-sender-number bad channel": (
        [
            "add-sender-number",
            "--workspace",
            "{ws}",
            "--number",
            "+14155550100",
            "--channel",
            "fax",
            "--a2p-status",
            "approved",
        ],
        "fax",
    ),
    "add-sender-number unknown workspace": (
        [
            "add-sender-number",
            "--workspace",
            NO_SUCH,
            "--number",
            "+14155550100",
            "--channel",
            "sms",
            "--a2p-status",
            "approved",
        ],
        NO_SUCH,
    ),
    "load-fixtures unknown workspace": (
        ["load-fixtures", "--workspace", NO_SUCH, "{dir}/bad-ref.json"],
        NO_SUCH,
    ),
    "load-fixtures missing file": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/nowhere.json"],
        "nowhere.json",
    ),
    "load-fixtures not json": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/not-json.json"],
        "not-json.json",
    ),
    "load-fixtures not an object": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/a-list.json"],
        "object",
    ),
    "load-fixtures unknown kind": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/unknown-kind.json"],
        "spaceships",
    ),
    "load-fixtures unknown ref": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/bad-ref.json"],
        "nobody",
    ),
    "load-fixtures owner not a member": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/non-member-owner.json"],
        "contacts[1].owner_id: is not a member of this workspace",
    ),
    "load-fixtures invalid third item": (
        ["load-fixtures", "--workspace", "{ws}", "{dir}/bad-third-item.json"],
        "contacts[2]",
    ),
}


# The same refusals through the real console script, all at once: exit status, stdout and
# stderr as an operator's script sees them.
IN_A_SUBPROCESS = [
    "create-user unknown workspace",
    "create-api-key unknown scope",
    "set-workspace-status bad status",
    "load-fixtures not json",
    "load-fixtures invalid third item",
]


@pytest.fixture(scope="module")
def failures(cli, tmp_path_factory) -> dict:
    """Every failing command of FAILURES run in-process, the IN_A_SUBPROCESS ones also as
    `homebase` processes, and the workspace they fail in: it holds one member and nothing
    else, before and after."""
    target = cli.quick("admin", "create-workspace", "--name", "Failure Realty")
    cli.quick(
        "admin",
        "create-user",
        "--workspace",
        target["id"],
        "--email",
        "only@member.example",
        "--name",
        "Only",
    )
    directory = tmp_path_factory.mktemp("fixture-files")
    for name, content in FILES.items():
        (directory / name).write_text(content)
    argvs = {
        name: ["admin", *(a.format(ws=target["id"], dir=directory) for a in args)]
        for name, (args, _) in FAILURES.items()
    }
    started: dict[str, subprocess.Popen] = {}
    try:
        for name in IN_A_SUBPROCESS:
            started[name] = cli.start(*argvs[name])
        in_process = {name: cli.in_process(*argv) for name, argv in argvs.items()}
        subprocesses = {name: finish(process, argvs[name]) for name, process in started.items()}
    finally:
        for process in started.values():
            if process.poll() is None:
                process.kill()
                process.communicate()
    return {"workspace": target, "in_process": in_process, "subprocess": subprocesses}


@pytest.mark.parametrize("name", list(FAILURES))
def test_a_failing_command_prints_one_line_and_exits_non_zero(failures, name):
    done = failures["in_process"][name]
    reason = assert_failed(done)
    assert FAILURES[name][1] in reason, reason
    assert reason.startswith("error: ")


@pytest.mark.parametrize("name", IN_A_SUBPROCESS)
def test_a_failing_console_script_prints_one_line_and_exits_non_zero(failures, name):
    done = failures["subprocess"][name]
    reason = assert_failed(done)
    assert FAILURES[name][1] in reason, reason
    assert reason == assert_failed(failures["in_process"][name])


def test_failures_leave_nothing_half_written(cli, failures):
    workspace_id = failures["workspace"]["id"]
    assert cli.count("users", workspace_id) == 1  # the member made before
    for table in ("contacts", "api_keys", "sender_numbers"):
        assert cli.count(table, workspace_id) == 0, table
    assert cli.row("workspaces", workspace_id)["status"] == "active"


# --- `homebase serve --demo` ---------------------------------------------------------------


class Server:
    """`homebase serve --demo` in `directory`, with the default database (./var) and no
    HOMEBASE_* settings but a generous write timeout (the demo is seeded in one write
    transaction, which a loaded machine took past the default 3 s): what `make run` does."""

    def __init__(self, directory: Path):
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        # Its port file is written before it migrates or prints: the pipe is still empty.
        started = start_serve(
            directory,
            clean_env(**GENEROUS_WRITES),
            "--demo",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.process, self.base = started.process, started.base_url
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:  # ends when the process closes its output
            self.lines.put(line)

    def _key(self) -> str | None:
        """The key, once a line printed so far is one (the output read so far kept)."""
        while not self.lines.empty():
            line = self.lines.get()
            self.output.append(line)
            found = re.fullmatch(r"\s*(hbk_\S+)\s*", line)
            if found:
                return found.group(1)
        if self.process.poll() is not None:
            pytest.fail("serve exited:\n" + "".join(self.output))
        return None

    def wait_for_key(self, timeout: float = 60) -> str:
        return until(self._key, timeout, what=lambda: "".join(self.output))

    def wait_until_healthy(self) -> None:
        wait_until_healthy(self.base, self.process, None)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.reader.join(timeout=5)


def test_serve_demo_prints_a_working_key_and_the_same_one_next_time(tmp_path):
    keys = []
    for _ in range(2):
        server = Server(tmp_path)
        try:
            key = server.wait_for_key()
            server.wait_until_healthy()
            headers = {"Authorization": f"token {key}"}
            ping = httpx.get(f"{server.base}/v1/ping", headers=headers, timeout=10)
            assert ping.status_code == 200, ping.text
            assert ping.json()["scopes"] == list(ALL_SCOPES)
            contacts = httpx.get(f"{server.base}/v1/contacts", headers=headers, timeout=10)
            assert contacts.status_code == 200, contacts.text
            assert len(contacts.json()["data"]) >= 1
            keys.append(key)
        finally:
            server.stop()
    assert keys[0] == keys[1]
    var = tmp_path / "var"
    assert (var / "homebase.sqlite3").exists()
    assert (var / "demo.json").stat().st_mode & 0o077 == 0
    assert (var / "secret_key").stat().st_mode & 0o077 == 0


def test_serve_demo_replaces_a_saved_key_that_was_revoked(tmp_path):
    """var/demo.json keeps the key; once it no longer works the next start prints a new
    one for the same workspace instead of a dead key."""
    runs = []
    for revoke in (True, False):
        server = Server(tmp_path)
        try:
            key = server.wait_for_key()
            server.wait_until_healthy()
            ping = httpx.get(
                f"{server.base}/v1/ping", timeout=10, headers={"Authorization": f"token {key}"}
            )
            assert ping.status_code == 200, ping.text
            runs.append((key, ping.json()["tenant_id"]))
        finally:
            server.stop()
        if revoke:
            revoked = subprocess.run(
                [str(HOMEBASE), "admin", "revoke-api-key", "--id", ping.json()["credential_id"]],
                env=clean_env(),
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert revoked.returncode == 0, revoked.stderr
    (first_key, first_workspace), (second_key, second_workspace) = runs
    assert second_key != first_key
    assert second_workspace == first_workspace


def _controlling_terminal() -> None:
    """In the child: standard input (the pty) becomes the controlling terminal, which
    getpass opens as /dev/tty."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def test_set_password_asks_twice_without_echo_on_a_terminal(cli, workspace):
    user = cli.quick(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "tty@example.com",
        "--name",
        "Tty",
    )
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [
            str(HOMEBASE),
            "admin",
            "set-password",
            "--workspace",
            workspace["id"],
            "--email",
            "tty@example.com",
        ],
        env=cli.env,
        cwd=cli.directory,
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_controlling_terminal,
    )
    os.close(terminal)
    seen = b""
    try:
        for prompt in (b"New password: ", b"Repeat for confirmation: "):

            def prompted(prompt: bytes = prompt) -> bool:
                nonlocal seen
                if select.select([controller], [], [], 0.1)[0]:
                    seen += os.read(controller, 1024)
                return prompt in seen

            until(prompted, 60, every=0, what=lambda: f"the prompt: {seen!r}")
            os.write(controller, b"typed at the terminal\n")
        done = finish(process, ["set-password"])
    finally:
        os.close(controller)
    assert assert_ok(done) == {"id": user["id"], "password_changed": True, "sessions_ended": 0}
    assert b"typed at the terminal" not in seen  # not echoed
    assert _password_of(cli, user["id"], "typed at the terminal")
