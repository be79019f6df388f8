"""The `homebase` command's top-level commands but `worker`: migrate and serve. The table
(these, `worker` and the `admin` group of cli/admin.py) is homebase/root/main.py, the
console script and `python -m homebase`. Every failure, a usage error included, is the
contract's one line on stderr (cli/group.py, cli/output.py)."""

import asyncio
import logging
import os
import socket
from typing import TYPE_CHECKING, Any

import click

from homebase import tracing
from homebase.cli import listen, output
from homebase.cli.group import Command
from homebase.config import VAR_DIR, get_settings
from homebase.kit import logs
from homebase.metrics import multiprocess
from homebase.ratelimit import host as host_limiter
from homebase.runtime import HOST_LIMITER_ENV

if TYPE_CHECKING:
    import uvicorn

PUBLIC_URL_ENV = "HOMEBASE_PUBLIC_URL"
# The composition root's ASGI module, named for uvicorn to import in each server process:
# the command table imports nothing of the root (AGENTS.md, "Layers").
ASGI_APP = "homebase.root.asgi:app"
STARTUP_FAILURE = 3  # uvicorn's exit status when the app fails to start
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
# --workers N: how long uvicorn's supervisor waits for a process to answer its health
# ping before killing it and starting another. A process answers only once its Python has
# started and imported uvicorn; on a loaded host that took longer than uvicorn's 5 s, and
# the supervisor killed every new process in turn, so serve never came up.
WORKER_HEALTHCHECK_SECONDS = 60


def _migrate() -> dict[str, Any]:
    from homebase.db.migrate import upgrade  # Alembic: loaded only by the commands that migrate

    return {"ok": True, "revision": asyncio.run(upgrade(get_settings().database_url))}


@click.command(cls=Command)
def migrate() -> None:
    """Bring the database schema up to date."""
    output.configure_logs(logging.WARNING)
    output.print_json(_migrate())


@click.command(cls=Command)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="server processes"
)
@click.option("--no-worker", is_flag=True, help="do not run the background worker in-process")
@click.option(
    "--demo", is_flag=True, help="create the demo workspace on first start and print its key"
)
@click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    default="info",
    show_default=True,
)
@click.option(
    "--port-file",
    type=click.Path(dir_okay=False, writable=True),
    help="write the port bound (with --port 0, the one the system chose) to this file",
)
def serve(
    host: str,
    port: int,
    workers: int,
    no_worker: bool,
    demo: bool,
    log_level: str,
    port_file: str | None,
) -> None:
    """Serve the API (applies pending migrations first)."""
    output.configure_logs(log_level)
    # Refuse an OTEL_* exporter or protocol we do not ship here, in one line, rather than
    # in each server process's import of the app.
    tracing.exporters_from(os.environ)
    # The port first: taken, it is one line before anything is migrated or printed.
    listening = listen.bind(host, port)
    try:
        port = listening.getsockname()[1]  # --port 0: the one the system chose
        if port_file:
            listen.write_port(port_file, port)
        if not os.environ.get(PUBLIC_URL_ENV, "").strip():
            # Links (exports, recordings, OAuth pages) name the address served here; set
            # before the server processes read the settings (production requires it set).
            os.environ[PUBLIC_URL_ENV] = listen.served_url(host, port)
            get_settings.cache_clear()
        _migrate()
        if demo:
            _print_demo(host, port)
        _run_server(listening, host, port, workers, no_worker, log_level)
    finally:
        listening.close()


VOICE_DRAIN_SECONDS = 30.0


def _draining_server(config: "uvicorn.Config") -> "uvicorn.Server":
    import uvicorn

    class DrainingServer(uvicorn.Server):
        """On SIGTERM, the AI's live calls drain first (voice/endpoints.drain: no new
        call, live ones finish or end politely within 30 seconds), then uvicorn's own
        shutdown. One process (`--workers 1`); with more, uvicorn's supervisor runs its
        own servers and calls end when their connections close."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            from homebase.voice.endpoints import drain

            await drain(VOICE_DRAIN_SECONDS)
            await super().shutdown(sockets)

    return DrainingServer(config)


def _run_server(
    listening: socket.socket, host: str, port: int, workers: int, no_worker: bool, log_level: str
) -> None:
    """uvicorn on the socket bound by serve, as uvicorn.run would run it on its own."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    os.environ["HOMEBASE_SERVE_WORKER"] = "0" if no_worker else "1"
    if workers > 1 and not get_settings().redis_url:
        # Several processes without Redis share one limit through a file (ratelimit/host.py).
        os.environ[HOST_LIMITER_ENV] = host_limiter.prepare(VAR_DIR / "ratelimit.sqlite3")
    # Several processes add their metrics up through files (metrics/multiprocess.py);
    # set before uvicorn starts them, since prometheus_client reads it at import.
    metrics_directory = multiprocess.prepare(workers)
    # proxy_headers=False: uvicorn would otherwise rewrite the peer from X-Forwarded-For
    # for 127.0.0.1; HOMEBASE_TRUSTED_PROXIES alone decides whom to believe
    # (kit/client_address.py).
    # log_config: uvicorn's lines (and each --workers process's) go through kit/logs.py;
    # its access log stays off, the request line (http/request_log.py) replaces it.
    # timeout_graceful_shutdown: on SIGTERM requests in flight get this long, then the
    # lifespan stops the in-process worker (bounded the same, root/app.py).
    settings = get_settings()
    config = uvicorn.Config(
        ASGI_APP,
        host=host,
        port=port,
        workers=workers,
        loop="uvloop",
        http="httptools",
        log_level=log_level,
        access_log=False,
        proxy_headers=False,
        log_config=logs.dict_config(settings.log_format, log_level),
        timeout_graceful_shutdown=max(1, round(settings.shutdown_timeout_seconds)),
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
    )
    server = _draining_server(config)
    logging.getLogger("uvicorn.error").info(
        "Uvicorn running on %s (Press CTRL+C to quit)", listen.served_url(host, port)
    )
    try:
        if workers > 1:
            Multiprocess(config, sockets=[listening]).run()
        else:
            server.run(sockets=[listening])
    except KeyboardInterrupt:
        pass
    finally:
        multiprocess.remove(metrics_directory)
    if workers == 1 and not server.started:  # the app's start-up failed (logged)
        raise SystemExit(STARTUP_FAILURE)


def _print_demo(host: str, port: int) -> None:
    # Every domain's loaders: loaded by the commands that load fixtures, not by every command.
    from homebase.workspaces.demo import ensure_local_demo

    demo = asyncio.run(ensure_local_demo())
    if get_settings().log_format == "json":  # every line on stdout stays one object
        output.print_json(
            {
                "message": "demo workspace",
                "workspace_id": demo["workspace_id"],
                "key": demo["key"],
                "url": f"http://{host}:{port}/v1",
            }
        )
    else:
        print(
            f"\n  Homebase is serving at http://{host}:{port}/v1"
            f"  (docs: http://{host}:{port}/v1/docs)\n"
            f"  Demo workspace {demo['workspace_id']}; API key (every scope):\n\n"
            f"    {demo['key']}\n\n"
            f"  Try: curl -H 'Authorization: token {demo['key']}' "
            f"http://{host}:{port}/v1/ping\n",
            flush=True,
        )
