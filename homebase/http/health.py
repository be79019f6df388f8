"""Liveness and readiness, outside /v1, with no credential and never rate-limited.

/healthz: the process serves (no database access, so a database outage never makes an
orchestrator restart healthy processes). /readyz: the database answers `SELECT 1` within
HOMEBASE_READINESS_TIMEOUT_SECONDS (else 503 with the envelope and Retry-After, so a load
balancer stops sending traffic); Redis, when configured, is reported but never makes the
instance unready: the limiter falls back to counting per instance while it is down.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import Response

from homebase.db.unavailable import RETRY_AFTER_SECONDS
from homebase.http.envelope import error_body
from homebase.kit.responses import JSONResponse, json_response
from homebase.ratelimit.limiter import RedisLimiter
from homebase.runtime import Runtime, get_runtime

router = APIRouter()
log = logging.getLogger("homebase.health")


@router.get("/healthz", include_in_schema=False)
async def healthz() -> JSONResponse:
    return json_response({"status": "ok"})


async def _database(runtime: Runtime) -> str:
    async with runtime.db.transaction(write=False) as connection:
        await connection.execute(text("SELECT 1"))
    return "ok"


async def _redis(runtime: Runtime) -> str:
    limiter = runtime.limiter
    if not isinstance(limiter, RedisLimiter):
        return "not_configured"
    await limiter.client.ping()
    return "ok"


async def _check(
    name: str, probe: Callable[[Runtime], Awaitable[str]], runtime: Runtime, failed: str
) -> str:
    try:
        return await asyncio.wait_for(probe(runtime), runtime.settings.readiness_timeout_seconds)
    except Exception as error:  # any failure to answer in time is "not ok"
        log.warning("readiness: %s is %s (%s)", name, failed, type(error).__name__)
        return failed


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Response:
    runtime = get_runtime(request)
    database, redis = await asyncio.gather(
        _check("database", _database, runtime, "unavailable"),
        _check("redis", _redis, runtime, "degraded"),
    )
    checks = {"database": database, "redis": redis}
    if database != "ok":
        request_id = request.scope.get("state", {}).get("request_id", "")
        body = error_body(
            "service_unavailable",
            "Not ready: the database is not answering.",
            request_id,
            details={"checks": checks},
        )
        return Response(
            body,
            503,
            media_type="application/json",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    return json_response({"status": "ok", "checks": checks})
