"""The application factory: one FastAPI app serving /v1, /healthz and the docs. It sits in
the composition root (AGENTS.md, "Layers"): it imports every domain's routes, and nothing
below imports it."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from homebase import __version__, tracing
from homebase.ai.endpoints import router as ai_router
from homebase.appointments.endpoints import router as appointments_router
from homebase.automations.endpoints import (
    automations_router,
    campaigns_router,
    personas_router,
)
from homebase.calls import public as calls_public
from homebase.calls.endpoints import router as calls_router
from homebase.console import imports as console_imports
from homebase.console import routes as console_routes
from homebase.contacts.endpoints import router as contacts_router
from homebase.custom_fields.endpoints import router as custom_fields_router
from homebase.db.unavailable import RETRY_AFTER_SECONDS as UNAVAILABLE_RETRY_AFTER
from homebase.deals.endpoints import deals_router, pipelines_router
from homebase.events.endpoints import router as events_router
from homebase.exports import public as exports_public
from homebase.exports.endpoints import router as exports_router
from homebase.http import docs, errors
from homebase.http.body_limit import BodyLimitMiddleware
from homebase.http.compression import CompressionMiddleware
from homebase.http.cors import CorsMiddleware
from homebase.http.health import router as health_router
from homebase.http.middleware import RequestContextMiddleware
from homebase.http.openapi_security import add_operation_security
from homebase.http.request_log import RequestLogMiddleware
from homebase.http.router import API_PREFIX
from homebase.idempotency.openapi import add_idempotency
from homebase.imports.endpoints import router as imports_router
from homebase.kit import collector
from homebase.kit.fields_openapi import add_narrowed_responses
from homebase.kit.openapi import (
    add_body_limit_responses,
    add_response_headers,
    add_shared_headers,
    add_unavailable_responses,
    drop_default_validation_errors,
    restore_null_examples,
    share_error_responses,
)
from homebase.kit.openapi_requests import declare_no_nul, describe_unstated_rules
from homebase.kit.responses import JSONResponse
from homebase.leads.endpoints import router as leads_router
from homebase.listings.endpoints import router as listings_router
from homebase.members.endpoints import router as members_router
from homebase.messaging.endpoints import router as messages_router
from homebase.messaging.provider_endpoints import router as messaging_provider_router
from homebase.messaging.unsubscribe_endpoints import router as unsubscribe_router
from homebase.metrics.endpoint import router as metrics_router
from homebase.metrics.middleware import MetricsMiddleware, prefixed
from homebase.metrics.multiprocess import mark_dead as mark_metrics_process_dead
from homebase.oauth import consent as oauth_consent
from homebase.oauth import endpoints as oauth_endpoints
from homebase.oauth import metadata as oauth_metadata
from homebase.oauth.schemas import SECURITY_SCHEME as OAUTH_SECURITY_SCHEME
from homebase.ping.endpoints import router as ping_router
from homebase.root.worker import drain, run_until
from homebase.runtime import Runtime
from homebase.tasks.endpoints import router as tasks_router
from homebase.voice import endpoints as voice_endpoints
from homebase.webhooks.catalogue_docs import install as install_webhook_docs
from homebase.webhooks.endpoints import router as webhooks_router

V1_ROUTERS = [
    ping_router,
    contacts_router,
    messages_router,
    leads_router,
    webhooks_router,
    events_router,
    calls_router,
    deals_router,
    pipelines_router,
    listings_router,
    members_router,
    appointments_router,
    tasks_router,
    automations_router,
    personas_router,
    campaigns_router,
    ai_router,
    custom_fields_router,
    exports_router,
    imports_router,
]

DESCRIPTION = """\
The Homebase workspace API: contacts, leads, messaging, calls, deals, listings,
appointments, automations and webhooks for a real-estate workspace.

