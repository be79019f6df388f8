"""In-process timing of the service's hot path, without the network or wrk.

`python -m bench.inproc [--db sqlite|postgres] [--requests N] [--concurrency C] [--profile
FILE]` builds the app on a seeded SQLite file (or, with `--db postgres`, a fresh PostgreSQL
database and the Redis limiter of bench/backends.py, dropped at the end) and calls it as
ASGI directly, C requests in flight at a time,
reporting microseconds per request (wall clock and this process's CPU time) for ping,
list-50, create, create-keyed (create with a unique Idempotency-Key per request), lead and
inbound (bench/ai.py's signed SMS callback from a contact with consent to a workspace with
a responder persona; no worker runs, so the first opens the contact's AI job and the rest
are counted into it), next to a bare FastAPI hello-world called the same way. CPU time
per request is much steadier than wall clock on a shared machine, which makes this the
tool for trying an optimisation before confirming it with `make bench`. With `--profile` it writes a
cProfile of the whole run.
"""

import argparse
import asyncio
import cProfile
import itertools
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import uvloop

from bench import ai
from bench.backends import Backend
from bench.leads import LEAD_BODY, LEAD_FIXTURES
from bench.run import CONTACT_BODY

ASGIApp = Callable


def _request(
    method: str, path: str, query: bytes, headers: list[tuple[bytes, bytes]], body: bytes
) -> tuple[dict, Callable, Callable]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent = {"status": None}

    async def receive() -> dict:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            sent["status"] = message["status"]

    return scope, receive, send, sent


async def _drive(
    app,
    method: str,
    path: str,
    query: bytes,
    headers,
    body: bytes,
    *,
    requests: int,
    concurrency: int,
    expect: int,
) -> tuple[float, float, float]:
    """Microseconds per request: wall clock, and this process's user and system CPU."""

    async def one() -> None:
        # A callable gives each request its own headers (a unique Idempotency-Key).
        sent_headers = headers() if callable(headers) else headers
        scope, receive, send, sent = _request(method, path, query, sent_headers, body)
        await app(scope, receive, send)
        if sent["status"] != expect:
            raise RuntimeError(f"{method} {path} gave {sent['status']}")

    async def worker(count: int) -> None:
        for _ in range(count):
            await one()

    for _ in range(min(200, requests)):  # warm-up
        await one()
    share = [
        requests // concurrency + (1 if i < requests % concurrency else 0)
        for i in range(concurrency)
    ]
    wall, before = time.perf_counter(), os.times()
    await asyncio.gather(*(worker(count) for count in share))
    after = os.times()
    return (
        (time.perf_counter() - wall) / requests * 1e6,
        (after.user - before.user) / requests * 1e6,
        (after.system - before.system) / requests * 1e6,
    )


async def main_async(args: argparse.Namespace) -> None:
    from bench.hello import app as hello

    directory = Path(tempfile.mkdtemp(prefix="homebase-inproc-"))
    backend = Backend(args.db)
    url = await asyncio.to_thread(backend.new_database, directory, "inproc")
    try:
        await _run(args, hello, directory, backend, url)
    finally:
        await asyncio.to_thread(backend.cleanup)


