"""GET /metrics: the Prometheus text exposition.

Outside /v1 and the OpenAPI document; never rate-limited nor counted against the
unauthenticated budget. With HOMEBASE_METRICS_TOKEN set it requires
`Authorization: Bearer <token>` (else 401 with the error envelope).

Besides the process's instruments (or every server process's, in multiprocess mode),
a scrape reads the webhook queue from the database: the age of the oldest due delivery
and how many are due (counted up to QUEUE_COUNT_CAP). These are the same whichever
process answers, and work wherever the worker runs (in-process or `homebase worker`).
The read is bounded by QUEUE_READ_SECONDS; if it fails the two gauges are left out and
homebase_metrics_queue_read_errors_total counts it.
"""

import asyncio
import hmac
import logging
from datetime import datetime

from fastapi import APIRouter
from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Counter,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from sqlalchemy import ColumnElement, func, select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from homebase.kit.errors import Unauthenticated
from homebase.metrics import multiprocess
from homebase.models import WebhookDelivery
from homebase.runtime import Runtime, get_runtime

log = logging.getLogger("homebase.metrics")
router = APIRouter()
deliveries = WebhookDelivery.__table__
QUEUE_COUNT_CAP = 100_000
QUEUE_READ_SECONDS = 2.0
QUEUE_READ_ERRORS = Counter(
    "homebase_metrics_queue_read_errors",
    "Scrapes whose read of the webhook queue failed or took longer than 2 s.",
)


def authorized(header: str | None, token: str) -> bool:
    scheme, _, value = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        value.strip().encode(), token.encode()
    )


def _due(now: datetime) -> ColumnElement[bool]:
    return (
        (deliveries.c.status == "pending")
        & deliveries.c.lease_attempt_id.is_(None)
        & (deliveries.c.next_attempt_at <= now)
    )


async def _read_queue(runtime: Runtime) -> tuple[float, int]:
    now = runtime.clock()
    async with runtime.db.transaction(write=False) as connection:
        oldest = (
            await connection.execute(
                select(func.min(deliveries.c.next_attempt_at)).where(_due(now))
            )
        ).scalar()
        due = (
            await connection.execute(
                select(func.count()).select_from(
                    select(deliveries.c.id).where(_due(now)).limit(QUEUE_COUNT_CAP).subquery()
                )
            )
        ).scalar_one()
    age = max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0
    return age, due


async def queue_families(runtime: Runtime) -> list[GaugeMetricFamily]:
    try:
        async with asyncio.timeout(QUEUE_READ_SECONDS):
            age, due = await _read_queue(runtime)
    except Exception:  # the rest of the scrape is still worth answering
        log.warning("metrics: reading the webhook queue failed", exc_info=True)
        QUEUE_READ_ERRORS.inc()
        return []
    return [
        GaugeMetricFamily(
            "homebase_webhook_oldest_due_delivery_age_seconds",
            "How long the oldest due webhook delivery has been due (0: none).",
            value=age,
        ),
        GaugeMetricFamily(
            "homebase_webhook_due_deliveries",
            f"Webhook deliveries due now and not leased (counted up to {QUEUE_COUNT_CAP}).",
            value=due,
        ),
    ]


class _Families:
    def __init__(self, families: list[GaugeMetricFamily]):
        self.families = families

    def collect(self) -> list[GaugeMetricFamily]:
        return self.families


def exposition(families: list[GaugeMetricFamily]) -> bytes:
    """Blocking in multiprocess mode (it reads every process's file): run off the loop."""
    if multiprocess.enabled():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    extra = CollectorRegistry()
    extra.register(_Families(families))
    return generate_latest(registry) + generate_latest(extra)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    token = get_runtime(request).settings.metrics_token
    if token and not authorized(request.headers.get("authorization"), token):
        raise Unauthenticated(
            "GET /metrics requires `Authorization: Bearer <token>` (HOMEBASE_METRICS_TOKEN).",
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    families = await queue_families(get_runtime(request))
    body = await run_in_threadpool(exposition, families)
    return Response(body, media_type=CONTENT_TYPE_PLAIN_0_0_4)
