"""Rate limiting (spec: Limits, Errors; homebase/ratelimit/limiter.py).

HTTP level on both database backends: 120 requests a minute per key by default, the three
X-RateLimit headers on every counted answer (4xx included) with Remaining counting down,
429 with the envelope and Retry-After past the limit, one bucket per key. Then the engines:
MemoryLimiter on a hand-moved clock, RedisLimiter against the real Redis (shared between
instances; per-instance fallback while Redis is down, back to Redis after retry_seconds),
and two real `homebase serve` processes sharing one PostgreSQL database and one Redis.
"""

import asyncio
import logging
import math
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest
import redis.asyncio as redis

from homebase.ratelimit import MemoryLimiter, RedisLimiter
from homebase.ratelimit.limiter import WINDOW_SECONDS
from tests.served_support import HOMEBASE, Started, start_serve, stop, tail
from tests.support import (
    POSTGRES_URL,
    REDIS_URL,
    assert_error,
    clean_env,
    closed_port,
    create_database,
    drop_database_later,
    make_key,
    require_server,
    until,
)

SMALL = {"rate_limit_api_key_per_min": 5}


async def fresh_window(needed: float) -> None:
    """Counts restart when the minute turns. A sequence that must stay inside one window
    starts only when at least `needed` seconds of it remain (waits at most `needed`)."""
    left = WINDOW_SECONDS - time.time() % WINDOW_SECONDS
    if left < needed:
        await asyncio.sleep(left + 0.05)


def limit_headers(response: httpx.Response) -> tuple[int, int, int]:
    headers = response.headers
    return (
        int(headers["x-ratelimit-limit"]),
        int(headers["x-ratelimit-remaining"]),
        int(headers["x-ratelimit-reset"]),
    )


def assert_reset_is_window_end(reset: int) -> None:
    now = time.time()
    assert reset % WINDOW_SECONDS == 0
    assert reset - WINDOW_SECONDS <= now + 1 and now < reset + 1, (reset, now)


def assert_limited(
    response: httpx.Response,
    limit: int,
    sent_at: float | None = None,
    received_at: float | None = None,
) -> None:
    """A 429 whose Retry-After is the whole seconds, rounded up, from the moment the server
    answered to the window's end (X-RateLimit-Reset). That moment lies between the
    request's sending and its answer's arrival (by default: now, less the request's
    elapsed time), so the bounds hold however slow the machine is."""
    assert_error(response, 429, "rate_limited")
    retry_after = response.headers["retry-after"]
    assert retry_after.isdigit(), retry_after
    limit_, remaining, reset = limit_headers(response)
    assert (limit_, remaining) == (limit, 0)
    assert 1 <= int(retry_after) <= WINDOW_SECONDS
    received = time.time() if received_at is None else received_at
    sent = received - response.elapsed.total_seconds() if sent_at is None else sent_at
    slack = 0.01  # the two clocks' float rounding
    assert reset - received - slack <= int(retry_after) <= reset - sent + 1 + slack, (
        retry_after,
        reset,
        sent,
        received,
    )


# --- HTTP level -------------------------------------------------------------------------


async def test_a_key_gets_exactly_120_requests_a_minute_by_default(tenant):
    await fresh_window(10)
    first = await tenant.get("/v1/ping")
    assert first.json()["rate_limit_per_min"] == 120
    remaining_seen = [limit_headers(first)[1]]
    for _ in range(119):
        response = await tenant.get("/v1/ping")
        assert response.status_code == 200, response.text
        assert limit_headers(response)[0] == 120
        remaining_seen.append(limit_headers(response)[1])
    assert remaining_seen == list(range(119, -1, -1))
    assert_limited(await tenant.get("/v1/ping"), 120)
    assert_limited(await tenant.get("/v1/contacts"), 120)


@pytest.mark.parametrize("settings_overrides", [SMALL])
async def test_every_answer_counts_down_including_4xx(tenant):
    await fresh_window(5)
    responses = [
        await tenant.get("/v1/ping"),
        await tenant.get("/v1/contacts/con_doesnotexist"),
        await tenant.post("/v1/contacts", json={"no_such_field": 1}),
        await tenant.get("/v1/contacts", params={"limit": 0}),
        await tenant.post("/v1/contacts", json={"first_name": "Ada"}),
    ]
    assert [r.status_code for r in responses] == [200, 404, 400, 400, 201]
    resets = set()
    for index, response in enumerate(responses):
        limit, remaining, reset = limit_headers(response)
        assert (limit, remaining) == (5, 4 - index), response.headers
        resets.add(reset)
    assert len(resets) == 1
    assert_reset_is_window_end(resets.pop())

    blocked = await tenant.get("/v1/contacts/con_doesnotexist")
    assert_limited(blocked, 5)
    assert "5 requests per minute" in blocked.json()["error"]["message"]


