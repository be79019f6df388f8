"""Several server processes on one host without Redis (`homebase serve --workers N`) share
one limit per key through a file (homebase/ratelimit/host.py): the engine across
instances and OS processes, and two real uvicorn workers answering one key."""

import asyncio
import json
import subprocess
import sys
import time

import httpx
import pytest

from homebase.ratelimit.host import HostLimiter, prepare
from homebase.ratelimit.limiter import WINDOW_SECONDS
from tests.ratelimit.test_ratelimit import (
    HandClock,
    admin_json,
    assert_limited,
    clean_env,
    fresh_window,
    limit_headers,
    workspace_with_key,
)
from tests.served_support import healthy, start_serve, stop, tail
from tests.support import until

WINDOW_START = 1_800_000_000


async def test_instances_on_one_file_share_each_bucket(tmp_path):
    path = prepare(tmp_path / "ratelimit.sqlite3")
    clock = HandClock(WINDOW_START + 10)
    first, second = HostLimiter(path, clock), HostLimiter(path, clock)
    try:
        decisions = [await (first if index % 2 else second).hit("key:a", 3) for index in range(4)]
        assert [d.remaining for d in decisions] == [2, 1, 0, 0]
        assert [d.allowed for d in decisions] == [True, True, True, False]
        assert decisions[-1].retry_after == 50
        assert {d.reset_at for d in decisions} == {WINDOW_START + WINDOW_SECONDS}
        assert (await first.hit("key:b", 3)).remaining == 2  # another bucket starts full
        clock.now += WINDOW_SECONDS  # the next window starts again
        assert (await second.hit("key:a", 3)).remaining == 2
    finally:
        await first.close()
        await second.close()


_HITS = """
import asyncio, json, sys
from homebase.ratelimit.host import HostLimiter

async def main():
    limiter = HostLimiter(sys.argv[1])
    counts = [120 - (await limiter.hit("key:shared", 120)).remaining for _ in range(60)]
    await limiter.close()
    print(json.dumps(counts))

asyncio.run(main())
"""


def test_os_processes_counting_at_once_never_lose_or_repeat_a_count(tmp_path):
    path = prepare(tmp_path / "ratelimit.sqlite3")
    asyncio.run(fresh_window(10))
    processes = [
        subprocess.Popen([sys.executable, "-c", _HITS, path], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=60)[0] for process in processes]
    assert all(process.returncode == 0 for process in processes)
    counts = [count for output in outputs for count in json.loads(output)]
    # 120 hits of one bucket: each got a distinct count (the last ones cap at the limit).
    assert sorted(counts) == list(range(1, 121))


def test_two_uvicorn_workers_without_redis_share_one_limit(tmp_path):
    env = clean_env(
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="10", HOMEBASE_SECRET_KEY="workers-test-secret"
    )
    admin_json(env, tmp_path, "migrate")
    workspace, key = workspace_with_key(env, tmp_path, "One Host", "contacts:read")
    log = tmp_path / "server.log"
    started = start_serve(tmp_path, env, "--workers", "2", "--no-worker", log=log)
    server, base = started.process, started.base_url
    try:
        _wait_for_workers(server, base, log, count=2)
        asyncio.run(fresh_window(15))
        headers = {"Authorization": f"token {key['key']}", "Connection": "close"}
        # A new connection each time, so both worker processes take requests.
        timed = [_timed_get(f"{base}/v1/contacts", headers) for _ in range(24)]
        answers = [answer for _, answer, _ in timed]
        assert [r.status_code for r in answers] == [200] * 10 + [429] * 14, log.read_text()[-2000:]
        assert [limit_headers(r)[1] for r in answers[:10]] == list(range(9, -1, -1))
        for sent, blocked, received in timed[10:]:
            assert_limited(blocked, 10, sent, received)
    finally:
        stop(server)


def _timed_get(url: str, headers: dict) -> tuple[float, httpx.Response, float]:
    """(sent at, the answer, received at): a 429's Retry-After is checked against the
    moment it was answered, not the end of the whole sequence."""
    sent = time.time()
    answer = httpx.get(url, headers=headers, timeout=10)
    return sent, answer, time.time()


def _wait_for_workers(server: subprocess.Popen, base: str, log, count: int) -> None:
    """Healthy, and every worker process has started (uvicorn logs each one's startup)."""

    def up() -> bool:
        if server.poll() is not None:
            pytest.fail(f"server exited early:\n{tail(log)}")
        started = log.read_text().count("Application startup complete")
        return started >= count and healthy(base)

    until(up, 60, what=lambda: f"{count} workers up:\n{tail(log)}")
