"""Fixtures: a real database per test (SQLite and PostgreSQL), the app over ASGI, and
workspaces with keys.

SQLite: the schema is migrated once into a template file that each test copies.
PostgreSQL: one database per session, migrated once and truncated after each test.
DNS: every Runtime resolves through a StubResolver, and the process's getaddrinfo refuses
any name but localhost (tests/dns_support.py).
"""

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from homebase.config import Settings
from homebase.db.engine import Database
from homebase.db.migrate import upgrade
from homebase.models import Base
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.ai_support import ChatServer
from tests.dns_support import StubResolver, guard_system_resolver
from tests.support import (
    POSTGRES_URL,
    create_database,
    drop_statement,
    make_tenant,
    require_server,
    server_statement,
    wait_for_dropped_databases,
)

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session", autouse=True)
def no_system_dns():
    remove = guard_system_resolver()
    yield
    remove()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    asyncio.run(upgrade(f"sqlite+aiosqlite:///{path}"))
    return str(path)


@pytest.fixture(scope="session")
def postgres_database() -> str:
    """A fresh, migrated database for this session, dropped at the end."""
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    name = f"homebase_test_{uuid.uuid4().hex[:10]}"
    url = asyncio.run(create_database(name))
    # A throwaway database: its commits need not wait for the disk (the server itself
    # stays up; tests that crash a PostgreSQL server own one: tests/cluster).
    asyncio.run(server_statement(f'ALTER DATABASE "{name}" SET synchronous_commit TO off'))
    asyncio.run(upgrade(url))
    yield url
    asyncio.run(server_statement(drop_statement(name)))


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def database_url(backend, request, tmp_path) -> str:
    if backend == "sqlite":
        path = tmp_path / "homebase.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    return request.getfixturevalue("postgres_database")


def test_settings(database_url: str, **overrides) -> Settings:
    values = {
        "env": "test",
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "webhook_allow_private_urls": True,
        # The AI composes as soon as a text arrives, for the tests of everything but its
        # quiet window; tests/ai/test_responder_quiet.py keeps the default window.
        "ai_quiet_seconds": 0,
        **overrides,
    }
    # Validated as a model, not constructed as settings: a test's settings are what it
    # sets and the defaults, never the developer's environment or .env, and reading those
    # sources (172 fields each) took about 17 ms a test.
    return Settings.model_validate(values)


@pytest.fixture
def settings_overrides() -> dict:
    """Tests override settings by redefining this fixture or parametrizing it."""
    return {}


@pytest.fixture
def resolver() -> StubResolver:
    """The runtime's DNS; a test adds names with `resolver.names[...] = ...`."""
    return StubResolver()


@pytest.fixture
async def runtime(database_url, settings_overrides, resolver) -> AsyncIterator[Runtime]:
    settings = test_settings(database_url, **settings_overrides)
    runtime = Runtime(
        settings=settings,
        db=Database(settings.database_url, pool_size=5),
        limiter=MemoryLimiter(),
        resolver=resolver,
    )
    yield runtime
    if not runtime.db.is_sqlite:
        # Emptied for the next test: DELETE, children first. TRUNCATE of every table took
        # about 0.5 s a test (new files for each table, fsynced); a test's few rows delete
        # in a few milliseconds. Sent as one simple query (one round trip, one implicit
        # transaction) rather than a statement per table.
        async with runtime.db.transaction(write=False) as connection:
            raw = (await connection.get_raw_connection()).driver_connection
            await raw.execute(EMPTY_EVERY_TABLE)
    await runtime.close()


EMPTY_EVERY_TABLE = "".join(
    f'DELETE FROM "{table.name}";' for table in reversed(Base.metadata.sorted_tables)
)


# One app per pytest process, body limits and CORS origins (the settings read when an app
# is built), handed each test's runtime: building an app, and FastAPI's first look at each route it
# serves, cost more than most tests' own work. Requests reach the runtime only through
# app.state (homebase/runtime.get_runtime). A test that adds routes asks for an app of its
# own (tests/http/test_errors.py redefines this fixture).
_APPS: dict[tuple[int, int, str], object] = {}


@pytest.fixture
def app(runtime):
    settings = runtime.settings
    built_from = settings.max_body_bytes, settings.import_max_bytes, settings.cors_origins
    shared = _APPS.get(built_from)
    if shared is None:
        shared = _APPS[built_from] = create_app(runtime)
    shared.state.runtime = runtime
    return shared


@pytest.fixture
async def client(app) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


@pytest.fixture
async def tenant(runtime, client):
    """A workspace whose key holds every scope."""
    return await make_tenant(runtime, client)


@pytest.fixture
async def other_tenant(runtime, client):
    return await make_tenant(runtime, client, name="Other Realty")


@pytest.fixture
def make(runtime, client):
    """make(scopes=[...]) -> a new workspace with a key holding exactly those scopes."""

    async def factory(scopes, name="Scoped Realty"):
        return await make_tenant(runtime, client, scopes=scopes, name=name)

    return factory


def pytest_report_header(config):
    return [f"postgres: {POSTGRES_URL}", f"CI={os.environ.get('CI', '')}"]


def pytest_sessionfinish(session, exitstatus):
    """The per-test databases dropped in the background (tests/support.py
    drop_database_later) are all gone before this process ends."""
    wait_for_dropped_databases()


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A Chat Completions server on 127.0.0.1, scripted per test (tests/ai_support.py)."""
    server = ChatServer().start()
    yield server
    server.stop()


# The longest tests (each a live server driven for minutes) go to the front of the run,
# so that under `make test`'s workers they overlap the rest instead of finishing alone.
FIRST = (
    "tests/kit/test_schemathesis.py::test_every_check_passes_on_every_operation",
    "tests/metrics/test_metrics_workers.py::",
)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))