@pytest.mark.parametrize("settings_overrides", [SMALL])
async def test_a_missing_scope_403_is_counted_too(make):
    await fresh_window(5)
    scoped = await make(["leads:read"])
    response = await scoped.get("/v1/contacts")
    assert_error(response, 403, "insufficient_scope")
    assert limit_headers(response)[:2] == (5, 4)


@pytest.mark.parametrize("settings_overrides", [SMALL])
async def test_each_key_has_its_own_bucket(runtime, client, tenant, make):
    await fresh_window(5)
    for _ in range(5):
        assert (await tenant.get("/v1/ping")).status_code == 200
    assert_limited(await tenant.get("/v1/ping"), 5)

    # A second key of the same workspace, and a key of another workspace, start full.
    _, same_workspace_key = await make_key(runtime, tenant.id)
    response = await client.get(
        "/v1/ping", headers={"Authorization": f"token {same_workspace_key}"}
    )
    assert response.status_code == 200
    assert limit_headers(response)[:2] == (5, 4)
    other = await make(["contacts:read"], name="Other Realty")
    response = await other.get("/v1/contacts")
    assert response.status_code == 200
    assert limit_headers(response)[:2] == (5, 4)

    assert_limited(await tenant.get("/v1/ping"), 5)


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 2}])
async def test_a_refused_write_writes_nothing(runtime, client, tenant):
    await fresh_window(5)
    for name in ("Ada", "Grace"):
        assert (await tenant.post("/v1/contacts", json={"first_name": name})).status_code == 201
    assert_limited(await tenant.post("/v1/contacts", json={"first_name": "Hedy"}), 2)

    _, reader = await make_key(runtime, tenant.id, scopes=["contacts:read"])
    listed = await client.get("/v1/contacts", headers={"Authorization": f"token {reader}"})
    assert sorted(c["first_name"] for c in listed.json()["data"]) == ["Ada", "Grace"]


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 3}])
async def test_requests_are_answered_and_limited_while_redis_is_down(runtime, tenant, caplog):
    await fresh_window(5)
    runtime.limiter = RedisLimiter(f"redis://127.0.0.1:{closed_port()}/15", retry_seconds=60)
    with caplog.at_level(logging.WARNING, logger="homebase.ratelimit"):
        answers = [await tenant.get("/v1/ping") for _ in range(3)]
    assert [r.status_code for r in answers] == [200, 200, 200]
    assert [limit_headers(r)[1] for r in answers] == [2, 1, 0]
    assert_limited(await tenant.get("/v1/ping"), 3)
    assert any("Redis unreachable" in r.getMessage() for r in caplog.records)


# --- MemoryLimiter ----------------------------------------------------------------------


class HandClock:
    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


WINDOW_START = 1_800_000_000  # a multiple of 60: a window starts here


async def test_memory_counts_down_then_refuses_with_retry_after():
    clock = HandClock(WINDOW_START + 15.0)
    limiter = MemoryLimiter(clock=clock)
    decisions = [await limiter.hit("k", 3) for _ in range(4)]
    assert [(d.allowed, d.remaining) for d in decisions] == [
        (True, 2),
        (True, 1),
        (True, 0),
        (False, 0),
    ]
    assert {d.reset_at for d in decisions} == {WINDOW_START + 60}
    assert {d.limit for d in decisions} == {3}
    assert decisions[-1].retry_after == 45
    assert decisions[-1].headers() == [
        (b"x-ratelimit-limit", b"3"),
        (b"x-ratelimit-remaining", b"0"),
        (b"x-ratelimit-reset", str(WINDOW_START + 60).encode()),
    ]


async def test_memory_retry_after_rounds_up_and_is_at_least_one_second():
    clock = HandClock(WINDOW_START + 59.7)
    limiter = MemoryLimiter(clock=clock)
    await limiter.hit("k", 1)
    refused = await limiter.hit("k", 1)
    assert not refused.allowed and refused.retry_after == 1
    clock.now = WINDOW_START + 59.999
    assert (await limiter.hit("k", 1)).retry_after == 1


