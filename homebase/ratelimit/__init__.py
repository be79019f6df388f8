from homebase.ratelimit.limiter import Decision, Limiter, MemoryLimiter, RedisLimiter, build_limiter

__all__ = ["Decision", "Limiter", "MemoryLimiter", "RedisLimiter", "build_limiter"]