async def _run(args: argparse.Namespace, hello, directory: Path, backend, url: str) -> None:
    import os

    from homebase.db.migrate import upgrade

    await upgrade(url)
    os.environ["HOMEBASE_DATABASE_URL"] = url
    if backend.redis_url and not args.memory_limiter:
        os.environ["HOMEBASE_REDIS_URL"] = backend.redis_url
    os.environ["HOMEBASE_SECRET_KEY"] = "inproc-secret"
    os.environ["HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN"] = "100000000"
    os.environ.update(ai.callback_env())

    from homebase.auth.api_keys import create_api_key
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures
    from homebase.root.app import create_app
    from homebase.runtime import Runtime
    from homebase.workspaces.service import create_workspace

    runtime = Runtime.from_settings()
    async with runtime.db.transaction() as connection:
        workspace = await create_workspace(connection, "Inproc Realty", now=runtime.clock())
        key = await create_api_key(
            TenantSession(connection, workspace["id"], clock=runtime.clock),
            scopes=["contacts:read", "contacts:write", "leads:write"],
            name="bench",
            expires_in_days=None,
        )
        await load_fixtures(TenantSession(connection, workspace["id"]), LEAD_FIXTURES)
    await ai.install_responder(runtime.db, workspace["id"], [ai.THROUGHPUT_PHONE])
    backend.key_ids.append(key.id)
    await asyncio.to_thread(backend.seed, url, workspace["id"], args.contacts)
    await asyncio.to_thread(backend.seed_leads, url, workspace["id"])  # as bench/run.py
    app = create_app(runtime, server_process=True)  # as `homebase serve` builds it
    auth = [(b"authorization", f"token {key.key}".encode()), (b"host", b"127.0.0.1")]
    post = auth + [(b"content-type", b"application/json")]
    body = json.dumps(CONTACT_BODY).encode()
    keys = itertools.count()
    form, form_headers = ai.signed_inbound(ai.THROUGHPUT_PHONE)
    inbound = [(b"host", b"127.0.0.1")]
    inbound += [(name.lower().encode(), value.encode()) for name, value in form_headers.items()]

    def keyed() -> list[tuple[bytes, bytes]]:
        return post + [(b"idempotency-key", f"bench-{next(keys)}".encode())]

    cases = {
        "hello-world": (hello, "GET", "/", b"", [(b"host", b"127.0.0.1")], b"", 200),
        "ping": (app, "GET", "/v1/ping", b"", auth, b"", 200),
        "list-50": (app, "GET", "/v1/contacts", b"limit=50", auth, b"", 200),
        "create": (app, "POST", "/v1/contacts", b"", post, body, 201),
        "create-keyed": (app, "POST", "/v1/contacts", b"", keyed, body, 201),
        "lead": (app, "POST", "/v1/leads", b"", post, json.dumps(LEAD_BODY).encode(), 201),
        "inbound": (app, "POST", ai.INBOUND_PATH, b"", inbound, form.encode(), 200),
    }
    selected = args.only.split(",") if args.only else list(cases)
    # CPU time of this thread, not wall time: a wall-clock profile charges the time the
    # process is descheduled (the database's process woken on this core) to whatever
    # syscall was running, usually a socket write.
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    async with app.router.lifespan_context(app):
        for name in selected:
            target, method, path, query, headers, payload, expect = cases[name]
            if profiler is not None:
                profiler.enable()
            wall, user, system = await _drive(
                target,
                method,
                path,
                query,
                headers,
                payload,
                requests=args.requests,
                concurrency=args.concurrency,
                expect=expect,
            )
            if profiler is not None:
                profiler.disable()
            print(
                f"{name:12} {wall:8.1f} µs/request wall  {user + system:8.1f} µs/request CPU"
                f" (user {user:.1f}, system {system:.1f})",
                flush=True,
            )
    await runtime.close()
    if profiler is not None:
        profiler.dump_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.inproc", description=__doc__)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--contacts", type=int, default=10_000)
    parser.add_argument(
        "--only",
        help="comma-separated: hello-world,ping,list-50,create,create-keyed,lead,inbound",
    )
    parser.add_argument("--profile", help="write a cProfile of the timed requests here")
    parser.add_argument(
        "--memory-limiter",
        action="store_true",
        help="with --db postgres, the in-memory limiter instead of Redis",
    )
    args = parser.parse_args()
    if not 1 <= args.requests <= 1_000_000 or not 1 <= args.concurrency <= 1000:
        parser.error("requests must be 1-1,000,000 and concurrency 1-1000")
    uvloop.run(main_async(args))


if __name__ == "__main__":
    main()
