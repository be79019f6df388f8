"""Faults on the real topology (scripts/cluster): two API instances and two workers behind
HAProxy, on a throwaway PostgreSQL cluster and redis-server of each test's own, on free
loopback ports (never the shared 5432/6379). Serial: `make test-faults` (a parallel run
skips them). Every loop is bounded in count and time. docs/operations.md ("Deployment")."""

import asyncio
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import redis

from scripts.topology import Cluster
from tests.cluster_support import (
    SERIAL_ONLY,
    api_key,
    assert_envelope,
    make_cluster_fixture,  # noqa: F401  (the fixture: `make_cluster`)
    tail,
)
from tests.ratelimit.test_ratelimit import fresh_window
from tests.support import until

pytestmark = SERIAL_ONLY


# -- A killed instance -----------------------------------------------------------------------

TOTAL, CONCURRENCY, KILL_AFTER = 240, 8, 60
Answer = httpx.Response | httpx.RemoteProtocolError


async def _burst(
    client: httpx.AsyncClient, headers: dict, tag: str, total: int, on_done=None
) -> list[tuple[float, float, Answer]]:
    """`total` POST /v1/contacts, CONCURRENCY at a time: (sent, answered, response) each."""
    queue = list(range(total))
    results: list[tuple[float, float, Answer]] = []

    async def sender() -> None:
        while queue:
            index = queue.pop(0)
            sent = time.monotonic()
            try:
                response = await client.post(
                    "/v1/contacts",
                    headers=headers,
                    json={"first_name": f"{tag}{index}", "email": f"{tag}{index}@example.com"},
                )
            except httpx.RemoteProtocolError as error:  # closed unanswered (haproxy.config)
                response = error
            results.append((sent, time.monotonic(), response))
            if on_done:
                await on_done(len(results))

    await asyncio.wait_for(asyncio.gather(*(sender() for _ in range(CONCURRENCY))), 60)
    return results


def _status(answer: Answer) -> int | None:
    return answer.status_code if isinstance(answer, httpx.Response) else None


async def _all_contact_ids(client: httpx.AsyncClient, headers: dict) -> set[str]:
    ids: set[str] = set()
    params: dict = {"limit": 200}
    for _ in range(20):  # at most 4,000 contacts; the test makes fewer than 300
        page = (await client.get("/v1/contacts", headers=headers, params=params)).json()
        ids.update(item["id"] for item in page["data"])
        if not page["has_more"]:
            return ids
        params["cursor"] = page["next_cursor"]
    raise AssertionError("more pages than the test made contacts")


async def test_a_killed_instance_is_taken_out_and_loses_only_its_requests_in_flight(make_cluster):
    started = time.monotonic()
    cluster = make_cluster(HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="100000")
    up = time.monotonic() - started
    workspace = cluster.homebase("admin", "create-workspace", "--name", "Faults")["id"]
    headers = api_key(cluster, workspace, "contacts:write")
    killing: list[bool] = []
    killed_at: list[float] = []

    async def kill_midway(done: int) -> None:
        if done == KILL_AFTER and not killing:
            killing.append(True)
            await asyncio.to_thread(cluster.kill, "api-1", signal.SIGKILL)
            killed_at.append(time.monotonic())  # gone: nothing sent later can be on it

    async with httpx.AsyncClient(base_url=cluster.url, timeout=30) as client:
        results = await _burst(client, headers, "burst", TOTAL, kill_midway)
        out_after = await asyncio.to_thread(cluster.wait_backend, "api-1", "DOWN", 20)
        out_after += time.monotonic() - killed_at[0]
        # Taken out: everything sent now is answered by the other instance.
        after = await _burst(client, headers, "after", 40)
        stored = await _all_contact_ids(client, headers)

    created = [r.json()["id"] for _, _, r in results + after if _status(r) == 201]
    failed = [(sent, r) for sent, _, r in results if _status(r) != 201]
    assert len(results) == TOTAL and killed_at
    # Lost: only requests in flight on the killed instance (sent before the kill): at most
    # one per concurrent client. Each is the load balancer's 502 envelope, or its client
    # connection closed unanswered (a kept-alive one; scripts/haproxy.py says why).
    assert len(failed) <= CONCURRENCY, (failed, tail(cluster, "haproxy"))
    for sent, answer in failed:
        assert sent < killed_at[0], answer
        if isinstance(answer, httpx.Response):
            assert answer.status_code == 502, answer.text
            assert_envelope(answer, "bad_gateway")
    assert [_status(r) for _, _, r in after] == [201] * 40
    # Nothing answered 2xx is missing; a failed one may or may not have committed.
    assert set(created) <= stored
    assert len(created) <= len(stored) <= len(created) + len(failed)
    assert cluster.backends() == {"api-1": "DOWN", "api-2": "UP"}

    # Back: the instance started again is put back in by its health checks.
    cluster.start_process("api-1")
    back_after = await asyncio.to_thread(cluster.wait_backend, "api-1", "UP", 60)
    print(
        f"\ncluster up in {up:.1f} s; api-1 out {out_after:.1f} s after SIGKILL with "
        f"{len(failed)} request(s) in flight lost "
        f"({sum(isinstance(a, httpx.Response) for _, a in failed)} answered 502); "
        f"back {back_after:.1f} s after restart; "
        f"test {time.monotonic() - started:.1f} s"
    )


# -- Redis stopped and started under load -----------------------------------------------------

LIMIT, RETRY_SECONDS = 20, 1


