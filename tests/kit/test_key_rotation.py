"""Changing HOMEBASE_SECRET_KEY: what the old key made still verifies and opens while it is
HOMEBASE_SECRET_KEY_PREVIOUS, nothing does without it, and `admin rotate-secrets` moves the
stored sealed secrets onto the new key so the previous one can be dropped."""

import hashlib
import hmac

import pytest
from sqlalchemy import select

from homebase.calendars.service import open_credentials
from homebase.calls import recordings
from homebase.cli import rotate_secrets
from homebase.kit.keys import Keyring
from homebase.kit.sealed import SealBroken
from homebase.models import MemberCalendar
from homebase.webhooks import verify
from tests import calendar_support
from tests.cli.test_cli import SECRET as CLI_SECRET
from tests.cli.test_cli import Cli, assert_ok
from tests.console_support import browser, csrf, make_member, member_browser
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

OLD = "test-secret-key"  # the key the runtime fixture starts with (tests/conftest.py)
NEW = "n" * 43


def change_key(runtime, *, previous: str | None) -> None:
    """The operator restarts with HOMEBASE_SECRET_KEY=NEW, keeping or dropping the old one."""
    assert runtime.settings.secret_key in (OLD, NEW)
    runtime.settings = runtime.settings.model_copy(
        update={"secret_key": NEW, "secret_key_previous": previous or ""}
    )


async def test_a_cursor_made_under_the_old_key(tenant, runtime):
    for name in ("Ana", "Ben", "Cy"):
        assert (await tenant.post("/v1/contacts", {"first_name": name})).status_code == 201
    first = (await tenant.get("/v1/contacts?limit=1")).json()
    cursor = first["next_cursor"]

    change_key(runtime, previous=OLD)
    second = (await tenant.get(f"/v1/contacts?limit=1&cursor={cursor}")).json()
    assert second["data"][0]["id"] != first["data"][0]["id"]  # continued where it left off
    assert second["next_cursor"] != cursor  # new cursors use the new key

    change_key(runtime, previous=None)  # an unknown cursor restarts the walk
    again = (await tenant.get(f"/v1/contacts?limit=1&cursor={cursor}")).json()
    assert again["data"][0]["id"] == first["data"][0]["id"]


async def test_a_recording_link_made_under_the_old_key(tenant, runtime, client):
    link = recordings.issue(runtime.settings.keys, "", tenant.id, "cal_unknown", runtime.clock())
    change_key(runtime, previous=OLD)
    # The signature is accepted; the call itself does not exist.
    assert (await client.get(link.url)).json()["error"]["code"] == "not_found"
    change_key(runtime, previous=None)
    assert (await client.get(link.url)).json()["error"]["code"] == "recording_link_invalid"


@pytest.mark.parametrize("previous, status", [(OLD, 303), (None, 403)])
async def test_console_forms_shown_under_the_old_key(app, runtime, tenant, previous, status):
    """Sessions are random tokens, not signed: they survive any key change. The CSRF tokens
    in pages shown before the change verify while the old key is the previous one."""
    user_id = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user_id) as client:
        page = await client.get("/console")
        change_key(runtime, previous=previous)
        assert (await client.get("/console")).status_code == 200  # still signed in
        response = await client.post("/console/logout", data={"csrf_token": csrf(page.text)})
        assert response.status_code == status


@pytest.mark.parametrize("previous, status", [(OLD, 303), (None, 403)])
async def test_sign_in_form_shown_under_the_old_key(app, runtime, tenant, previous, status):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        page = await client.get("/console/login")
        change_key(runtime, previous=previous)
        response = await client.post(
            "/console/login",
            data={
                "email": "agent@example.com",
                "password": "correct horse battery staple",
                "next": "/console",
                "csrf_token": csrf(page.text),
            },
        )
        assert response.status_code == status


async def test_webhook_secret_sealed_under_the_old_key(tenant, runtime):
    receiver = await Receiver().start()
    try:
        hook = await subscribe(tenant, receiver.url, ["contact.created"])

        change_key(runtime, previous=None)  # neither key opens it: no delivery is signed
        await tenant.post("/v1/contacts", {"first_name": "Lost"})
        await work(runtime)
        assert receiver.requests == []

        change_key(runtime, previous=OLD)
        await tenant.post("/v1/contacts", {"first_name": "Dana"})
        await work(runtime)
        [request] = await receiver.wait_for(1)
        _assert_signed_with(hook["secret"], request)

        async with runtime.db.transaction() as connection:
            printed = await rotate_secrets.rotate(connection, runtime.settings.keys)
        assert printed["resealed"]["webhook_subscriptions"] == 1
        change_key(runtime, previous=None)  # the old key is gone for good
        await tenant.post("/v1/contacts", {"first_name": "Eve"})
        await work(runtime)
        requests = await receiver.wait_for(2)
        _assert_signed_with(hook["secret"], requests[-1])
        assert b"Eve" in requests[-1].body
    finally:
        await receiver.stop()


