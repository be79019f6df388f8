"""GET /metrics for a standalone `homebase worker` (opt-in: HOMEBASE_WORKER_METRICS_PORT).

A worker process serves no API, yet it is the one that counts webhook deliveries, message
sends, compliance refusals at send time and worker job durations and failures. With the
port set it answers GET /metrics on HOMEBASE_WORKER_METRICS_HOST (default 127.0.0.1):
the same route as the API's (metrics/endpoint.py), so the same exposition (multiprocess
mode included, when PROMETHEUS_MULTIPROC_DIR is set), the same optional
HOMEBASE_METRICS_TOKEN and the same error envelope. Every other path is 404.

It is a tiny FastAPI app run by uvicorn.Server inside the worker's own event loop (its
scrape reads the webhook queue through the worker's Runtime), not prometheus_client's
start_http_server, whose handler cannot ask for the token. The socket is bound before the
worker starts, so a port already taken stops `homebase worker` with one line instead of a
worker nobody can scrape.

Shutdown: uvicorn's Server.serve takes SIGINT/SIGTERM while it runs (and raises them again
once it has stopped); the worker's own handlers see them too (the event loop is woken by
every signal with a Python handler), so on SIGTERM both stop: the server stops taking
connections and finishes the scrape in flight, the worker drains its batch.
"""

import logging
import socket

import uvicorn
from fastapi import FastAPI

from homebase.http import errors
from homebase.http.middleware import RequestContextMiddleware
from homebase.kit.responses import JSONResponse
from homebase.metrics.endpoint import router as metrics_router
from homebase.runtime import Runtime

log = logging.getLogger("homebase.worker")
# A scrape in flight at SIGTERM gets this long; the worker's drain is bounded separately.
GRACEFUL_SECONDS = 2


def create_app(runtime: Runtime) -> FastAPI:
    app = FastAPI(
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        default_response_class=JSONResponse,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.runtime = runtime  # get_runtime(request): the settings, the queue read
    errors.install(app)  # 401 and 404 in the error envelope, as the API answers them
    app.include_router(metrics_router)
    app.add_middleware(RequestContextMiddleware)  # the envelope's request_id, X-Request-Id
    return app


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, or a one-line error naming the setting."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as error:
        raise RuntimeError(
            f"HOMEBASE_WORKER_METRICS_HOST/PORT {host}:{port}: cannot listen "
            f"({error.strerror or error})"
        ) from None


def server(runtime: Runtime) -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(runtime),
        lifespan="off",
        access_log=False,
        log_config=None,  # its lines go through kit/logs.py's setup
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
    return uvicorn.Server(config)
