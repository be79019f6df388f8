"""A real OTLP/HTTP trace collector on 127.0.0.1 for tracing tests: it takes the
protobuf export requests a served instance sends to /v1/traces and keeps their spans,
decoded with opentelemetry-proto (which comes with the exporter)."""

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan

from tests.support import until


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


@dataclass
class Span:
    name: str
    kind: str  # SERVER, CLIENT, INTERNAL, ...
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict[str, Any]
    resource: dict[str, Any]
    scope: str
    status_code: int
    status_message: str
    events: list[tuple[str, dict[str, Any]]]

    def texts(self) -> list[str]:
        """Every string this span carries, for "never exported" checks."""
        found = [self.name, self.status_message]
        for attributes in [self.attributes, self.resource, *(a for _, a in self.events)]:
            found += [str(value) for value in attributes.values()]
        return found


@dataclass
class Collector:
    spans: list[Span] = field(default_factory=list)
    requests: int = 0
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def endpoint(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "Collector":
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/v1/traces":
                    collector.take(body)
                    answer = ExportTraceServiceResponse().SerializeToString()
                    self.send_response(200)
                else:
                    answer = b""
                    self.send_response(404)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def take(self, body: bytes) -> None:
        request = ExportTraceServiceRequest.FromString(body)
        spans = []
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    spans.append(
                        Span(
                            name=span.name,
                            kind=ProtoSpan.SpanKind.Name(span.kind).removeprefix("SPAN_KIND_"),
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            attributes={a.key: _value(a.value) for a in span.attributes},
                            resource=resource,
                            scope=scope_spans.scope.name,
                            status_code=span.status.code,
                            status_message=span.status.message,
                            events=[
                                (event.name, {a.key: _value(a.value) for a in event.attributes})
                                for event in span.events
                            ],
                        )
                    )
        with self.lock:
            self.requests += 1
            self.spans.extend(spans)

    def snapshot(self) -> list[Span]:
        with self.lock:
            return list(self.spans)

    def wait_for(self, predicate, what: str, within: float = 60) -> list[Span]:
        def exported() -> list[Span] | None:
            spans = self.snapshot()
            return spans if predicate(spans) else None

        return until(
            exported,
            within,
            every=0.1,
            what=lambda: f"{what} exported; got {sorted({s.name for s in self.snapshot()})}",
        )
