"""Webhook delivery figures (`python -m bench.webhooks [--database-url URL]`).

One `homebase worker` process delivers to a receiver on loopback (this process), or with
--in-process a worker in this process, as under `homebase serve`:

- throughput: N events committed in one transaction; deliveries per second from the
  first attempt to the last (and from the commit);
- latency: single events committed one at a time; the time from each commit to its
  first attempt arriving at the receiver, p50 and p99. The commit wakes the worker
  (worker/wakeup.py): LISTEN/NOTIFY on PostgreSQL, in-process on both databases. A
  separate worker on SQLite has no wake-up: HOMEBASE_WORKER_POLL_SECONDS (default 1 s)
  bounds it.

Bounded in time: every wait has a deadline. Prints a Markdown table, returns a dict.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

from homebase.auth.principal import Principal
from homebase.auth.scopes import ALL_SCOPES
from homebase.config import Settings
from homebase.db.engine import Database
from homebase.db.migrate import upgrade
from homebase.db.tenancy import TenantSession
from homebase.outbox.service import emit
from homebase.ratelimit import MemoryLimiter
from homebase.root.worker import run_until
from homebase.runtime import Runtime
from homebase.webhooks.safety import look_up_url
from homebase.webhooks.schemas import WebhookCreate
from homebase.webhooks.service import create_subscription
from homebase.workspaces.service import create_workspace

REPO = Path(__file__).resolve().parent.parent
SECRET_KEY = "bench-secret-key-0123456789"


class Receiver:
    """Minimal HTTP/1.1 keep-alive receiver: 200 to everything, arrival time per event."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}
        self.count = 0
        self.arrived = asyncio.Event()
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/hook"

    async def _handle(self, reader, writer) -> None:
        try:
            while await reader.readline():
                length = 0
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = header.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length)
                now = time.time()
                self.count += 1
                event_id = orjson.loads(body)["data"]["event_id"]
                self.arrivals.setdefault(event_id, now)
                self.arrived.set()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def wait_for(self, count: int, deadline: float) -> bool:
        while self.count < count and time.monotonic() < deadline:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), deadline - time.monotonic())
            except TimeoutError:
                break
        return self.count >= count


