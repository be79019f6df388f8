"""What leaves the process: spans with nothing secret in them, and no idle job runs.

RedactingExporter rewrites each span before its exporter sees it, whichever
instrumentation made it:
- outgoing URLs (client spans) keep only their origin: a webhook or calendar URL can carry
  its owner's token in its path or query;
- incoming URLs keep their path (ids, never values) but lose the query string (`q=` is
  a name, phone or email; a recording link's query is its signature);
- an error status keeps its code but not its description, and an exception event keeps
  its type but not its message or traceback: a driver's message can quote a value
  (PostgreSQL's "Key (email)=(...) already exists"). The log line with the same
  request id has the traceback;
- any string shaped like one of our credentials is masked (kit/logs.py's backstop).

DropIdleJobs holds the spans of a worker job's run until the run ends, and drops them
all when it did nothing: an idle worker polls every HOMEBASE_WORKER_POLL_SECONDS, and
those polls would otherwise be most of the traces.
"""

import threading
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from opentelemetry.sdk.trace import Event, ReadableSpan, SpanProcessor
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import SpanKind, Status

from homebase.kit.logs import redact
from homebase.tracing.attributes import JOB, JOB_ITEMS

URL_KEYS = ("http.url", "url.full")
CLIENT_ONLY_DROPPED = ("http.target", "url.path", "url.query")
SERVER_DROPPED = ("url.query",)
EXCEPTION_KEPT = ("exception.type", "exception.escaped")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, "", "", ""))


def _without_query(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _attributes(span: ReadableSpan) -> dict[str, Any]:
    client = span.kind in (SpanKind.CLIENT, SpanKind.PRODUCER)
    dropped = CLIENT_ONLY_DROPPED if client else SERVER_DROPPED
    cleaned: dict[str, Any] = {}
    for key, value in (span.attributes or {}).items():
        if key in dropped:
            continue
        if key in URL_KEYS and isinstance(value, str):
            value = _origin(value) if client else _without_query(value)
        elif isinstance(value, str):
            value = redact(value)
        cleaned[key] = value
    return cleaned


def _events(span: ReadableSpan) -> list[Event]:
    events = []
    for event in span.events:
        attributes = dict(event.attributes or {})
        if event.name == "exception":
            attributes = {key: value for key, value in attributes.items() if key in EXCEPTION_KEPT}
        events.append(Event(event.name, attributes, event.timestamp))
    return events


def redacted(span: ReadableSpan) -> ReadableSpan:
    # The SDK makes ReadableSpans itself; a copy is the one public way to change what an
    # ended span says before it is exported.
    return ReadableSpan(
        name=redact(span.name),
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=_attributes(span),
        events=_events(span),
        links=span.links,
        kind=span.kind,
        status=Status(span.status.status_code),
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
    )


class RedactingExporter(SpanExporter):
    def __init__(self, exporter: SpanExporter):
        self.exporter = exporter

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return self.exporter.export([redacted(span) for span in spans])

    def shutdown(self) -> None:
        self.exporter.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.exporter.force_flush(timeout_millis)


class DropIdleJobs(SpanProcessor):
    """Passes every span on to `processor`, except a job run's (tracing.job_span): those
    wait for the run's root span and go on only if the run did something or failed."""

    def __init__(self, processor: SpanProcessor):
        self.processor = processor
        self.held: dict[int, list[ReadableSpan]] = {}
        self.lock = threading.Lock()

    def on_start(self, span: Any, parent_context: Any = None) -> None:
        if span.parent is None and JOB in (span.attributes or {}):
            with self.lock:
                self.held[span.context.trace_id] = []
        self.processor.on_start(span, parent_context=parent_context)

    def on_end(self, span: ReadableSpan) -> None:
        trace_id = span.context.trace_id
        with self.lock:
            held = self.held.get(trace_id)
            if held is None:
                forward = [span]
            elif span.parent is not None:  # a child of a run still going
                held.append(span)
                forward = []
            else:  # the run's root: the run is over
                del self.held[trace_id]
                idle = (span.attributes or {}).get(JOB_ITEMS) == 0 and span.status.is_ok
                forward = [] if idle else [*held, span]
        for finished in forward:
            self.processor.on_end(finished)

    def shutdown(self) -> None:
        self.processor.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.processor.force_flush(timeout_millis)