class Load:
    """Requests in the background, two at a time, until stopped (at most 60 s and 3,000
    requests): (status or error, seconds) each."""

    def __init__(self, client: httpx.AsyncClient, headers: dict):
        self.client, self.headers = client, headers
        self.answers: list[tuple[int | str, float]] = []
        self.stopping = asyncio.Event()

    async def _one_client(self) -> None:
        deadline = time.monotonic() + 60
        while (
            not self.stopping.is_set() and time.monotonic() < deadline and len(self.answers) < 3000
        ):
            sent = time.monotonic()
            try:
                status: int | str = (
                    await self.client.get("/v1/contacts", headers=self.headers, params={"limit": 1})
                ).status_code
            except httpx.TransportError as error:
                status = repr(error)
            self.answers.append((status, time.monotonic() - sent))
            await asyncio.sleep(0.01)

    async def __aenter__(self) -> "Load":
        self.tasks = [asyncio.create_task(self._one_client()) for _ in range(2)]
        return self

    async def __aexit__(self, *exc) -> None:
        self.stopping.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), 30)


async def _accepted(client: httpx.AsyncClient, headers: dict, count: int) -> tuple[int, float]:
    """`count` requests of one key, four at a time: how many passed the limiter, and the
    slowest answer. Every refusal is the 429 envelope with Retry-After."""
    answers: list[httpx.Response] = []
    slowest = 0.0
    # Counts restart when the minute turns: the requests stay inside one window.
    await fresh_window(8)

    async def one() -> None:
        nonlocal slowest
        sent = time.monotonic()
        answers.append(await client.get("/v1/contacts", headers=headers, params={"limit": 1}))
        slowest = max(slowest, time.monotonic() - sent)

    for start in range(0, count, 4):
        await asyncio.gather(*(one() for _ in range(min(4, count - start))))
    assert {r.status_code for r in answers} <= {200, 429}, [r.text for r in answers]
    for refused in (r for r in answers if r.status_code == 429):
        assert_envelope(refused, "rate_limited")
    return sum(r.status_code == 200 for r in answers), slowest


def _redis_count(cluster: Cluster, key_id: str) -> int:
    client = redis.Redis.from_url(cluster.state["redis_url"], socket_timeout=2)
    try:
        return sum(int(client.get(name) or 0) for name in client.scan_iter(f"rl:key:{key_id}:*"))
    finally:
        client.close()


async def _counted_in_redis(
    cluster: Cluster, client: httpx.AsyncClient, probe: dict[str, str]
) -> float:
    """Seconds until two rounds of eight requests in a row are all counted in Redis: both
    instances use it again (given up after 30 s)."""
    started, clean = time.monotonic(), 0

    async def twice_clean() -> bool:
        nonlocal clean
        before = await asyncio.to_thread(_redis_count, cluster, probe["X-Key-Id"])
        await asyncio.gather(*(client.get("/v1/ping", headers=probe) for _ in range(8)))
        counted = await asyncio.to_thread(_redis_count, cluster, probe["X-Key-Id"]) - before
        clean = clean + 1 if counted == 8 else 0
        return clean >= 2

    await until(twice_clean, 30, every=RETRY_SECONDS / 2, what="both instances back in Redis")
    return time.monotonic() - started


async def test_redis_stopped_and_started_under_load_falls_back_per_instance_without_5xx(
    make_cluster,
):
    started = time.monotonic()
    cluster = make_cluster(
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN=str(LIMIT),
        HOMEBASE_REDIS_RETRY_SECONDS=str(RETRY_SECONDS),
    )
    up = time.monotonic() - started
    workspace = cluster.homebase("admin", "create-workspace", "--name", "Faults")["id"]
    with ThreadPoolExecutor(5) as pool:  # each is a `homebase admin` process: at once
        keys = list(pool.map(lambda _: api_key(cluster, workspace, "contacts:read"), range(5)))
    async with (
        httpx.AsyncClient(base_url=cluster.url, timeout=30) as client,
        Load(client, keys[0]) as load,
    ):
        # Redis up: one limit shared by both instances.
        assert (await _accepted(client, keys[1], 2 * LIMIT))[0] == LIMIT
        await asyncio.to_thread(cluster.stop_redis)
        down_at = time.monotonic()
        await asyncio.sleep(3 * RETRY_SECONDS + 0.5)  # the load meets several retries
        # Redis down: each instance counts in memory, so a client spread over the two gets
        # more than the limit but never more than twice it; the service keeps answering.
        accepted_down, slowest_down = await _accepted(client, keys[2], 3 * LIMIT)
        assert LIMIT < accepted_down <= 2 * LIMIT
        assert (await client.get("/healthz")).status_code == 200
        assert cluster.backends() == {"api-1": "UP", "api-2": "UP"}
        down_for = time.monotonic() - down_at
        await asyncio.to_thread(cluster.start_redis)
        # Redis is tried again RETRY_SECONDS after each failure (a pooled connection to the
        # stopped server fails once more); then both instances count in it again.
        back_after = await _counted_in_redis(cluster, client, keys[4])
        accepted_back, slowest_back = await _accepted(client, keys[3], 2 * LIMIT)
        assert accepted_back == LIMIT
    statuses = {status for status, _ in load.answers}
    assert statuses <= {200, 429}, statuses  # no 5xx, nothing unanswered
    slowest_load = max(seconds for _, seconds in load.answers)
    print(
        f"\ncluster up in {up:.1f} s; Redis down {down_for:.1f} s; "
        f"{len(load.answers)} background requests; slowest "
        f"answer: {slowest_load:.2f} s in the background, {slowest_down:.2f} s with Redis "
        f"down, {slowest_back:.2f} s after; back in Redis {back_after:.1f} s after its "
        f"restart; test {time.monotonic() - started:.1f} s"
    )
