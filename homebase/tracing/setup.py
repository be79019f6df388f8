"""The SDK wiring, imported only once tracing is switched on (tracing/__init__.py).

The exporters read their own standard variables: OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT,
_HEADERS, _TIMEOUT, _COMPRESSION, _CERTIFICATE; the provider reads OTEL_TRACES_SAMPLER[_ARG]
and OTEL_RESOURCE_ATTRIBUTES; the batch processor OTEL_BSP_*. Only the service name has a
default of ours: `homebase`.
"""

import os
import sys
import threading
from typing import Any

from opentelemetry import trace
from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.instrumentation.redis import RedisInstrumentor
from opentelemetry.instrumentation.sqlalchemy import SQLAlchemyInstrumentor
from opentelemetry.sdk.resources import SERVICE_NAME, SERVICE_VERSION, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SpanExporter,
)

from homebase import __version__
from homebase.db import driver
from homebase.tracing.export import DropIdleJobs, RedactingExporter

# Probes and scrapes would be most of the traces and tell nothing; an operator's own
# OTEL_PYTHON_FASTAPI_EXCLUDED_URLS / OTEL_PYTHON_EXCLUDED_URLS replaces this list.
EXCLUDED_URLS = "/healthz,/readyz,/metrics"


def _exporter(name: str) -> SpanExporter:
    if name == "console":
        # One compact JSON object per line on stderr, beside the log lines, so stdout
        # keeps only what commands print and HOMEBASE_LOG_FORMAT=json stays line-parsable.
        return ConsoleSpanExporter(
            out=sys.stderr, formatter=lambda span: span.to_json(indent=None) + "\n"
        )
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    return OTLPSpanExporter()


def install(names: tuple[str, ...]) -> TracerProvider:
    resource = Resource.create(
        {
            SERVICE_NAME: os.environ.get("OTEL_SERVICE_NAME") or "homebase",
            SERVICE_VERSION: __version__,
        }
    )
    # shutdown_on_exit=False: shut_down() below runs with a bound at the end of serve's
    # lifespan and of the worker; the SDK's own exit hook waits up to 30 s per processor.
    provider = TracerProvider(resource=resource, shutdown_on_exit=False)
    for name in names:
        provider.add_span_processor(
            DropIdleJobs(BatchSpanProcessor(RedactingExporter(_exporter(name))))
        )
    trace.set_tracer_provider(provider)
    # Global patches, each once per process: every httpx client (webhooks, Twilio,
    # CalDAV), every Redis client (the limiter), every SQLAlchemy engine created from now
    # on (db/engine.py creates its engine through the patched module attribute).
    HTTPXClientInstrumentor().instrument(tracer_provider=provider)
    RedisInstrumentor().instrument(tracer_provider=provider)
    # skip_dep_check: the instrumentation declares SQLAlchemy < 2.1 and refuses 2.1
    # otherwise; the engine events it listens to are unchanged in 2.1 and
    # tests/tracing/test_tracing.py holds that its spans come out.
    SQLAlchemyInstrumentor().instrument(tracer_provider=provider, skip_dep_check=True)
    # Its spans come from the engine's events: every statement through SQLAlchemy's
    # execution, none on the driver connection directly (db/driver.py).
    driver.DIRECT = False
    return provider


def instrument_client(client: Any, provider: TracerProvider) -> None:
    HTTPXClientInstrumentor.instrument_client(client, tracer_provider=provider)


def instrument_app(app: Any, provider: TracerProvider) -> None:
    configured = os.environ.get("OTEL_PYTHON_FASTAPI_EXCLUDED_URLS") or os.environ.get(
        "OTEL_PYTHON_EXCLUDED_URLS"
    )
    # No spans for each ASGI receive/send message: one server span per request.
    FastAPIInstrumentor.instrument_app(
        app,
        tracer_provider=provider,
        excluded_urls=None if configured else EXCLUDED_URLS,
        exclude_spans=["receive", "send"],
    )


def shut_down(provider: TracerProvider, timeout_seconds: float) -> None:
    # On a thread of its own that the process does not wait for past the bound.
    worker = threading.Thread(target=provider.shutdown, name="tracing-shutdown", daemon=True)
    worker.start()
    worker.join(timeout_seconds)
