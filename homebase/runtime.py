"""What a running service holds: settings, database, limiter, clock and resolver.

Built once per process (or per test), stored on the app, reached by request handlers
and workers through this one object."""

import os
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from homebase.config import Settings, get_settings
from homebase.db.engine import Database
from homebase.kit.clock import Clock, system_clock
from homebase.kit.dns import Resolver, loopback_only_resolver, system_resolver
from homebase.metrics import pool as pool_metrics
from homebase.ratelimit import Limiter, build_limiter
from homebase.worker.background import Background
from homebase.worker.wakeup import Wakeup

# Set by `homebase serve --workers N` (N > 1) without Redis: the file in which every
# server process of the host counts the rate limit (ratelimit/host.py).
HOST_LIMITER_ENV = "HOMEBASE_SERVE_HOST_LIMITER_FILE"


@dataclass
class Runtime:
    settings: Settings
    db: Database
    limiter: Limiter
    clock: Clock = field(default=system_clock)
    # Host names are resolved only through this (kit/dns.py); tests put a stub here.
    resolver: Resolver = field(default=system_resolver)
    # Set when a transaction that wrote background work commits (db/work.py); the
    # worker in this process waits on it between rounds (worker/wakeup.py).
    wakeup: Wakeup = field(default_factory=Wakeup)
    # What worker jobs start and do not wait for (the AI's model calls), bounded per kind.
    background: Background = field(default_factory=Background)

    def __post_init__(self) -> None:
        self.db.on_work.append(self.wakeup.notify)
        pool_metrics.watch(self.db)

    @classmethod
    def from_settings(
        cls, settings: Settings | None = None, *, clock: Clock = system_clock
    ) -> "Runtime":
        settings = settings or get_settings()
        return cls(
            settings=settings,
            db=Database(
                settings.database_url,
                sqlite_pool_size=settings.sqlite_pool_size,
                pool_size=settings.database_pool_size,
                pool_timeout=settings.database_pool_timeout_seconds,
                connect_timeout=settings.database_connect_timeout_seconds,
                statement_timeout=settings.database_statement_timeout_seconds,
                write_timeout=settings.database_write_timeout_seconds,
            ),
            limiter=build_limiter(
                settings.redis_url, settings.redis_retry_seconds, os.environ.get(HOST_LIMITER_ENV)
            ),
            clock=clock,
            resolver=(
                loopback_only_resolver if settings.testing_loopback_resolver else system_resolver
            ),
        )

    async def close(self) -> None:
        await self.background.close()
        await self.limiter.close()
        await self.db.dispose()


def get_runtime(connection: HTTPConnection) -> Runtime:
    runtime: Runtime = connection.app.state.runtime
    return runtime
