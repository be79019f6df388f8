"""The first-run checklist of docs/operations.md ("First run"), run as written, twice in a
row: each command's first run succeeds, and its second does what the page says (another
workspace, the member refused in one line, a second key, the same sender number)."""

import re
import shlex
from pathlib import Path

from tests.cli.test_cli import Cli, assert_failed, assert_ok

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def checklist() -> list[list[str]]:
    """The `homebase ...` command lines of the section's shell block, continuations joined."""
    section = OPERATIONS.read_text().split("### First run", 1)[1].split("\n### ", 1)[0]
    [block] = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = block.replace("\\\n", " ")
    return [shlex.split(line)[1:] for line in commands.splitlines() if line.startswith("homebase ")]


def test_the_checklist_names_the_four_commands():
    assert [argv[:2] for argv in checklist()] == [
        ["admin", "create-workspace"],
        ["admin", "create-user"],
        ["admin", "create-api-key"],
        ["admin", "add-sender-number"],
    ]


async def test_the_first_run_checklist_twice(tmp_path):
    cli = Cli(tmp_path)
    assert_ok(cli.in_process("migrate"))
    create_workspace, *rest = checklist()
    runs = []
    for _ in range(2):
        workspace = assert_ok(cli.in_process(*create_workspace))["id"]
        runs.append(workspace)
    assert runs[0] != runs[1]  # names are not unique: a second workspace
    workspace = runs[0]

    def run(argv: list[str]):
        values = {"$WORKSPACE": workspace, "$DANA_PASSWORD": "a long passphrase, 2026"}
        return cli.in_process(*(values.get(word, word) for word in argv))

    create_user, create_key, add_number = rest
    user = assert_ok(run(create_user))
    assert user["email"] == "dana@acme.example"
    refused = assert_failed(run(create_user))
    assert refused == "error: dana@acme.example is already a member of this workspace"
    assert cli.count("users", workspace) == 1

    keys = [assert_ok(run(create_key)) for _ in range(2)]
    assert keys[0]["id"] != keys[1]["id"]
    for key in keys:  # the first still works after the second is made
        assert (await cli.get(key["key"], "/v1/ping")).status_code == 200

    numbers = [assert_ok(run(add_number)) for _ in range(2)]
    assert numbers[0] == numbers[1]
    assert numbers[0]["a2p_status"] == "approved" and numbers[0]["channel"] == "sms"
    assert cli.count("sender_numbers", workspace) == 1