def _assert_signed_with(secret: str, request) -> None:
    expected = "sha256=" + hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
    assert request.headers["x-webhook-signature"] == expected
    verify(secret, request.body, request.headers, tolerance_seconds=None)


async def test_rotate_secrets_reseals_every_sealed_value_once(tenant, runtime):
    await subscribe(tenant, "http://127.0.0.1:9/hook", ["contact.created"])
    user_id = await calendar_support.add_member(runtime, tenant)
    calendar_id = await calendar_support.connect(
        runtime, tenant, user_id, "http://127.0.0.1:9/cal/"
    )
    change_key(runtime, previous=OLD)
    async with runtime.db.transaction() as connection:
        first = await rotate_secrets.rotate(connection, runtime.settings.keys)
        again = await rotate_secrets.rotate(connection, runtime.settings.keys)
    assert first == {
        "resealed": {"webhook_subscriptions": 1, "member_calendars": 1},
        "unreadable": {"webhook_subscriptions": 0, "member_calendars": 0},
    }
    assert again["resealed"] == {"webhook_subscriptions": 0, "member_calendars": 0}

    table = MemberCalendar.__table__
    async with runtime.db.transaction(write=False) as connection:
        sealed = (
            await connection.execute(
                select(table.c.credentials_sealed).where(table.c.id == calendar_id)
            )
        ).scalar_one()
    assert (
        open_credentials(Keyring(NEW), calendar_id, sealed=sealed).password
        == calendar_support.PASSWORD
    )
    with pytest.raises(SealBroken):
        open_credentials(Keyring(OLD), calendar_id, sealed=sealed)


async def test_rotate_secrets_command_prints_one_json_object(tmp_path, monkeypatch):
    """The command over a real database: a secret sealed under the old key is re-sealed
    under HOMEBASE_SECRET_KEY (the CLI's key), with the old key given as previous."""
    from homebase.db.engine import Database
    from homebase.kit.sealed import seal, unseal
    from homebase.models import WebhookSubscription
    from homebase.webhooks.service import SEAL_PURPOSE

    cli = Cli(tmp_path)
    assert_ok(cli.run("migrate"))
    workspace = cli.quick("admin", "create-workspace", "--name", "Rotating Realty")
    old_key = "o" * 43
    table = WebhookSubscription.__table__
    database = Database(cli.url)
    try:
        async with database.transaction() as connection:
            await connection.execute(
                table.insert().values(
                    id="whk_1",
                    workspace_id=workspace["id"],
                    url="http://127.0.0.1:9/hook",
                    event_types=[],
                    scopes=[],
                    created_by="admin",
                    secret_hint="whsec_ab",
                    secret_encrypted=seal(Keyring(old_key), SEAL_PURPOSE, "whsec_abc", "whk_1"),
                    created_at=_now(),
                )
            )
        monkeypatch.setenv("HOMEBASE_SECRET_KEY_PREVIOUS", old_key)
        printed = cli.quick("admin", "rotate-secrets")
        assert printed["resealed"] == {"webhook_subscriptions": 1, "member_calendars": 0}
        async with database.transaction(write=False) as connection:
            sealed = (await connection.execute(select(table.c.secret_encrypted))).scalar_one()
        assert unseal(Keyring(CLI_SECRET), SEAL_PURPOSE, sealed, "whk_1") == "whsec_abc"

        monkeypatch.setenv("HOMEBASE_SECRET_KEY_PREVIOUS", CLI_SECRET)  # same as the key
        refused = cli.in_process("admin", "rotate-secrets")
        assert refused.returncode != 0 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1
        assert "HOMEBASE_SECRET_KEY_PREVIOUS must differ" in refused.stderr
    finally:
        await database.dispose()


def _now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def test_production_refuses_to_start_with_a_short_key_and_names_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HOMEBASE_ENV", "production")  # the CLI's key has 19 characters
    refused = Cli(tmp_path).in_process("migrate")
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith("error: HOMEBASE_SECRET_KEY must be at least 43 characters")
    assert "secrets.token_urlsafe(32)" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1