async def _emit(runtime: Runtime, workspace_id: str, count: int) -> tuple[list[str], float]:
    """Commit `count` contact.created events in one transaction; (ids, commit time)."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        ids = [
            await emit(
                session,
                "contact.created",
                data={"id": f"con_bench{index}", "phone": "+14155550142"},
            )
            for index in range(count)
        ]
    return ids, time.time()


async def _prepare(runtime: Runtime, url: str) -> str:
    answers = await look_up_url(url, runtime.settings, runtime.resolver)  # a literal address
    async with runtime.db.transaction() as connection:
        workspace = await create_workspace(connection, "Bench Realty", now=runtime.clock())
        principal = Principal(
            workspace_id=workspace["id"],
            scopes=frozenset(ALL_SCOPES),
            granted_scopes=ALL_SCOPES,
            credential_kind="api_key",
            credential_id="bench",
            rate_limit_bucket="bench",
            rate_limit_per_min=1,
        )
        session = TenantSession(connection, workspace["id"], clock=runtime.clock)
        await create_subscription(
            session,
            principal,
            body=WebhookCreate(url=url),
            settings=runtime.settings,
            answers=answers,
        )
    return workspace["id"]


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _start_worker(runtime: Runtime, env: dict, in_process: bool):
    """(stop) for the worker: a task on this loop, or a `homebase worker` process."""
    if in_process:
        stop = asyncio.Event()
        task = asyncio.create_task(run_until(runtime, stop))

        async def stop_task() -> None:
            stop.set()
            await asyncio.wait_for(task, 10)

        return stop_task
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "homebase",
        "worker",
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )

    async def kill() -> None:
        worker.kill()
        await asyncio.wait_for(worker.wait(), 10)

    return kill


async def run(
    database_url: str,
    events: int,
    samples: int,
    poll_seconds: float,
    budget_seconds: float,
    in_process: bool = False,
) -> dict:
    await upgrade(database_url)
    settings = Settings(
        env="test",
        database_url=database_url,
        secret_key=SECRET_KEY,
        webhook_allow_private_urls=True,
        worker_poll_seconds=poll_seconds,
    )
    runtime = Runtime(settings=settings, db=Database(database_url), limiter=MemoryLimiter())
    receiver = Receiver()
    url = await receiver.start()
    workspace_id = await _prepare(runtime, url)
    env = {
        **os.environ,
        "HOMEBASE_ENV": "test",
        "HOMEBASE_DATABASE_URL": database_url,
        "HOMEBASE_SECRET_KEY": SECRET_KEY,
        "HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS": "1",
        "HOMEBASE_WORKER_POLL_SECONDS": str(poll_seconds),
    }
    stop_worker = await _start_worker(runtime, env, in_process)
    deadline = time.monotonic() + budget_seconds
    try:
        # Warm-up: the worker is up and its connections are open.
        await _emit(runtime, workspace_id, 1)
        await receiver.wait_for(1, deadline)

        before = receiver.count
        ids, committed = await _emit(runtime, workspace_id, events)
        complete = await receiver.wait_for(before + events, deadline)
        arrivals = [receiver.arrivals[i] for i in ids if i in receiver.arrivals]
        first, last = min(arrivals), max(arrivals)
        throughput = len(arrivals) / max(last - first, 1e-9)

        latencies = []
        for _ in range(samples):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05 + (hash(time.time()) % 100) / 1000)
            [event_id], committed_at = await _emit(runtime, workspace_id, 1)
            if await receiver.wait_for(receiver.count + 1, deadline):
                latencies.append(receiver.arrivals[event_id] - committed_at)
    finally:
        await stop_worker()
        receiver.server.close()
        await runtime.close()
    return {
        "database": database_url.split(":", 1)[0],
        "events": events,
        "worker": "in-process" if in_process else "process",
        "delivered": len(arrivals),
        "complete": complete,
        "deliveries_per_second": round(throughput, 1),
        "deliveries_per_second_from_commit": round(len(arrivals) / (last - committed), 1),
        "poll_seconds": poll_seconds,
        "latency_samples": len(latencies),
        "commit_to_first_attempt_p50_ms": round(statistics.median(latencies) * 1000, 1)
        if latencies
        else None,
        "commit_to_first_attempt_p99_ms": round(_percentile(latencies, 0.99) * 1000, 1)
        if latencies
        else None,
    }


def _table(results: list[dict]) -> str:
    lines = [
        "| database | poll (s) | deliveries/s | from commit | commit→first attempt p50 "
        "(ms) | p99 (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        worker = " (in-process worker)" if r.get("worker") == "in-process" else ""
        lines.append(
            f"| {r['database']}{worker} | {r['poll_seconds']} "
            f"| {r['deliveries_per_second']} "
            f"| {r['deliveries_per_second_from_commit']} | "
            f"{r['commit_to_first_attempt_p50_ms']} | "
            f"{r['commit_to_first_attempt_p99_ms']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--poll-seconds", type=float, nargs="+", default=[1.0, 0.1])
    parser.add_argument("--budget-seconds", type=float, default=60)
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the worker in this process, as `homebase serve` does",
    )
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for index, poll in enumerate(args.poll_seconds):
            url = args.database_url or f"sqlite+aiosqlite:///{scratch}/bench{index}.sqlite3"
            results.append(
                asyncio.run(
                    run(url, args.events, args.samples, poll, args.budget_seconds, args.in_process)
                )
            )
    print("\nWebhook delivery, one worker, receiver on loopback\n")
    print(_table(results))
    return results


if __name__ == "__main__":
    main()
