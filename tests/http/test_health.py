"""Liveness, readiness and the bounds on database access: /healthz
never touches the database; /readyz is 503 when the database does not answer and 200 with
Redis "degraded" when only Redis is down; a request that cannot get a database connection
(refused, pool exhausted) or whose statement runs past the statement timeout is 503 with
the envelope and Retry-After, never a 500. That it is bounded shows in what happens first:
the answer comes while the connection or the lock is still held, which it would wait for
forever without the bound (and never sooner than the bound); no wall time is asserted."""

import asyncio
import logging
import time

import pytest
from sqlalchemy import text

from homebase.db.engine import Database
from homebase.db.unavailable import reason
from homebase.ratelimit.limiter import RedisLimiter
from tests.openapi_support import inline
from tests.support import assert_error, closed_port

NOWHERE = "postgresql+asyncpg://nobody@127.0.0.1:{port}/none"


# How long a request may take before the test gives up on it: a stuck test's deadline.
STUCK = 60


def assert_unavailable(response) -> dict:
    error = assert_error(response, 503, "service_unavailable")  # the envelope, X-Request-Id
    assert 1 <= int(response.headers["retry-after"]) <= 5
    return error


@pytest.fixture
async def unreachable(runtime):
    """The runtime's database replaced by one where nothing listens."""
    real = runtime.db
    runtime.db = Database(
        NOWHERE.format(port=closed_port()), connect_timeout=2, pool_timeout=2, statement_timeout=5
    )
    yield runtime
    await runtime.db.dispose()
    runtime.db = real


async def test_healthz_answers_without_the_database(unreachable, client):
    response = await client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_readyz_is_ok_with_each_check(client, runtime):
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "redis": "not_configured"},
    }


async def test_readyz_is_503_naming_the_database_when_it_is_unreachable(unreachable, client):
    response = await asyncio.wait_for(client.get("/readyz"), STUCK)
    error = assert_unavailable(response)
    assert error["details"]["checks"]["database"] == "unavailable"
    assert "database" in error["message"]


async def test_a_request_is_503_with_retry_after_when_the_database_is_unreachable(
    tenant, unreachable
):
    assert_unavailable(await asyncio.wait_for(tenant.get("/v1/contacts"), STUCK))
    created = tenant.post("/v1/contacts", json={"first_name": "Ada"})
    assert_unavailable(await asyncio.wait_for(created, STUCK))


async def test_redis_down_is_degraded_and_the_instance_still_serves(runtime, tenant, client):
    real = runtime.limiter
    runtime.limiter = RedisLimiter(f"redis://127.0.0.1:{closed_port()}/0", retry_seconds=30)
    try:
        assert (await tenant.get("/v1/ping")).status_code == 200  # the fallback counts
        response = await client.get("/readyz")
    finally:
        await runtime.limiter.close()
        runtime.limiter = real
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "degraded"}


async def test_readyz_and_healthz_are_never_rate_limited(runtime, client):
    runtime.settings.rate_limit_unauthenticated_per_min = 1
    answers = [
        (await client.get(path)).status_code for _ in range(3) for path in ("/healthz", "/readyz")
    ]
    assert answers == [200] * 6


def _postgres_only(runtime):
    if runtime.db.is_sqlite:
        pytest.skip("PostgreSQL pool and statement timeouts; SQLite has its busy timeout")


async def test_an_exhausted_pool_is_503_after_the_pool_timeout(runtime, tenant):
    _postgres_only(runtime)
    real = runtime.db
    runtime.db = Database(real.url, pool_size=1, pool_timeout=0.5, statement_timeout=5)
    held = asyncio.Event()
    release = asyncio.Event()

    async def hold() -> None:  # the readers' pool's one connection taken
        async with runtime.db.transaction(write=False) as first:
            await first.execute(text("SELECT 1"))
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    try:
        await asyncio.wait_for(held.wait(), STUCK)
        started = time.monotonic()
        # Answered while the one connection is still held: it gave up waiting for it.
        response = await asyncio.wait_for(tenant.get("/v1/contacts"), STUCK)
        elapsed = time.monotonic() - started
        assert_unavailable(response)
        assert elapsed >= 0.4  # and it did wait for the pool (0.5 s, less a timer's tick)
    finally:
        release.set()
        await holder
        await runtime.db.dispose()
        runtime.db = real
    assert (await tenant.get("/v1/contacts")).status_code == 200


async def test_a_statement_past_the_timeout_is_503(runtime, tenant):
    _postgres_only(runtime)
    real = runtime.db
    runtime.db = Database(real.url, statement_timeout=0.5)
    locked = asyncio.Event()
    release = asyncio.Event()

    async def lock() -> None:  # the list's SELECT then waits for the lock
        async with real.transaction() as connection:
            await connection.execute(text("LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE"))
            locked.set()
            await release.wait()

    locker = asyncio.create_task(lock())
    try:
        await asyncio.wait_for(locked.wait(), STUCK)
        started = time.monotonic()
        # Answered while the lock is still held: the statement was ended, not waited out.
        response = await asyncio.wait_for(tenant.get("/v1/contacts"), STUCK)
        assert_unavailable(response)
        assert time.monotonic() - started >= 0.4  # after statement_timeout (0.5 s), not before
    finally:
        release.set()
        await locker
        await runtime.db.dispose()
        runtime.db = real


async def test_statement_timeout_is_set_on_every_connection(runtime):
    _postgres_only(runtime)
    database = Database(runtime.db.url, statement_timeout=0.25)
    try:
        async with database.transaction(write=False) as connection:
            assert (await connection.execute(text("SHOW statement_timeout"))).scalar() == "250ms"
            with pytest.raises(Exception) as raised:
                await connection.execute(text("SELECT pg_sleep(2)"))
        assert reason(raised.value) is not None
    except Exception as error:
        assert reason(error) is not None
    finally:
        await database.dispose()


async def test_the_worker_logs_a_database_outage_as_one_line_without_traceback(unreachable, caplog):
    from homebase.root.jobs import Job
    from homebase.root.worker import run_round

    async def touches_the_database(runtime) -> int:
        async with runtime.db.transaction() as connection:
            await connection.execute(text("SELECT 1"))
        return 1

    with caplog.at_level(logging.WARNING, logger="homebase.worker"):
        assert await run_round(unreachable, jobs=[Job("test.db", touches_the_database)]) == 0
    [record] = [r for r in caplog.records if r.name == "homebase.worker"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "test.db" in record.getMessage()


async def test_the_document_states_the_503_every_v1_operation_can_answer(
    tenant, unreachable, client
):
    """Each /v1 operation documents the 503 (envelope, Retry-After, X-Request-Id), and the
    503 the service gives when the database is unreachable matches that document."""
    import jsonschema_rs

    from homebase.root.app import create_app

    document = inline(create_app().openapi())
    operations = [
        (path, method, operation)
        for path, item in document["paths"].items()
        if path.startswith("/v1/")
        for method, operation in item.items()
    ]
    assert len(operations) > 40
    for path, method, operation in operations:
        answer = operation["responses"].get("503")
        assert answer, (method, path)
        assert set(answer["headers"]) == {"Retry-After", "X-Request-Id"}, (method, path)
    answer = document["paths"]["/v1/contacts"]["get"]["responses"]["503"]
    schema = answer["content"]["application/json"]["schema"]
    validator = jsonschema_rs.validator_for({**schema, "components": document["components"]})
    response = await tenant.get("/v1/contacts")
    assert response.status_code == 503
    validator.validate(response.json())
    assert {"retry-after", "x-request-id"} <= set(response.headers)
