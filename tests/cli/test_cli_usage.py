"""The `homebase` command table (homebase/cli/, Click) against ../shared/CONTRACT.md: every
command takes the options the contract names; a usage error (unknown command or option,
missing option, bad value) is exit 2 with exactly one line on stderr and nothing on stdout;
`--help` exits 0. Nothing here reaches a database: parsing comes before any command runs.

What commands print when they run is tests/cli/test_cli.py's."""

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from homebase.cli.admin import admin
from homebase.root.main import homebase, main
from tests.cli.test_cli import HOMEBASE, clean_env, finish


def run(*argv: str) -> subprocess.CompletedProcess:
    """main(), as the console script calls it, in this process."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(stdout), redirect_stderr(stderr):
        try:
            main(list(argv))
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(list(argv), code, stdout.getvalue(), stderr.getvalue())


def usage_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, f"{done.args}: exit {done.returncode}\n{done.stderr}"
    assert done.stdout == "", f"{done.args}: printed on stdout: {done.stdout}"
    lines = done.stderr.splitlines()
    assert len(lines) == 1, f"{done.args}: stderr is not one line:\n{done.stderr}"
    assert lines[0].startswith("error: homebase"), lines[0]
    return lines[0]


# Every command of the table: a command line it refuses as a usage error, and what the
# one line must name (the command and the option or argument at fault).
USAGE_ERRORS = {
    "migrate": (["migrate", "extra"], "extra"),
    "serve": (["serve", "--port", "eighty"], "--port"),
    "worker": (["worker", "--no-worker"], "--no-worker"),
    "admin create-workspace": (["admin", "create-workspace"], "--name"),
    "admin set-workspace-status": (
        ["admin", "set-workspace-status", "--workspace", "wsp_1"],
        "--status",
    ),
    "admin set-workspace-time-zone": (
        ["admin", "set-workspace-time-zone", "--workspace", "wsp_1"],
        "--time-zone",
    ),
    "admin create-user": (
        ["admin", "create-user", "--workspace", "wsp_1", "--name", "N"],
        "--email",
    ),
    "admin set-password": (["admin", "set-password", "--workspace", "wsp_1"], "--email"),
    "admin remove-member": (["admin", "remove-member", "--email", "a@b.example"], "--workspace"),
    "admin create-api-key": (["admin", "create-api-key", "--workspace", "wsp_1"], "--scopes"),
    "admin revoke-api-key": (["admin", "revoke-api-key"], "--id"),
    "admin add-sender-number": (
        [
            "admin",
            "add-sender-number",
            "--workspace",
            "wsp_1",
            "--number",
            "+14155550100",
            "--channel",
            "sms",
        ],
        "--a2p-status",
    ),
    "admin load-fixtures": (["admin", "load-fixtures", "--workspace", "wsp_1"], "FILE"),
    "admin create-oauth-client": (
        ["admin", "create-oauth-client", "--name", "N"],
        "--redirect-uri",
    ),
    "admin authorize-app": (
        ["admin", "authorize-app", "--workspace", "wsp_1", "--scopes", "contacts:read"],
        "--client-id",
    ),
    "admin revoke-app": (["admin", "revoke-app", "--client-id", "app_1"], "--workspace"),
    "admin seed-demo": (["admin", "seed-demo", "--name", "x"], "--name"),
    "admin connect-calendar": (
        [
            "admin",
            "connect-calendar",
            "--user",
            "usr_1",
            "--url",
            "https://c.example/",
            "--username",
            "u",
        ],
        "--password",
    ),
    "admin emit-event": (
        ["admin", "emit-event", "--workspace", "wsp_1", "--type", "document.signed"],
        "--data",
    ),
    "admin rotate-secrets": (["admin", "rotate-secrets", "now"], "now"),
    "admin place-ai-call": (["admin", "place-ai-call", "--workspace", "wsp_1"], "--contact"),
    "admin simulate-inbound": (
        ["admin", "simulate-inbound", "--workspace", "wsp_1", "--from", "+14155550142"],
        "--body",
    ),
}


def test_every_command_of_the_table_has_a_usage_error_case():
    table = {name for name in homebase.commands if name != "admin"}
    table |= {f"admin {name}" for name in admin.commands}
    assert table == set(USAGE_ERRORS)


@pytest.mark.parametrize("name", list(USAGE_ERRORS))
def test_a_usage_error_is_one_line_and_exit_2(name):
    argv, names = USAGE_ERRORS[name]
    line = usage_line(run(*argv))
    assert line.startswith(f"error: homebase {name}: "), line
    assert names in line, line
    assert line.endswith(f"Try 'homebase {name} --help'."), line


@pytest.mark.parametrize(
    "argv, names",
    [
        (["admin", "set-workspace-status", "--workspace", "w", "--status", "closed"], "closed"),
        (
            [
                "admin",
                "add-sender-number",
                "--workspace",
                "w",
                "--number",
                "+14155550100",
                "--channel",
                "fax",
                "--a2p-status",
                "approved",
            ],
            "fax",
        ),
        (
            [
                "admin",
                "add-sender-number",
                "--workspace",
                "w",
                "--number",
                "+14155550100",
                "--channel",
                "sms",
                "--a2p-status",
                "maybe",
            ],
            "maybe",
        ),
        (
            [
                "admin",
                "create-api-key",
                "--workspace",
                "w",
                "--scopes",
                "contacts:read",
                "--expires-in-days",
                "-1",
            ],
            "--expires-in-days",
        ),
        (
            [
                "admin",
                "create-api-key",
                "--workspace",
                "w",
                "--scopes",
                "contacts:read",
                "--expires-in-days",
                "soon",
            ],
            "soon",
        ),
        (["admin", "create-workspace", "--name"], "--name"),  # an option without its value
        (["serve", "--workers", "0"], "--workers"),
        (["serve", "--log-level", "loud"], "loud"),
        (["admin", "create-workspace", "--name", "N", "--colour", "blue"], "--colour"),
        # set-password takes no password argument: stdin or HOMEBASE_ADMIN_PASSWORD only.
        (
            ["admin", "set-password", "--workspace", "w", "--email", "a@b.example", "--password"],
            "--password",
        ),
        (
            [
                "admin",
                "create-user",
                "--workspace",
                "w",
                "--email",
                "a@b.example",
                "--name",
                "A",
                "--password-stdin",
                "yes",
            ],
            "yes",
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else value,
)
def test_a_bad_value_or_unknown_option_is_a_usage_error(argv, names):
    line = usage_line(run(*argv))
    assert names in line, line


@pytest.mark.parametrize(
    "argv, names",
    [
        ([], "Missing command"),
        (["serv"], "'serv'"),
        (["admin"], "Missing command"),
        (["admin", "create-workspaces", "--name", "N"], "'create-workspaces'"),
        (["--version"], "--version"),
    ],
)
def test_an_unknown_or_missing_command_is_a_usage_error(argv, names):
    line = usage_line(run(*argv))
    assert names in line, line


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["-h"],
        ["admin", "--help"],
        *[[*name.split(), "--help"] for name in USAGE_ERRORS],
    ],
    ids=" ".join,
)
def test_help_exits_0_and_prints_usage(argv):
    done = run(*argv)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith(f"Usage: homebase {' '.join(argv[:-1])}".rstrip())


# The contract's command lines, every option given: Click parses each into these values
# (without running it).
CONTRACT_LINES = [
    (["migrate"], {}),
    (
        ["serve", "--host", "0.0.0.0", "--port", "8080", "--workers", "3", "--no-worker"],
        {"host": "0.0.0.0", "port": 8080, "workers": 3, "no_worker": True},
    ),
    (["worker"], {}),
    (["admin", "create-workspace", "--name", "Acme"], {"name": "Acme"}),
    (
        ["admin", "set-workspace-status", "--workspace", "wsp_1", "--status", "suspended"],
        {"workspace": "wsp_1", "status": "suspended"},
    ),
    (
        [
            "admin",
            "create-user",
            "--workspace",
            "wsp_1",
            "--email",
            "a@b.example",
            "--name",
            "A",
            "--password",
            "a long enough password",
            "--office",
            "off_1",
            "--team",
            "team_1",
        ],
        {
            "workspace": "wsp_1",
            "email": "a@b.example",
            "name": "A",
            "password": "a long enough password",
            "password_stdin": False,
            "office": "off_1",
            "team": "team_1",
        },
    ),
    (
        [
            "admin",
            "create-api-key",
            "--workspace",
            "wsp_1",
            "--scopes",
            "contacts:read leads:read",
            "--name",
            "CI",
            "--expires-in-days",
            "0",
        ],
        {
            "workspace": "wsp_1",
            "scopes": "contacts:read leads:read",
            "name": "CI",
            "expires_in_days": 0,
        },
    ),
    (
        [
            "admin",
            "create-user",
            "--workspace",
            "w",
            "--email",
            "a@b.c",
            "--name",
            "A",
            "--password-stdin",
        ],
        {"password": None, "password_stdin": True},
    ),
    (
        ["admin", "set-password", "--workspace", "wsp_1", "--email", "a@b.example"],
        {"workspace": "wsp_1", "email": "a@b.example"},
    ),
    (
        ["admin", "remove-member", "--workspace", "wsp_1", "--email", "a@b.example"],
        {"workspace": "wsp_1", "email": "a@b.example"},
    ),
    (["admin", "revoke-api-key", "--id", "key_1"], {"key_id": "key_1"}),
    (
        [
            "admin",
            "add-sender-number",
            "--workspace",
            "wsp_1",
            "--number",
            "+14155550100",
            "--channel",
            "whatsapp",
            "--a2p-status",
            "rejected",
        ],
        {
            "workspace": "wsp_1",
            "number": "+14155550100",
            "channel": "whatsapp",
            "a2p_status": "rejected",
        },
    ),
    (
        ["admin", "load-fixtures", "--workspace", "wsp_1", "demo.json"],
        {"workspace": "wsp_1", "file": "demo.json"},
    ),
    (
        [
            "admin",
            "create-oauth-client",
            "--name",
            "Zap",
            "--redirect-uri",
            "https://a/cb",
            "--redirect-uri",
            "http://127.0.0.1/cb",
        ],
        {"name": "Zap", "redirect_uris": ("https://a/cb", "http://127.0.0.1/cb")},
    ),
    (
        [
            "admin",
            "authorize-app",
            "--workspace",
            "wsp_1",
            "--client-id",
            "app_1",
            "--scopes",
            "contacts:read",
        ],
        {"workspace": "wsp_1", "client_id": "app_1", "scopes": "contacts:read"},
    ),
    (
        ["admin", "revoke-app", "--workspace", "wsp_1", "--client-id", "app_1"],
        {"workspace": "wsp_1", "client_id": "app_1"},
    ),
    (["admin", "seed-demo"], {}),
]


@pytest.mark.parametrize(
    "argv, values",
    CONTRACT_LINES,
    ids=lambda value: " ".join(value[:2]) if isinstance(value, list) else "",
)
def test_the_contract_command_lines_parse(argv, values):
    group, words = (admin, argv[1:]) if argv[0] == "admin" else (homebase, argv)
    command = group.commands[words[0]]
    with command.make_context(words[0], list(words[1:])) as context:
        assert {name: context.params[name] for name in values} == values


def test_the_defaults_the_docs_state():
    with homebase.commands["serve"].make_context("serve", []) as context:
        assert context.params == {
            "host": "127.0.0.1",
            "port": 8000,
            "workers": 1,
            "no_worker": False,
            "demo": False,
            "log_level": "info",
            "port_file": None,
        }
    create_key = admin.commands["create-api-key"]
    with create_key.make_context("create-api-key", ["--workspace", "w", "--scopes", "s"]) as c:
        assert (c.params["name"], c.params["expires_in_days"]) == ("API key", None)


def test_the_console_script_and_python_m_homebase(tmp_path):
    """Both entry points, as processes: usage error, unknown command and --help. Settings
    are not read before a command runs, so a bad HOMEBASE_* value does not hide them."""
    env = clean_env(HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="lots")
    entry_points = {
        "console script": [str(HOMEBASE)],
        "python -m homebase": [sys.executable, "-m", "homebase"],
    }
    cases = {
        "usage": ["admin", "create-user", "--workspace", "wsp_1"],
        "unknown": ["admin", "drop-everything"],
        "help": ["--help"],
        "settings": ["admin", "seed-demo"],
    }
    started = {
        (entry, case): subprocess.Popen(
            [*command, *argv],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for entry, command in entry_points.items()
        for case, argv in cases.items()
    }
    done = {key: finish(process, [*key]) for key, process in started.items()}
    for entry in entry_points:
        assert "--email" in usage_line(done[entry, "usage"])
        assert "'drop-everything'" in usage_line(done[entry, "unknown"])
        help_ = done[entry, "help"]
        assert help_.returncode == 0 and help_.stderr == "", help_.stderr
        assert help_.stdout.startswith("Usage: homebase ")
        assert all(name in help_.stdout for name in ("migrate", "serve", "worker", "admin"))
        refused = done[entry, "settings"]  # a command that runs reads the settings first
        assert refused.returncode == 1 and refused.stdout == "", refused.stdout
        assert refused.stderr.splitlines() == [
            "error: HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN: Input should be a valid integer, "
            "unable to parse string as an integer"
        ]
    assert not (tmp_path / "var").exists()  # nothing ran
