"""The `homebase` command: migrate, serve, worker, admin."""

import argparse
import asyncio
import json
import logging
import os
import sys

from homebase.cli import admin
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

    from homebase.config import VAR_DIR, get_settings

    _migrate()
    if args.demo:
        from homebase.workspaces.demo import ensure_local_demo

        demo = asyncio.run(ensure_local_demo())
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
    uvicorn.run("homebase.http.asgi:app", host=args.host, port=args.port, workers=args.workers,
                loop="uvloop", http="httptools", log_level=args.log_level, access_log=False)


def _worker() -> None:
    from homebase.worker.runner import run_worker_forever

    asyncio.run(run_worker_forever())


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    quiet = args.command in ("admin", "migrate")
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # Alembic lists each of its plugins at INFO on every start; the migrations it runs
    # (alembic.runtime.migration) stay visible.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    try:
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
    except Exception as error:  # the contract: a one-line reason, non-zero exit
        first_line = str(error).splitlines()[0] if str(error) else ""
        sys.stderr.write(f"error: {type(error).__name__}: {first_line}\n")
        sys.exit(1)