async def test_memory_window_rollover_resets_the_count():
    clock = HandClock(WINDOW_START + 30.0)
    limiter = MemoryLimiter(clock=clock)
    for _ in range(3):
        await limiter.hit("k", 2)
    clock.now = WINDOW_START + 59.999
    assert not (await limiter.hit("k", 2)).allowed
    clock.now = WINDOW_START + 60.0  # the Reset second itself starts the next window
    fresh = await limiter.hit("k", 2)
    assert (fresh.allowed, fresh.remaining, fresh.reset_at) == (True, 1, WINDOW_START + 120)
    clock.now = WINDOW_START + 600.5  # idle for minutes: still a fresh window
    later = await limiter.hit("k", 2)
    assert (later.remaining, later.reset_at) == (1, WINDOW_START + 660)
    assert later.retry_after == math.ceil(WINDOW_START + 660 - clock.now)


async def test_memory_buckets_are_separate():
    limiter = MemoryLimiter(clock=HandClock(WINDOW_START + 1.0))
    assert not [await limiter.hit("a", 1) for _ in range(2)][-1].allowed
    assert (await limiter.hit("b", 1)).allowed


async def test_memory_forgets_old_windows_when_many_buckets_are_kept():
    clock = HandClock(WINDOW_START + 1.0)
    limiter = MemoryLimiter(clock=clock)
    for index in range(100_000):
        await limiter.hit(f"old-{index}", 5)
    clock.now += 60
    await limiter.hit("new-0", 5)
    await limiter.hit("new-1", 5)
    assert len(limiter._windows) <= 2


async def test_memory_default_clock_is_unix_time():
    decision = await MemoryLimiter().hit("k", 1)
    assert_reset_is_window_end(decision.reset_at)


# --- RedisLimiter against the real Redis ------------------------------------------------


@pytest.fixture
async def redis_client():
    require_server("Redis", REDIS_URL, 6379)
    client = redis.Redis.from_url(REDIS_URL)
    yield client
    await client.aclose()


