"""Helpers shared by the tests: server reachability, a refusing port, the one wait helper
(`until`), tenants with keys, and assertions."""

import asyncio
import concurrent.futures
import inspect
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from homebase.auth.api_keys import create_api_key
from homebase.auth.scopes import ALL_SCOPES
from homebase.db.engine import Database
from homebase.db.tenancy import TenantSession
from homebase.http.envelope import remedy
from homebase.models import User
from homebase.runtime import Runtime
from homebase.workspaces import service as workspaces

POSTGRES_URL = os.environ.get(
    "HOMEBASE_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("HOMEBASE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
IN_CI = os.environ.get("CI", "").lower() == "true"


_HELD: list[socket.socket] = []


def closed_port() -> int:
    """A loopback port where a connection is refused at once, for as long as the tests run:
    bound (so no other process can take it) but never listening. A port bound and closed
    again ("free") is free for every other process too, and one of them may be listening
    on it by the time the test connects. A server a test starts binds port 0 instead and
    says which port it got (tests/served_support.py), or listens on a reserved_port()."""
    return _hold(reuse=False)


def reserved_port() -> int:
    """A loopback port for a program that cannot bind port 0 and say which it got
    (Radicale, redis-server, a worker's metrics port): held for as long as the tests run,
    bound with SO_REUSEADDR and never listening. Until the program listens there a
    connection is refused; the program binds it beside the hold (it sets SO_REUSEADDR, as
    servers do), stopped and started again it finds it still free, and no other process
    is given it meanwhile (the system hands out no port that is bound)."""
    return _hold(reuse=True)


def _hold(reuse: bool) -> int:
    held = socket.socket()
    if reuse:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    _HELD.append(held)
    return held.getsockname()[1]


def until(
    check: Callable[[], Any],
    within: float,
    *,
    every: float = 0.05,
    what: str | Callable[[], str] = "",
):
    """The one wait of the tests: calls `check` every `every` seconds until it returns
    something truthy, and returns that; after `within` seconds it fails naming `what` (a
    text, or a function that makes one then: a log's tail) and the last value. `within` is
    how long before a stuck test gives up, never a claim about speed: make it generous.
    An exception `check` raises ends the wait at once (a process that exited, say).

    In a coroutine, `await until(...)`: `check` may be a function or a coroutine function,
    and the event loop runs meanwhile. In a plain function, `until(...)` blocks and `check`
    is a function. Which one is decided by the caller's own code, so a helper that does
    not await never gets a coroutine it would drop."""
    here = inspect.currentframe()
    caller = here.f_back if here is not None else None
    if caller is not None and caller.f_code.co_flags & _ASYNC_CODE:
        return _until_awaited(check, within, every, what)
    deadline = time.monotonic() + within
    while True:
        result = check()
        if inspect.isawaitable(result):
            raise TypeError("until: an async check needs `await until(...)` in a coroutine")
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(_late(check, within, what, result))
        time.sleep(every)


_ASYNC_CODE = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


async def _until_awaited(
    check: Callable[[], Any], within: float, every: float, what: str | Callable[[], str]
):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if loop.time() > deadline:
            raise AssertionError(_late(check, within, what, result))
        await asyncio.sleep(every)


def _late(check: Callable[[], Any], within: float, what: str | Callable[[], str], last: Any) -> str:
    if callable(what):
        what = what()
    if not what:
        name = getattr(check, "__qualname__", repr(check))
        what = "the condition" if "<lambda>" in name else name
    return f"{what}: not within {within} s (last: {last!r})"


# For a `homebase` process a test starts whose subject is not the write timeout: a write
# transaction gets 30 s (not 3) before it is rolled back, as a loaded machine may need for
# seed-demo's one transaction; the settle delay exceeds it as config.py requires.
GENEROUS_WRITES = {
    "HOMEBASE_DATABASE_WRITE_TIMEOUT_SECONDS": "30",
    "HOMEBASE_SYNC_SETTLE_SECONDS": "31",
}


def clean_env(**values: str) -> dict[str, str]:
    """The caller's environment without any HOMEBASE_* setting it may carry."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOMEBASE_")}
    env.update(values)
    return env


def reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url.replace("+asyncpg", ""))
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def require_server(name: str, url: str, default_port: int) -> None:
    """Skip visibly when a server is down; under CI=true that is a failure instead."""
    if reachable(url, default_port):
        return
    message = f"{name} is not reachable at {url}"
    if IN_CI:
        pytest.fail(f"{message} (CI=true requires it)")
    pytest.skip(f"NOTICE: {message}; its tests are skipped")


@dataclass
class Tenant:
    """A workspace with an API key, and a client that sends that key."""

    id: str
    key: str
    key_id: str
    client: httpx.AsyncClient
    headers: dict[str, str] = field(default_factory=dict)

    async def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return await self.client.get(url, headers=self.headers, **kwargs)

    async def post(self, url: str, json: Any = None, **kwargs: Any) -> httpx.Response:
        return await self.client.post(url, json=json, headers=self.headers, **kwargs)

    async def patch(self, url: str, json: Any = None, **kwargs: Any) -> httpx.Response:
        return await self.client.patch(url, json=json, headers=self.headers, **kwargs)

    async def delete(self, url: str, **kwargs: Any) -> httpx.Response:
        return await self.client.delete(url, headers=self.headers, **kwargs)


async def make_key(
    runtime: Runtime, workspace_id: str, scopes=ALL_SCOPES, expires_in_days: int | None = 30
) -> tuple[str, str]:
    async with runtime.db.transaction() as connection:
        created = await create_api_key(
            TenantSession(connection, workspace_id, clock=runtime.clock),
            scopes=list(scopes),
            name="test",
            expires_in_days=expires_in_days,
        )
    return created.id, created.key


async def make_tenant(
    runtime: Runtime, client: httpx.AsyncClient, scopes=ALL_SCOPES, name: str = "Test Realty"
) -> Tenant:
    async with runtime.db.transaction() as connection:
        workspace = await workspaces.create_workspace(connection, name, now=runtime.clock())
    key_id, key = await make_key(runtime, workspace["id"], scopes)
    return Tenant(
        id=workspace["id"],
        key=key,
        key_id=key_id,
        client=client,
        headers={"Authorization": f"token {key}"},
    )


async def add_members(runtime: Runtime, workspace_id: str, *user_ids: str) -> None:
    """Members of the workspace under the ids given, for tests whose bodies name them
    literally (a contact's owner_id must name a member: docs/decisions.md, "A contact's
    owner and other references")."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        for user_id in user_ids:
            await session.insert(
                User.__table__,
                {
                    "id": user_id,
                    "email": f"{user_id}@example.com",
                    "name": user_id,
                    "password_hash": None,
                    "office_id": None,
                    "team_id": None,
                    "created_at": session.now(),
                },
            )


async def walk_pages(tenant: Any, path: str, params: dict[str, Any]) -> list[str]:
    """The ids of every page of a list, `params` and `limit` as given, cursor by cursor."""
    seen: list[str] = []
    cursor = None
    while True:
        page = {**params, **({"cursor": cursor} if cursor else {})}
        body = (await tenant.get(path, params=page)).json()
        seen += [item["id"] for item in body["data"]]
        cursor = body["next_cursor"]
        if not body["has_more"]:
            return seen


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The error of the envelope, checked; its `details.remedy` is checked to be the one
    the tables give for it (http/envelope.remedy) and taken out, so callers compare the
    rest of `details` (dropped when nothing else is there)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code, error
    assert error["message"]
    assert error["request_id"] == response.headers["x-request-id"]
    return without_remedy(error)


def without_remedy(error: dict[str, Any]) -> dict[str, Any]:
    """`error` without `details.remedy`, after checking it is the remedy of its code (and,
    for a compliance refusal, of its reason)."""
    details = dict(error.get("details") or {})
    fix = details.pop("remedy", None)
    assert fix and fix == remedy(error["code"], details), error
    rest = {key: value for key, value in error.items() if key != "details"}
    return {**rest, "details": details} if details else rest


def failing_fields(response: httpx.Response) -> set[str]:
    error = assert_error(response, 400, "validation_failed")
    return {item["field"] for item in error["details"]["errors"]}


_DROPS = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="drop-db")
_PENDING_DROPS: list[concurrent.futures.Future] = []


async def server_statement(statement: str) -> None:
    """One statement on the shared PostgreSQL server, outside a transaction (CREATE and
    DROP DATABASE)."""
    engine = create_async_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def create_database(name: str) -> str:
    """A new, empty database on the shared server; its URL."""
    await server_statement(f'CREATE DATABASE "{name}"')
    return POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"


def drop_statement(name: str) -> str:
    return f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'


def drop_database_later(name: str) -> None:
    """DROP DATABASE forces a checkpoint: about 4 s on an idle server and up to a minute
    while the suite loads it, spent in the teardown of whichever test made the database.
    The drop runs on a background thread while the next tests run instead; conftest's
    pytest_sessionfinish waits for every drop (wait_for_dropped_databases)."""
    _PENDING_DROPS.append(_DROPS.submit(asyncio.run, server_statement(drop_statement(name))))


@asynccontextmanager
async def own_postgres_database(prefix: str, **options: Any) -> AsyncIterator[Database]:
    """A PostgreSQL database of the test's own on the shared server, as a Database
    (`options` are Database's); disposed, and dropped in the background, after."""
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    database = Database(await create_database(name), **options)
    try:
        yield database
    finally:
        await database.dispose()
        drop_database_later(name)


def wait_for_dropped_databases() -> None:
    for future in _PENDING_DROPS:
        future.result()
    _PENDING_DROPS.clear()
