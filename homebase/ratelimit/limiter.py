"""Fixed one-minute windows per bucket (an API key, later an OAuth app in a workspace).

X-RateLimit-Reset is the Unix time, in whole seconds, at which the current window ends
and the count starts again (as GitHub's API does). In Redis the count is one atomic
script per request, windowed by Redis's own clock so every instance agrees. While Redis
can't be reached the limiter counts per instance in memory (the service stays up, each
instance still enforces the limit on its own share) and tries Redis again after
`HOMEBASE_REDIS_RETRY_SECONDS`.
"""

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import redis.asyncio as redis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError

log = logging.getLogger("homebase.ratelimit")
WINDOW_SECONDS = 60


@dataclass(frozen=True, slots=True)
class Decision:
    limit: int
    remaining: int
    reset_at: int  # Unix seconds when the window ends
    allowed: bool
    retry_after: int  # seconds; meaningful when not allowed

    def headers(self) -> list[tuple[bytes, bytes]]:
        return [
            (b"x-ratelimit-limit", str(self.limit).encode()),
            (b"x-ratelimit-remaining", str(self.remaining).encode()),
            (b"x-ratelimit-reset", str(self.reset_at).encode()),
        ]


Counter = Callable[[str, int], Awaitable[Decision]]  # hit or peek


def decide(count: int, limit: int, window_end: int, now: float) -> Decision:
    return Decision(
        limit=limit,
        remaining=max(0, limit - count),
        reset_at=window_end,
        allowed=count <= limit,
        retry_after=max(1, math.ceil(window_end - now)),
    )


class Limiter(Protocol):
    async def hit(self, bucket: str, limit: int) -> Decision: ...

    # The decision a hit would get now, without counting one: lets a caller refuse
    # before expensive work and count only the outcomes it must (the unauthenticated
    # budget counts failed sign-ins, never successful ones).
    async def peek(self, bucket: str, limit: int) -> Decision: ...

    async def close(self) -> None: ...


