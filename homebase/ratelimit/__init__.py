"""The rate limiter (limiter.py: in memory and Redis; host.py: a file every server process
of the host counts in), and the choice between them."""

from homebase.ratelimit.host import HostLimiter
from homebase.ratelimit.limiter import Decision, Limiter, MemoryLimiter, RedisLimiter

__all__ = ["Decision", "Limiter", "MemoryLimiter", "RedisLimiter", "build_limiter"]


def build_limiter(
    redis_url: str | None, retry_seconds: float = 5.0, host_file: str | None = None
) -> Limiter:
    """Redis when configured; else the host's shared file when several server processes
    run (`serve --workers N`, ratelimit/host.py); else this process's memory."""
    if redis_url:
        return RedisLimiter(redis_url, retry_seconds=retry_seconds)
    if host_file:
        return HostLimiter(host_file)
    return MemoryLimiter()
