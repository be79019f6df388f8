"""`homebase admin connect-calendar`: one JSON object on success (never the password),
one line on stderr and nothing written on failure; reconnecting replaces the calendar."""

import pytest

from homebase.calendars.service import open_credentials
from homebase.kit.keys import Keyring
from tests.cli.test_cli import SECRET, Cli, assert_failed, assert_ok


@pytest.fixture(scope="module")
def cli(tmp_path_factory) -> Cli:
    cli = Cli(tmp_path_factory.mktemp("calendar-cli"))
    cli.quick("migrate")
    return cli


@pytest.fixture(scope="module")
def member(cli) -> dict:
    workspace = cli.quick("admin", "create-workspace", "--name", "Calendar Realty")
    user = cli.quick(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "maya@example.com",
        "--name",
        "Maya",
    )
    return {"workspace_id": workspace["id"], "user_id": user["id"]}


def connect_args(
    user_id: str, url: str = "https://cal.example.com/maya/work", password: str = "hunter2"
) -> list[str]:
    return [
        "admin",
        "connect-calendar",
        "--user",
        user_id,
        "--url",
        url,
        "--username",
        "maya",
        "--password",
        password,
    ]


def test_connect_prints_the_calendar_without_the_password(cli, member):
    done = cli.run(*connect_args(member["user_id"]))  # the real console script
    printed = assert_ok(done)
    assert printed == {
        "id": printed["id"],
        "workspace_id": member["workspace_id"],
        "user_id": member["user_id"],
        "url": "https://cal.example.com/maya/work/",
        "username": "maya",
        "connected": True,
    }
    assert "hunter2" not in done.stdout + done.stderr
    row = cli.row("member_calendars", printed["id"])
    assert "hunter2" not in row["credentials_sealed"]
    credentials = open_credentials(Keyring(SECRET), printed["id"], sealed=row["credentials_sealed"])
    assert (credentials.username, credentials.password) == ("maya", "hunter2")

    # Reconnecting replaces it in place (queued pushes follow the same row).
    again = cli.quick(
        *connect_args(
            member["user_id"], url="http://10.1.2.3:5232/maya/cal/", password="new-password"
        )
    )
    assert again["id"] == printed["id"] and again["url"] == "http://10.1.2.3:5232/maya/cal/"
    assert cli.count("member_calendars", member["workspace_id"]) == 1
    row = cli.row("member_calendars", printed["id"])
    assert (
        open_credentials(Keyring(SECRET), printed["id"], sealed=row["credentials_sealed"]).password
        == "new-password"
    )


@pytest.mark.parametrize(
    "args, reason",
    [
        (["--url", "ftp://cal.example.com/x/"], "http or https"),
        (["--url", "https://maya:pw@cal.example.com/x/"], "credentials"),
        (["--user", "usr_nobody"], "no member usr_nobody"),
    ],
)
def test_failures_are_one_line_and_write_nothing(cli, member, args, reason):
    workspace = cli.quick("admin", "create-workspace", "--name", "Empty Realty")
    user = cli.quick(
        "admin",
        "create-user",
        "--workspace",
        workspace["id"],
        "--email",
        "solo@example.com",
        "--name",
        "Solo",
    )
    values = dict(zip(connect_args(user["id"])[2::2], connect_args(user["id"])[3::2], strict=True))
    values.update(dict(zip(args[::2], args[1::2], strict=True)))
    line = assert_failed(
        cli.in_process(
            "admin", "connect-calendar", *[item for pair in values.items() for item in pair]
        )
    )
    assert reason in line
    assert cli.count("member_calendars", workspace["id"]) == 0