@pytest.fixture
async def bucket(redis_client):
    """A bucket name no other test (or run) uses; its Redis keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex}"
    yield name
    keys = await redis_client.keys(f"rl:{name}:*")
    if keys:
        await redis_client.delete(*keys)


async def redis_window_end(client: redis.Redis) -> int:
    seconds, _ = await client.time()
    return (seconds // WINDOW_SECONDS + 1) * WINDOW_SECONDS


async def test_redis_counts_are_shared_between_instances(redis_client, bucket):
    await fresh_window(3)
    first, second = RedisLimiter(REDIS_URL), RedisLimiter(REDIS_URL)
    try:
        expected_end = await redis_window_end(redis_client)
        decisions = [await (first if i % 2 == 0 else second).hit(bucket, 5) for i in range(6)]
        sent = time.time()
        decisions.append(await first.hit(bucket, 5))
        received = time.time()
    finally:
        await first.close()
        await second.close()
    assert [(d.allowed, d.remaining) for d in decisions] == [
        (True, 4),
        (True, 3),
        (True, 2),
        (True, 1),
        (True, 0),
        (False, 0),
        (False, 0),
    ]
    assert {d.reset_at for d in decisions} == {expected_end}
    assert all(1 <= d.retry_after <= 60 for d in decisions)
    # The whole seconds from Redis's moment, between sent and received, to the window's end.
    slack = 0.01  # the two clocks' float rounding
    retry_after = decisions[-1].retry_after
    assert expected_end - received - slack <= retry_after <= expected_end - sent + 1 + slack
    assert not first.degraded and not second.degraded
    # One key per window, cleaned up by Redis shortly after the window ends.
    keys = await redis_client.keys(f"rl:{bucket}:*")
    assert len(keys) == 1
    assert 0 < await redis_client.ttl(keys[0]) <= 61
    assert int(await redis_client.get(keys[0])) == 7


async def test_redis_unreachable_falls_back_to_counting_per_instance(caplog):
    down = await Proxy(None).start()  # Redis's address, where every connection is dropped
    first = RedisLimiter(down.url, retry_seconds=60)
    second = RedisLimiter(down.url, retry_seconds=60)
    try:
        await fresh_window(3)
        with caplog.at_level(logging.WARNING, logger="homebase.ratelimit"):
            mine = [await first.hit("k", 3) for _ in range(4)]
            theirs = await second.hit("k", 3)
    finally:
        await first.close()
        await second.close()
        await down.close()
    assert [(d.allowed, d.remaining) for d in mine] == [(True, 2), (True, 1), (True, 0), (False, 0)]
    assert (theirs.allowed, theirs.remaining) == (True, 2)  # its own count, not shared
    assert_reset_is_window_end(mine[0].reset_at)
    assert first.degraded and second.degraded
    warnings = [
        r for r in caplog.records if r.name == "homebase.ratelimit" and r.levelno == logging.WARNING
    ]
    # One warning per instance: while degraded it doesn't try (or warn) on every request.
    assert len(warnings) == 2, [r.getMessage() for r in warnings]
    assert all("Redis unreachable" in r.getMessage() for r in warnings)
    assert down.connections == 2  # one try each: the fallback answered the rest at once


class Proxy:
    """A loopback TCP relay to the real Redis on a port of its own (bound 0), counting the
    connections it takes. Without a target (`target=None`, Redis down) it drops each at
    once; setting `target` later is "Redis comes back" at the address the limiter uses."""

    def __init__(self, target: tuple[str, int] | None):
        self.target = target
        self.connections = 0
        self.tasks: list[asyncio.Task] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> "Proxy":
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/15"

    async def _accept(self, reader, writer) -> None:
        self.connections += 1
        if self.target is None:
            writer.close()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self.writers += [writer, upstream_writer]
        self.tasks += [
            asyncio.create_task(self._pipe(reader, upstream_writer)),
            asyncio.create_task(self._pipe(upstream_reader, writer)),
        ]

    @staticmethod
    async def _pipe(reader, writer) -> None:
        try:
            while data := await reader.read(65536):  # ends at EOF or on close()
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def close(self) -> None:
        self.server.close()
        for writer in self.writers:
            writer.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.wait_for(self.server.wait_closed(), 5)


async def test_redis_is_used_again_after_retry_seconds(redis_client, bucket, caplog):
    proxy = await Proxy(None).start()
    limiter = RedisLimiter(proxy.url, retry_seconds=0.5)
    direct = RedisLimiter(REDIS_URL)
    try:
        await fresh_window(5)
        with caplog.at_level(logging.WARNING, logger="homebase.ratelimit"):
            down = await limiter.hit(bucket, 10)
        assert limiter.degraded and down.allowed and down.remaining == 9
        assert any("Redis unreachable" in r.getMessage() for r in caplog.records)

        proxy.target = ("127.0.0.1", 6379)  # Redis is reachable again at the limiter's address
        still_local = await limiter.hit(bucket, 10)
        assert still_local.remaining == 8 and proxy.connections == 1  # not tried again yet

        await until(lambda: not limiter.degraded, 30, what="the end of retry_seconds")
        back = await limiter.hit(bucket, 10)
        assert proxy.connections >= 2 and not limiter.degraded
        assert back.remaining == 9  # counted in Redis now, where this is the first hit
        assert back.reset_at == await redis_window_end(redis_client)
        shared = await direct.hit(bucket, 10)
        assert shared.remaining == 8  # and another instance sees that count
    finally:
        await limiter.close()
        await direct.close()
        await proxy.close()


# --- Two real server processes sharing PostgreSQL and Redis ----------------------------


@pytest.fixture
def shared_database():
    """A dedicated PostgreSQL database for the server processes, dropped afterwards."""
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    require_server("Redis", REDIS_URL, 6379)
    name = f"homebase_multi_{uuid.uuid4().hex[:10]}"

    url = asyncio.run(create_database(name))
    try:
        yield url
    finally:
        drop_database_later(name)


def admin_json(env: dict[str, str], cwd: Path, *args: str) -> dict:
    import json

    done = subprocess.run(
        [str(HOMEBASE), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def workspace_with_key(env: dict[str, str], cwd: Path, name: str, scopes: str) -> tuple[dict, dict]:
    """`admin create-workspace --name NAME`, then `admin create-api-key` for it with
    `scopes` (space-separated): both commands' answers."""
    workspace = admin_json(env, cwd, "admin", "create-workspace", "--name", name)
    key = admin_json(
        env, cwd, "admin", "create-api-key", "--workspace", workspace["id"], "--scopes", scopes
    )
    return workspace, key


