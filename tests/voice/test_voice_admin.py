"""The operator's side of AI calls (docs/voice.md, "Settings"): `create-user --phone`,
`add-sender-number --voice` and `place-ai-call`, in process against a migrated SQLite
file (the commands' own database path)."""

import json

import pytest

from tests.cli.test_cli import Cli


@pytest.fixture(scope="module")
def cli(tmp_path_factory) -> Cli:
    cli = Cli(tmp_path_factory.mktemp("voice-cli"))
    cli.quick("migrate")
    return cli


def test_the_admin_commands_set_up_and_ask_for_a_call(cli, tmp_path):
    workspace = cli.quick("admin", "create-workspace", "--name", "Voice Realty")["id"]
    user = cli.quick(
        "admin", "create-user", "--workspace", workspace, "--email", "sam@example.com",
        "--name", "Sam", "--phone", "+14155550177",
    )  # fmt: skip
    assert cli.row("users", user["id"])["phone"] == "+14155550177"
    bad = cli.in_process(
        "admin", "create-user", "--workspace", workspace, "--email", "kim@example.com",
        "--name", "Kim", "--phone", "555",
    )  # fmt: skip
    assert bad.returncode == 1 and "E.164" in bad.stderr
    number = cli.quick(
        "admin", "add-sender-number", "--workspace", workspace, "--number", "+14155550100",
        "--channel", "sms", "--a2p-status", "approved", "--voice",
    )  # fmt: skip
    assert number["voice"] is True and cli.row("sender_numbers", number["id"])["voice"] == 1
    fixtures = tmp_path / "voice.json"
    fixtures.write_text(
        json.dumps(
            {
                "personas": [{"name": "Ava", "tone": "warm", "channels": ["SMS"], "voice": True}],
                "contacts": [{"ref": "dana", "first_name": "Dana", "phone": "+14155550142"}],
            }
        )
    )
    loaded = cli.quick("admin", "load-fixtures", "--workspace", workspace, str(fixtures))
    contact = loaded["contacts"][0] if "contacts" in loaded else loaded["created"]["contacts"][0]
    asked = cli.quick("admin", "place-ai-call", "--workspace", workspace, "--contact", contact)
    # No consent to AI calls on file: refused, and recorded as such.
    assert asked["status"] == "refused"
    assert asked["error"].startswith(("voice_consent_missing", "calling_hours"))
    missing = cli.in_process(
        "admin", "place-ai-call", "--workspace", workspace, "--contact", "con_nobody",
    )  # fmt: skip
    assert missing.returncode == 1 and "no contact" in missing.stderr


async def test_the_demo_places_a_call_with_the_local_stand_in(cli):
    seeded = cli.ok("admin", "seed-demo")
    workspace = seeded["workspace"]["id"]
    key = seeded["api_key"]["key"]
    found = await cli.get(key, "/v1/contacts?limit=200")
    [lead] = [c for c in found.json()["data"] if c["last_name"] == "Morales"]
    asked = cli.quick("admin", "place-ai-call", "--workspace", workspace, "--contact", lead["id"])
    # The demo lead consented to AI calls: queued for the worker, unless the clock running
    # this test is outside San Francisco's calling hours.
    assert asked["status"] == "queued" or asked["error"].startswith("calling_hours"), asked
    personas = (await cli.get(key, "/v1/personas")).json()["data"]
    (ava,) = [persona for persona in personas if persona["responder"]]
    assert ava["voice"] is True and ava["voicemail"] == "leave"
