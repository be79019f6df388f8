"""Opt-in OpenTelemetry tracing (docs/operations.md, "Tracing").

Off unless the standard variables name an exporter: `OTEL_TRACES_EXPORTER=otlp|console`
(comma-separated for both), or an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) with `OTEL_TRACES_EXPORTER` unset. `none`, or
`OTEL_SDK_DISABLED=true`, keeps it off. The SDK's own default exporter is otlp; ours is
none, so a process started without these variables never loads the SDK.

While off, every hook below is one read of `ACTIVE`: no SDK import, no tracer provider
(the API's no-op proxy stays installed), no instrumentation patched in.

Once on (homebase/tracing/setup.py, per process: each `serve --workers` process and each
`homebase worker`), spans cover requests (FastAPI), SQL (SQLAlchemy's instrumentation sees every
statement), Redis, outgoing HTTP (httpx: webhooks,
the Twilio provider, CalDAV) and worker job runs. Attributes never carry a secret or a
value: SQL with its placeholders, Redis commands without arguments, outgoing URLs cut to
their origin, no query strings, exceptions by type only (tracing/export.py).
"""

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from homebase.tracing.attributes import CREDENTIAL_KIND, JOB, JOB_ITEMS, REQUEST_ID, WORKSPACE_ID

ACTIVE = False  # set once by configure(); read by every hook
EXPORTERS = ("otlp", "console")
PROTOCOL = "http/protobuf"
TRACER = "homebase"

_provider: Any = None
_NO_SPAN = nullcontext()


class TracingConfigError(ValueError):
    """An OTEL_* variable names something this service does not ship."""


def exporters_from(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The exporters the environment asks for; () means tracing stays off."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return ()
    named = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if named:
        names = tuple(
            dict.fromkeys(
                name.strip() for name in named.split(",") if name.strip() not in ("", "none")
            )
        )
    elif (
        environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
        or environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip()
    ):
        names = ("otlp",)
    else:
        names = ()
    unknown = [name for name in names if name not in EXPORTERS]
    if unknown:
        raise TracingConfigError(
            f"OTEL_TRACES_EXPORTER: {', '.join(unknown)} is not available; "
            f"use {', '.join(EXPORTERS)} or none"
        )
    protocol = (
        environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "").strip()
        or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "").strip()
        or PROTOCOL
    )
    if "otlp" in names and protocol != PROTOCOL:
        raise TracingConfigError(
            f"OTEL_EXPORTER_OTLP_PROTOCOL: {protocol} is not available; use {PROTOCOL}"
        )
    return names


def configure() -> bool:
    """Sets tracing up in this process when the environment asks for it; otherwise does
    nothing at all. Call before the Database is made (its engine is instrumented when
    created). Safe to call twice."""
    global ACTIVE, _provider
    if ACTIVE:
        return True
    names = exporters_from(os.environ)
    if not names:
        return False
    from homebase.tracing import setup  # the SDK: imported only once tracing is on

    _provider = setup.install(names)
    ACTIVE = True
    return True


def shutdown(timeout_seconds: float = 5.0) -> None:
    """Exports what is buffered, waiting at most `timeout_seconds` (an unreachable
    collector must not hold up a SIGTERM). Blocking: call it off the event loop."""
    if ACTIVE and _provider is not None:
        from homebase.tracing import setup  # the SDK, loaded only while on (configure)

        setup.shut_down(_provider, timeout_seconds)


def instrument_app(app: Any) -> None:
    if ACTIVE:
        from homebase.tracing import setup  # the SDK, loaded only while on (configure)

        setup.instrument_app(app, _provider)


def instrument_client(client: Any) -> None:
    """An httpx client on a transport of our own (webhooks/delivery.py): the global
    instrumentation patches httpx's transports only, so this one is instrumented itself."""
    if ACTIVE:
        from homebase.tracing import setup  # the SDK, loaded only while on (configure)

        setup.instrument_client(client, _provider)


def annotate_request(request_id: str | None) -> None:
    """The request's server span gets the id its log line has (http/request_log.py)."""
    if request_id:
        trace.get_current_span().set_attribute(REQUEST_ID, request_id)


def annotate_principal(principal: Any) -> None:
    """Once the credential is known: the workspace and the kind of credential (its id
    stays in the log line)."""
    if principal is not None:
        span = trace.get_current_span()
        span.set_attribute(WORKSPACE_ID, principal.workspace_id)
        span.set_attribute(CREDENTIAL_KIND, principal.credential_kind)


def job_span(name: str) -> Any:
    """A root span around one run of a worker job (root/worker.py); a no-op context
    (yielding None) while tracing is off."""
    return _job_span(name) if ACTIVE else _NO_SPAN


@contextmanager
def _job_span(name: str) -> Iterator[trace.Span]:
    # A fresh context: each run is its own trace, never a child of whatever started the
    # worker task. Exceptions are recorded by type only (runner.py's job_failed).
    with trace.get_tracer(TRACER).start_as_current_span(
        f"job {name}",
        context=otel_context.Context(),
        kind=SpanKind.INTERNAL,
        attributes={JOB: name},
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        yield span


def model_span(provider: str) -> Any:
    """A span around one AI model call (ai/jobs.py), with the provider and, once known,
    the outcome: never the prompt or the answer. A no-op context (None) while off."""
    return _model_span(provider) if ACTIVE else _NO_SPAN


@contextmanager
def _model_span(provider: str) -> Iterator[trace.Span]:
    with trace.get_tracer(TRACER).start_as_current_span(
        "ai.model",
        kind=SpanKind.INTERNAL,
        attributes={"homebase.ai.provider": provider},
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        yield span


def model_done(span: trace.Span | None, outcome: str) -> None:
    if span is not None:
        span.set_attribute("homebase.ai.outcome", outcome)
        if outcome == "failed":
            span.set_status(Status(StatusCode.ERROR))


def job_done(span: trace.Span | None, items: int) -> None:
    if span is not None:
        span.set_attribute(JOB_ITEMS, items)


def job_failed(span: trace.Span | None, error: BaseException) -> None:
    if span is not None:
        span.set_attribute("error.type", type(error).__qualname__)
        span.set_status(Status(StatusCode.ERROR))
