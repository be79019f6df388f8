"""No request stalls the others: `python -m bench.stall --db sqlite|postgres`.

Seeds one workspace with `--contacts` contacts as bench/search.py does (then migrates to
head), and calls the app in-process through httpx's ASGI transport, so the app and both
clients share one event loop, as requests share a worker process. First GET /v1/ping
alone, one request at a time (idle); then the same while another client loops the
slowest lists a workspace allows (SLOW: a `q` too short for the trigram index that finds
nothing, a tag nobody has, a search with a filter): ping's p50/p99 loaded against idle,
in the same run (docs/performance.md, "No request stalls the others"). Target: loaded p99
within 2x of idle p99.
"""

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench.search import _drop_postgres, _postgres_database, seeded_workspace

SLOW = {
    "q of two characters, no match (scans the workspace)": "limit=50&q=zq",
    "tag nobody has (scans the workspace)": "limit=50&tag=nosuchtag",
    "q no match + stage": "limit=50&q=zqxw&stage=LEAD",
}


def _p(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


async def _pings(client, seconds: float, every: float = 0.002) -> list[float]:
    """GET /v1/ping on a schedule (one every `every` seconds, one at a time), each timed
    from when it was due: a loop that is not given back delays the pings due meanwhile,
    and that delay counts (timing from the send alone would hide the stall)."""
    samples: list[float] = []
    start = time.perf_counter()
    due = start
    while due < start + seconds:
        now = time.perf_counter()
        if now < due:
            await asyncio.sleep(due - now)
        response = await client.get("/v1/ping")
        samples.append(time.perf_counter() - due)
        if response.status_code != 200:
            raise RuntimeError(f"ping: {response.status_code}")
        due += every
        # After a stall, the pings that fell due during it are one sample each, as late
        # as they were, not sent in a burst afterwards.
        now = time.perf_counter()
        while due < now - every and due < start + seconds:
            samples.append(now - due)
            due += every
    return samples


async def _measure(url: str, db: str, count: int, seconds: float) -> dict:
    import httpx

    from homebase.root.app import create_app
    from homebase.runtime import Runtime

    key, seeded, _ = await seeded_workspace(url, db, count, "Stall Realty")

    runtime = Runtime.from_settings()
    app = create_app(runtime)
    headers = {"authorization": f"token {key}"}
    slow_samples: dict[str, list[float]] = {name: [] for name in SLOW}
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://127.0.0.1",
            headers=headers,
            timeout=120,
        ) as client,
    ):
        for query in SLOW.values():  # warm-up
            (await client.get(f"/v1/contacts?{query}")).raise_for_status()
        idle: list[float] = []
        loaded: list[float] = []
        stop = False

        async def slow_client() -> None:
            while not stop:
                for name, query in SLOW.items():
                    begun = time.perf_counter()
                    response = await client.get(f"/v1/contacts?{query}")
                    slow_samples[name].append(time.perf_counter() - begun)
                    response.raise_for_status()
                    # A request that never waits never gives the loop back (everything
                    # in-process, inline): a client over a socket would, between requests.
                    await asyncio.sleep(0)

        # Idle and loaded phases alternate, so the shared machine's drift hits both. The
        # first loaded phase is a warm-up, not counted: it opens the pool's second
        # connection (once, ~100 ms on the loop thread at first use).
        for phase in range(4):
            phase_idle = await _pings(client, seconds / 3 if phase else 1.0)
            stop = False
            loader = asyncio.create_task(slow_client())
            await asyncio.sleep(0.1)
            phase_loaded = await _pings(client, seconds / 3 if phase else 1.0)
            if phase:
                idle += phase_idle
                loaded += phase_loaded
            stop = True
            await loader
    await runtime.close()
    idle_p99, loaded_p99 = _p(idle, 0.99), _p(loaded, 0.99)
    return {
        "db": db,
        "contacts": count,
        "seed_s": round(seeded, 1),
        "pool_size": runtime.settings.sqlite_pool_size if db == "sqlite" else None,
        "ping_idle": {
            "n": len(idle),
            "p50_ms": round(_p(idle, 0.5), 2),
            "p99_ms": round(idle_p99, 2),
        },
        "ping_loaded": {
            "n": len(loaded),
            "p50_ms": round(_p(loaded, 0.5), 2),
            "p99_ms": round(loaded_p99, 2),
        },
        "p99_ratio": round(loaded_p99 / idle_p99, 2),
        "slow": [
            {
                "case": name,
                "query": SLOW[name],
                "n": len(values),
                "p50_ms": round(statistics.median(values) * 1000, 1) if values else None,
            }
            for name, values in slow_samples.items()
        ],
    }


def _table(result: dict) -> str:
    idle, loaded = result["ping_idle"], result["ping_loaded"]
    lines = [
        f"{result['db']}: {result['contacts']:,} contacts (seeded in {result['seed_s']} s)",
        "",
        "| GET /v1/ping | requests | p50 ms | p99 ms |",
        "|---|---:|---:|---:|",
        f"| idle | {idle['n']} | {idle['p50_ms']:.2f} | {idle['p99_ms']:.2f} |",
        f"| while one client loops the slow lists | {loaded['n']} | "
        f"{loaded['p50_ms']:.2f} | {loaded['p99_ms']:.2f} |",
        "",
        f"p99 loaded / idle: {result['p99_ratio']:.2f}",
        "",
        "| slow list (looped) | requests | p50 ms |",
        "|---|---:|---:|",
    ]
    for case in result["slow"]:
        lines.append(f"| {case['case']} (`{case['query']}`) | {case['n']} | {case['p50_ms']} |")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> dict:
    if args.db == "sqlite":
        directory = Path(tempfile.mkdtemp(prefix="homebase-stall-"))
        try:
            return await _measure(
                f"sqlite+aiosqlite:///{directory}/stall.sqlite3",
                "sqlite",
                args.contacts,
                args.seconds,
            )
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    server, name = await _postgres_database()
    try:
        url = server.rsplit("/", 1)[0] + f"/{name}"
        return await _measure(url, "postgres", args.contacts, args.seconds)
    finally:
        await _drop_postgres(server, name)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stall", description=__doc__)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--contacts", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=10.0, help="per ping phase")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if not 1 <= args.contacts <= 5_000_000 or not 0 < args.seconds <= 600:
        parser.error("contacts must be 1-5,000,000 and seconds 0-600")
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2) if args.json else _table(result))


if __name__ == "__main__":
    main()