def wait_until_healthy(servers: list[tuple[Started, Path]]) -> None:
    def healthy(server: tuple[Started, Path]) -> bool:
        started, log = server
        if started.process.poll() is not None:
            pytest.fail(f"server on {started.port} exited early:\n{tail(log)}")
        try:
            return httpx.get(f"{started.base_url}/healthz", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    until(lambda: all(healthy(server) for server in servers), 60, what="the servers' /healthz")


def test_two_servers_share_one_limit(shared_database, tmp_path):
    env = clean_env(
        HOMEBASE_DATABASE_URL=shared_database,
        HOMEBASE_REDIS_URL=REDIS_URL,
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="10",
        HOMEBASE_SECRET_KEY="multi-instance-test-secret",
    )
    admin_json(env, tmp_path, "migrate")
    workspace, key = workspace_with_key(env, tmp_path, "Shared Realty", "contacts:read")

    servers: list[tuple[Started, Path]] = []
    try:
        for index in range(2):
            log = tmp_path / f"server-{index}.log"
            servers.append((start_serve(tmp_path, env, "--no-worker", log=log), log))
        wait_until_healthy(servers)

        asyncio.run(fresh_window(10))
        headers = {"Authorization": f"token {key['key']}"}
        timed = []
        with httpx.Client(timeout=10, headers=headers) as http:
            for i in range(12):
                sent = time.time()
                answer = http.get(f"{servers[i % 2][0].base_url}/v1/contacts")
                timed.append((sent, answer, time.time()))
        answers = [answer for _, answer, _ in timed]
        statuses = [r.status_code for r in answers]
        assert statuses == [200] * 10 + [429, 429], [r.text for r in answers]
        assert [limit_headers(r)[1] for r in answers[:10]] == list(range(9, -1, -1))
        assert len({limit_headers(r)[2] for r in answers}) == 1
        for sent, blocked, received in timed[10:]:
            assert_limited(blocked, 10, sent, received)
    finally:
        for started, _ in servers:
            started.process.terminate()
        for started, _ in servers:
            stop(started.process)
        asyncio.run(_forget_key(key["id"]))


async def _forget_key(key_id: str) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = await client.keys(f"rl:key:{key_id}:*")
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


# --- ScriptBatch: concurrent requests' scripts share a pipeline ---------------------------


async def test_concurrent_hits_share_round_trips_and_each_gets_its_own_count(redis_client, bucket):
    await fresh_window(3)
    limiter = RedisLimiter(REDIS_URL)
    try:
        decisions = await asyncio.gather(*(limiter.hit(bucket, 100) for _ in range(40)))
        round_trips = limiter.batch.round_trips
        alone = await limiter.hit(bucket, 100)  # nothing else in flight: sent at once
    finally:
        await limiter.close()
    # Every hit counted once, in the order they were made (one pipeline, in order).
    assert [d.remaining for d in decisions] == list(range(99, 59, -1))
    assert round_trips == 1
    assert alone.remaining == 59 and limiter.batch.round_trips == 2
    assert not limiter.degraded


async def test_a_script_redis_does_not_know_is_loaded_and_sent_again(redis_client, bucket):
    limiter = RedisLimiter(REDIS_URL)
    # A script body no server has seen (NOSCRIPT on its first EVALSHA), as after a
    # Redis restart or SCRIPT FLUSH.
    fresh = limiter.client.register_script(
        f"-- {uuid.uuid4().hex}\nreturn {{redis.call('INCR', KEYS[1]), 1, 2, 3}}"
    )
    try:
        replies = await asyncio.gather(
            *(limiter.batch.call(fresh, f"rl:{bucket}:x") for _ in range(3))
        )
    finally:
        await limiter.close()
    assert sorted(reply[0] for reply in replies) == [1, 2, 3]
    assert limiter.batch.round_trips == 2  # NOSCRIPT, then loaded and sent again


async def test_a_cancelled_caller_does_not_disturb_the_others(redis_client, bucket):
    await fresh_window(3)
    limiter = RedisLimiter(REDIS_URL)
    try:
        calls = [asyncio.create_task(limiter.hit(bucket, 100)) for _ in range(5)]
        await asyncio.sleep(0)  # all five are pending in the batch
        calls[2].cancel()
        results = await asyncio.gather(*calls, return_exceptions=True)
        after = await limiter.hit(bucket, 100)
    finally:
        await limiter.close()
    assert isinstance(results[2], asyncio.CancelledError)
    assert sorted(d.remaining for i, d in enumerate(results) if i != 2) == [95, 96, 98, 99]
    assert after.remaining == 94  # the cancelled call was counted in Redis all the same


async def test_a_failed_pipeline_fails_every_call_in_it_once_then_counts_per_instance(caplog):
    limiter = RedisLimiter(f"redis://127.0.0.1:{closed_port()}/15", retry_seconds=60)
    try:
        await fresh_window(3)
        with caplog.at_level(logging.WARNING, logger="homebase.ratelimit"):
            decisions = await asyncio.gather(*(limiter.hit("k", 10) for _ in range(4)))
    finally:
        await limiter.close()
    assert sorted(d.remaining for d in decisions) == [6, 7, 8, 9]  # in memory
    assert limiter.degraded
    warnings = [r for r in caplog.records if r.name == "homebase.ratelimit"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