class MemoryLimiter:
    def __init__(self, clock: Callable[[], float] = time.time):
        self.clock = clock
        self._windows: dict[str, tuple[int, int]] = {}

    async def hit(self, bucket: str, limit: int) -> Decision:
        now = self.clock()
        window = int(now // WINDOW_SECONDS)
        current_window, count = self._windows.get(bucket, (window, 0))
        count = count + 1 if current_window == window else 1
        self._windows[bucket] = (window, count)
        if len(self._windows) > 100_000:
            self._evict(window)
        return decide(count, limit, (window + 1) * WINDOW_SECONDS, now)

    async def peek(self, bucket: str, limit: int) -> Decision:
        now = self.clock()
        window = int(now // WINDOW_SECONDS)
        current_window, count = self._windows.get(bucket, (window, 0))
        count = count if current_window == window else 0
        return decide(count + 1, limit, (window + 1) * WINDOW_SECONDS, now)

    def _evict(self, window: int) -> None:
        self._windows = {b: v for b, v in self._windows.items() if v[0] == window}

    async def close(self) -> None:
        return None


_SCRIPT = """
local now = redis.call('TIME')
local window = math.floor(tonumber(now[1]) / 60)
local key = KEYS[1] .. ':' .. window
local count = redis.call('INCR', key)
if count == 1 then redis.call('EXPIRE', key, 61) end
return {count, (window + 1) * 60, now[1], now[2]}
"""
_PEEK_SCRIPT = """
local now = redis.call('TIME')
local window = math.floor(tonumber(now[1]) / 60)
local count = tonumber(redis.call('GET', KEYS[1] .. ':' .. window) or '0') + 1
return {count, (window + 1) * 60, now[1], now[2]}
"""


class ScriptBatch:
    """Limiter scripts of concurrent requests sent to Redis together: one pipeline
    (redis-py's `pipeline(transaction=False)`, EVALSHA per call) at a time, and the calls
    that arrive while it is in flight go in the next. Alone, a call is sent at once (on
    the loop's next turn); under load, one round trip, one connection checkout and one
    reply read serve many requests, so each call's share of that work is small
    (docs/performance.md, "Ids, phones, the rate limiter"). Each call's
    outcome is its own: the script's reply, or the error that reached it (the whole
    pipeline's, when the connection failed). A script Redis does not know (NOSCRIPT: a
    restart, SCRIPT FLUSH) is loaded and its calls sent again, once."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.pending: list[tuple[AsyncScript, str, asyncio.Future[Any]]] = []
        self.sending = False
        self.sender: asyncio.Task[None] | None = None  # referenced while it runs
        self.round_trips = 0  # pipelines sent (tests, metrics)

    async def call(self, script: AsyncScript, key: str) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((script, key, future))
        if not self.sending:
            self.sending = True
            self.sender = asyncio.get_running_loop().create_task(self._send())
        return await future

    async def _send(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    await self._run(batch)
                except BaseException as error:
                    failure = error if isinstance(error, Exception) else RedisError(str(error))
                    for _script, _key, future in batch:
                        if not future.done():
                            future.set_exception(failure)
                    if not isinstance(error, Exception):
                        raise
        finally:
            self.sending = False
            for _script, _key, future in self.pending:  # only when cancelled mid-send
                if not future.done():
                    future.set_exception(RedisError("the limiter's pipeline was cancelled"))
            self.pending = []

    async def _run(self, batch: list[tuple[AsyncScript, str, asyncio.Future[Any]]]) -> None:
        replies = await self._pipeline(batch)
        unknown = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if unknown:
            for script in {id(batch[i][0]): batch[i][0] for i in unknown}.values():
                await self.client.script_load(script.script)
            again = await self._pipeline([batch[i] for i in unknown])
            for i, reply in zip(unknown, again, strict=True):
                replies[i] = reply
        for (_script, _key, future), reply in zip(batch, replies, strict=True):
            if future.done():  # the caller was cancelled
                continue
            if isinstance(reply, Exception):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    async def _pipeline(
        self, batch: list[tuple[AsyncScript, str, asyncio.Future[Any]]]
    ) -> list[Any]:
        self.round_trips += 1
        pipeline = self.client.pipeline(transaction=False)
        for script, key, _future in batch:
            pipeline.evalsha(script.sha, 1, key)
        return list(await pipeline.execute(raise_on_error=False))


class RedisLimiter:
    def __init__(
        self,
        url: str,
        *,
        retry_seconds: float = 5.0,
        fallback: MemoryLimiter | None = None,
        timeout: float = 0.25,
    ):
        self.client = redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout
        )
        self.script = self.client.register_script(_SCRIPT)
        self.peek_script = self.client.register_script(_PEEK_SCRIPT)
        self.batch = ScriptBatch(self.client)
        self.fallback = fallback or MemoryLimiter()
        self.retry_seconds = retry_seconds
        self._down_until = 0.0

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self._down_until

    async def hit(self, bucket: str, limit: int) -> Decision:
        return await self._run(self.script, bucket, limit, self.fallback.hit)

    async def peek(self, bucket: str, limit: int) -> Decision:
        return await self._run(self.peek_script, bucket, limit, self.fallback.peek)

    async def _run(
        self, script: AsyncScript, bucket: str, limit: int, fallback: Counter
    ) -> Decision:
        if self.degraded:
            return await fallback(bucket, limit)
        try:
            count, window_end, seconds, micros = await self.batch.call(script, f"rl:{bucket}")
        except (RedisError, OSError) as error:
            if self.degraded:  # another call of the same failed pipeline got here first
                return await fallback(bucket, limit)
            log.warning(
                "rate limiter: Redis unreachable (%s); counting per instance for %.0fs",
                error,
                self.retry_seconds,
            )
            self._down_until = time.monotonic() + self.retry_seconds
            # Every pooled connection went to the server that failed: drop them all, so
            # the next try after the pause opens fresh ones instead of meeting each stale
            # one in turn (each would start another pause of per-instance counting).
            try:
                await self.client.connection_pool.disconnect()
            except (RedisError, OSError):
                pass
            return await fallback(bucket, limit)
        now = int(seconds) + int(micros) / 1e6
        return decide(int(count), limit, int(window_end), now)

    async def close(self) -> None:
        await self.client.aclose()
