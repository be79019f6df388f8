"""The `homebase` command: migrate, serve, worker, admin."""

import argparse
import asyncio
import json
import logging
import os
import sys

from pydantic import ValidationError

from homebase.cli import admin
from homebase.kit import logs
from homebase.workspaces.service import AdminError


class _Parser(argparse.ArgumentParser):
    """A usage error is one line on stderr, as the operator contract requires of every
    failure (argparse's default prints the whole usage block first). Subparsers inherit
    this class."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"error: {self.prog}: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="homebase", description="Homebase API service")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="bring the database schema up to date")

    serve = commands.add_parser("serve", help="serve the API (applies migrations first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--no-worker", action="store_true",
                       help="do not run the background worker in-process")
    serve.add_argument("--demo", action="store_true",
                       help="create the demo workspace on first start and print its key")
    serve.add_argument("--log-level", default="info")

    commands.add_parser("worker", help="run the background worker alone")
    admin.add_parsers(commands)
    return parser


def _print(payload: dict) -> None:
    sys.stdout.write(json.dumps(payload, default=str) + "\n")


def _migrate() -> dict:
    from homebase.config import get_settings
    from homebase.db.migrate import upgrade

    return {"ok": True, "revision": asyncio.run(upgrade(get_settings().database_url))}


def _serve(args: argparse.Namespace) -> None:
    import uvicorn

    from homebase import tracing
    from homebase.config import VAR_DIR, get_settings

    # Refuse an OTEL_* exporter or protocol we do not ship here, in one line, rather than
    # in each server process's import of the app.
    tracing.exporters_from(os.environ)
    _migrate()
    if args.demo:
        from homebase.workspaces.demo import ensure_local_demo

        demo = asyncio.run(ensure_local_demo())
        if get_settings().log_format == "json":  # every line on stdout stays one object
            _print({"message": "demo workspace", "workspace_id": demo["workspace_id"],
                    "key": demo["key"], "url": f"http://{args.host}:{args.port}/v1"})
        else:
                print(f"\n  Homebase is serving at http://{args.host}:{args.port}/v1"
                  f"  (docs: http://{args.host}:{args.port}/v1/docs)\n"
                  f"  Demo workspace {demo['workspace_id']}; API key (every scope):\n\n"
                  f"    {demo['key']}\n\n"
                  f"  Try: curl -H 'Authorization: token {demo['key']}' "
                  f"http://{args.host}:{args.port}/v1/ping\n", flush=True)
    os.environ["HOMEBASE_SERVE_WORKER"] = "0" if args.no_worker else "1"
    if args.workers > 1 and not get_settings().redis_url:
        # Several processes without Redis share one limit through a file (ratelimit/host.py).
        from homebase.ratelimit.host import prepare
        from homebase.runtime import HOST_LIMITER_ENV

        os.environ[HOST_LIMITER_ENV] = prepare(VAR_DIR / "ratelimit.sqlite3")
    # Several processes add their metrics up through files (metrics/multiprocess.py);
    # set before uvicorn starts them, since prometheus_client reads it at import.
    from homebase.metrics import multiprocess

    metrics_directory = multiprocess.prepare(args.workers)
    # proxy_headers=False: uvicorn would otherwise rewrite the peer from X-Forwarded-For
    # for 127.0.0.1; HOMEBASE_TRUSTED_PROXIES alone decides whom to believe
    # (kit/client_address.py).
    # log_config: uvicorn's lines (and each --workers process's) go through kit/logs.py;
    # its access log stays off, the request line (http/request_log.py) replaces it.
    # timeout_graceful_shutdown: on SIGTERM requests in flight get this long, then the
    # lifespan stops the in-process worker (bounded the same, http/app.py).
    settings = get_settings()
    try:
        uvicorn.run("homebase.http.asgi:app", host=args.host, port=args.port,
                    workers=args.workers, loop="uvloop", http="httptools",
                    log_level=args.log_level, access_log=False, proxy_headers=False,
                    log_config=logs.dict_config(settings.log_format, args.log_level),
                    timeout_graceful_shutdown=max(1, round(settings.shutdown_timeout_seconds)))
    finally:
        multiprocess.remove(metrics_directory)


def _worker() -> None:
    from homebase.worker.runner import run_worker_forever

    asyncio.run(run_worker_forever())


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    quiet = args.command in ("admin", "migrate")
    try:
        from homebase.config import get_settings

        # One setup for every command (kit/logs.py); HOMEBASE_LOG_FORMAT=json makes each
        # line one JSON object, Alembic's and uvicorn's included.
        logs.configure(get_settings().log_format,
                       logging.WARNING if quiet else getattr(args, "log_level", "info"))
        if args.command == "migrate":
            _print(_migrate())
        elif args.command == "serve":
            _serve(args)
        elif args.command == "worker":
            _worker()
        elif args.command == "admin":
            _print(asyncio.run(admin.run(args)))
    except AdminError as error:
        sys.stderr.write(f"error: {error}\n")
        sys.exit(1)
    except ValidationError as error:  # settings refused: say which variable and why
        sys.stderr.write(f"error: {_settings_problems(error)}\n")
        sys.exit(1)
    except Exception as error:  # the contract: a one-line reason, non-zero exit
        first_line = str(error).splitlines()[0] if str(error) else ""
        cause = error.__cause__  # e.g. DatabaseUnavailable's driver error
        if cause is not None and str(cause):
            first_line += f" ({type(cause).__name__}: {str(cause).splitlines()[0]})"
        sys.stderr.write(f"error: {type(error).__name__}: {first_line}\n")
        sys.exit(1)


def _settings_problems(error: ValidationError) -> str:
    """One line: each refused HOMEBASE_* setting with its reason."""
    problems = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        names = [str(part) for part in item["loc"]]
        problems.append(f"HOMEBASE_{'_'.join(names).upper()}: {message}" if names else message)
    return "; ".join(problems)