Authenticate every request with `Authorization: token <API_KEY>`. Errors share one
shape: `{"error": {"code", "message", "request_id", "details"}}`; `details.remedy` says
what to do next. Lists return `{data, next_cursor, has_more}` and take `cursor` and
`limit` (1-200, default 50).
Every response carries `X-Request-Id`, `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
`X-RateLimit-Reset` (Unix seconds at which the current one-minute window ends).
Every POST accepts an `Idempotency-Key` header (1-255 characters) that makes it safe to
retry: a repeat returns the first answer with `Idempotent-Replayed: true`.
Text holding U+0000 is refused anywhere in a request (each string's `pattern` says so).
A body sent to an operation that declares none is ignored.
"""


def operation_id(route: APIRoute) -> str:
    """Every operation's id is its endpoint function's name (`list_messages`, not FastAPI's
    `list_messages_v1_messages_get`): generated clients name their functions after it, so
    endpoint names are written to read well there and are unique (tests/kit/test_openapi.py)."""
    return route.name


def create_app(
    runtime: Runtime | None = None, *, run_worker: bool = False, server_process: bool = False
) -> FastAPI:
    """A runtime passed in belongs to the caller (tests); one made here closes with the app.
    `server_process`: the app is the process's one and only (`homebase serve`), which
    tunes the garbage collector at startup (kit/collector.py)."""
    owns_runtime = runtime is None
    runtime = runtime or Runtime.from_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stop = asyncio.Event()
        worker = asyncio.create_task(run_until(runtime, stop)) if run_worker else None
        if server_process:
            collector.settle()  # kit/collector.py: what startup made, out of its sight
        try:
            yield
        finally:
            stop.set()
            if worker is not None:
                await drain(worker, runtime.settings.shutdown_timeout_seconds)
            if owns_runtime:
                await runtime.close()
            if tracing.ACTIVE:  # the spans still buffered, within a bound
                await asyncio.to_thread(tracing.shutdown)
            mark_metrics_process_dead()  # serve --workers N: its live gauges leave the sums

    app = FastAPI(
        title="Homebase workspace API",
        version=__version__,
        description=DESCRIPTION,
        openapi_url="/v1/openapi.json",
        docs_url=None,
        redoc_url=None,  # http/docs.py
        default_response_class=JSONResponse,
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.runtime = runtime
    errors.install(app)
    for router in V1_ROUTERS:
        app.include_router(router, prefix=API_PREFIX)
    app.include_router(health_router)
    app.include_router(metrics_router)  # /metrics: outside /v1 and its document
    app.include_router(messaging_provider_router)  # provider callbacks: inbound, status
    app.include_router(calls_public.router)  # recording proxy, provider callback
    # AI calls: ConversationRelay's WebSocket and the provider's signed callbacks
    app.include_router(voice_endpoints.router)
    app.include_router(exports_public.router)  # export file downloads (signed links)
    app.include_router(unsubscribe_router)  # email's one-click unsubscribe link and page
    console_routes.install(app)  # /console pages and their HTML error pages
    app.include_router(oauth_endpoints.router)  # /oauth/token, /oauth/revoke
    app.include_router(oauth_consent.router)  # /oauth/authorize and its consent page
    app.include_router(oauth_metadata.router)  # /.well-known/oauth-authorization-server
    docs.install(app)  # /v1/docs: Swagger UI served from the locked package, under a CSP
    # Innermost: gzip for large answers to clients that ask, never an answer that may carry
    # a secret or a CSRF token (http/compression.py); the layers outside see what is sent.
    app.add_middleware(CompressionMiddleware)
    # Added before RequestContextMiddleware, so it runs inside it and its 413 has a request id.
    # The console's CSV upload is the one route allowed a larger body (its own limit).
    app.add_middleware(
        BodyLimitMiddleware,
        max_body_bytes=runtime.settings.max_body_bytes,
        allowances=[console_imports.upload_allowance(runtime.settings)],
    )
    # Inside RequestContextMiddleware (added after it), so the request already has its id;
    # outside the body limit, so a 413 is logged too.
    app.add_middleware(RequestLogMiddleware)  # the request line (http/request_log.py)
    app.add_middleware(RequestContextMiddleware)
    # Only when HOMEBASE_CORS_ORIGINS names origins (http/cors.py); outside the request
    # context, so the 500 made there reaches a page too.
    if runtime.settings.cors_allowed_origins:
        app.add_middleware(
            CorsMiddleware,
            origins=runtime.settings.cors_allowed_origins,
            paths=("/oauth/token", "/oauth/revoke", oauth_metadata.PATH),
        )
    # Outermost: it sees every answer, 500s included. Route labels are templates.
    app.add_middleware(MetricsMiddleware, prefixed=prefixed(API_PREFIX, V1_ROUTERS))
    install_webhook_docs(app)  # the OpenAPI `webhooks` section: one entry per event
    tracing.instrument_app(app)  # request spans, when OTEL_* switched tracing on
    # FastAPI's documented way to build the document itself: assigning the method.
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(
        title=app.title,
        version=app.version,
        description=f"{app.description}\n\n{describe_unstated_rules()}",
        routes=app.routes,
        webhooks=app.webhooks.routes,
    )
    document["servers"] = [{"url": "/", "description": "This server; paths include /v1."}]
    components = document.setdefault("components", {})
    components["securitySchemes"] = {
        "ApiKey": {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`token <API_KEY>`; keys start with `hbk_`.",
        },
        "OAuth2": OAUTH_SECURITY_SCHEME,
    }
    document["security"] = [{"ApiKey": []}, {"OAuth2": []}]
    add_operation_security(app, document)
    drop_default_validation_errors(document)  # 400 here, never FastAPI's default 422
    declare_no_nul(document, API_PREFIX)  # U+0000 is refused in every request's text
    restore_null_examples(document, app.routes)
    add_narrowed_responses(document)  # what `fields` leaves of a response (kit/fields_openapi)
    add_shared_headers(document)  # components/headers, which every answer's headers name
    add_response_headers(document, API_PREFIX)
    add_body_limit_responses(document, app.state.runtime.settings.max_body_bytes)
    add_unavailable_responses(document, API_PREFIX, UNAVAILABLE_RETRY_AFTER)
    add_idempotency(document, API_PREFIX)  # after the shared headers, which it copies
    share_error_responses(document, API_PREFIX)  # last: the answers nothing adds to now
    app.openapi_schema = document
    return document
