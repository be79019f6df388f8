"""`homebase admin create-oauth-client | authorize-app | revoke-app` as CONTRACT.md says:
one JSON object on stdout, or one line on stderr and a non-zero exit."""

import sqlite3

import httpx
import pytest

from homebase.config import Settings
from homebase.db.engine import Database
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.cli.test_cli import SECRET, Cli, assert_failed, assert_ok


@pytest.fixture(scope="module")
def cli(tmp_path_factory) -> Cli:
    cli = Cli(tmp_path_factory.mktemp("oauth-cli"))
    cli.quick("migrate")
    return cli


@pytest.fixture(scope="module")
def workspace(cli) -> dict:
    return cli.quick("admin", "create-workspace", "--name", "OAuth Realty")


async def api(cli: Cli, method: str, path: str, **kwargs) -> httpx.Response:
    settings = Settings(env="test", database_url=cli.url, secret_key=SECRET)
    runtime = Runtime(settings=settings, db=Database(cli.url), limiter=MemoryLimiter())
    try:
        transport = httpx.ASGITransport(app=create_app(runtime))
        async with httpx.AsyncClient(transport=transport, base_url="http://cli") as client:
            return await client.request(method, path, **kwargs)
    finally:
        await runtime.close()


async def client_credentials(cli: Cli, created: dict, workspace_id: str) -> httpx.Response:
    return await api(
        cli,
        "POST",
        "/oauth/token",
        data={
            "grant_type": "client_credentials",
            "client_id": created["client_id"],
            "client_secret": created["client_secret"],
            "tenant_id": workspace_id,
        },
    )


async def test_create_authorize_and_revoke_an_app(cli, workspace):
    created = assert_ok(
        cli.run(
            "admin",
            "create-oauth-client",
            "--name",
            "Zap Sync",
            "--redirect-uri",
            "https://zap.example.com/cb",
            "--redirect-uri",
            "http://127.0.0.1/cb",
        )
    )
    assert set(created) == {"client_id", "client_secret"}
    assert created["client_secret"].startswith("hbo_cs_")
    with sqlite3.connect(cli.db_path) as db:
        stored = db.execute(
            "SELECT secret_hash, redirect_uris FROM oauth_clients WHERE id = ?",
            (created["client_id"],),
        ).fetchone()
    assert created["client_secret"] not in stored[0] and "zap.example.com" in stored[1]

    assert (await client_credentials(cli, created, workspace["id"])).status_code == 400
    grant = cli.quick(
        "admin",
        "authorize-app",
        "--workspace",
        workspace["id"],
        "--client-id",
        created["client_id"],
        "--scopes",
        "deals:read contacts:read",
    )
    assert grant["workspace_id"] == workspace["id"]
    assert grant["client_id"] == created["client_id"]
    assert grant["scopes"] == ["contacts:read", "deals:read"]
    token = await client_credentials(cli, created, workspace["id"])
    assert token.status_code == 200, token.text
    headers = {"Authorization": f"Bearer {token.json()['access_token']}"}
    assert (await api(cli, "GET", "/v1/ping", headers=headers)).status_code == 200

    assert cli.quick(
        "admin", "revoke-app", "--workspace", workspace["id"], "--client-id", created["client_id"]
    ) == {"revoked": True}
    assert (await api(cli, "GET", "/v1/ping", headers=headers)).status_code == 401
    assert (await client_credentials(cli, created, workspace["id"])).status_code == 400


@pytest.mark.parametrize(
    "args,reason",
    [
        (
            ["create-oauth-client", "--name", "X", "--redirect-uri", "http://example.com/cb"],
            "loopback",
        ),
        (
            ["create-oauth-client", "--name", "X", "--redirect-uri", "https://x.example/cb#f"],
            "fragment",
        ),
        (["create-oauth-client", "--name", " ", "--redirect-uri", "https://x.example/cb"], "name"),
        (
            [
                "authorize-app",
                "--workspace",
                "{ws}",
                "--client-id",
                "{app}",
                "--scopes",
                "fly:away",
            ],
            "fly:away",
        ),
        (
            ["authorize-app", "--workspace", "{ws}", "--client-id", "{app}", "--scopes", " "],
            "scope",
        ),
        (
            [
                "authorize-app",
                "--workspace",
                "wsp_nope",
                "--client-id",
                "{app}",
                "--scopes",
                "contacts:read",
            ],
            "wsp_nope",
        ),
        (
            [
                "authorize-app",
                "--workspace",
                "{ws}",
                "--client-id",
                "app_nope",
                "--scopes",
                "contacts:read",
            ],
            "app_nope",
        ),
        (["revoke-app", "--workspace", "{ws}", "--client-id", "{app}"], "not authorized"),
    ],
    ids=lambda value: str(value)[:60],
)
def test_refusals_are_one_line_and_write_nothing(cli, workspace, args, reason):
    app = cli.quick(
        "admin",
        "create-oauth-client",
        "--name",
        "Fresh",
        "--redirect-uri",
        "https://fresh.example/cb",
    )
    with sqlite3.connect(cli.db_path) as db:
        before = db.execute("SELECT count(*) FROM oauth_clients").fetchone()[0]
    argv = [arg.format(ws=workspace["id"], app=app["client_id"]) for arg in args]
    line = assert_failed(cli.in_process("admin", *argv))
    assert reason in line
    with sqlite3.connect(cli.db_path) as db:
        assert db.execute("SELECT count(*) FROM oauth_clients").fetchone()[0] == before
        assert (
            db.execute(
                "SELECT count(*) FROM oauth_grants WHERE client_id = ?", (app["client_id"],)
            ).fetchone()[0]
            == 0
        )
