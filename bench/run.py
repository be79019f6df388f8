"""`make bench` (`python -m bench.run [options]`).

Serves a bare FastAPI hello-world and the real service (one uvicorn worker each, SQLite)
on loopback and drives both with wrk. Every figure is reported as a ratio to the
hello-world's requests/s from the same run, measured in every round next to the others,
because the machine is shared and absolute numbers drift: GET /v1/ping, GET /v1/contacts,
POST /v1/contacts and POST /v1/leads (bench/leads.py). Then times the first page of
GET /v1/contacts against a page deep inside a million contacts, and webhook delivery
(bench/webhooks.py: deliveries/s, commit to first attempt p50/p99).

Results print as Markdown; `--write-docs` also replaces the generated block of
docs/performance.md.
"""

import argparse
import asyncio
import json
import os
import platform
import secrets
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench import seed, wrk
from bench.leads import LEAD_BODY, check_created
from bench.servers import REPO, hello_server, prepare_service
from homebase.kit.pagination import encode_cursor, list_key

CONTACT_BODY = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "source": "Zillow",
    "tags": ["buyer", "pre-approved"],
}
TARGETS = {
    "GET /v1/ping": 0.35,
    "GET /v1/contacts?limit=50": 0.15,
    "POST /v1/contacts": 0.10,
    "POST /v1/leads": 0.08,
}
DEEP_TARGET = 1.2
DOCS = REPO / "docs" / "performance.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


@dataclass
class Endpoint:
    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    results: list[wrk.Result] = field(default_factory=list)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short smoke run: 1 round of 3 s, 100,000 deep-page contacts",
    )
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per wrk run")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (-t)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (-c)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds of every endpoint, the baseline in each (median reported)",
    )
    parser.add_argument("--contacts", type=int, default=10_000, help="contacts for the list")
    parser.add_argument(
        "--deep-contacts",
        type=int,
        default=1_000_000,
        help="contacts in the deep-page database (0 skips the deep page)",
    )
    parser.add_argument(
        "--only", choices=["throughput", "deep", "webhooks"], help="run one part only"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help=f"replace the generated block of {DOCS.relative_to(REPO)}",
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    if args.quick:
        args.duration, args.rounds = min(args.duration, 3.0), 1
        args.deep_contacts = min(args.deep_contacts, 100_000)
    if not 1 <= args.rounds <= 20 or not 0.5 <= args.duration <= 120:
        parser.error("rounds must be 1-20 and duration 0.5-120 s")
    return args


def _check(response: httpx.Response, status: int) -> dict:
    if response.status_code != status:
        raise RuntimeError(
            f"{response.request.method} {response.request.url} gave "
            f"{response.status_code}: {response.text[:300]}"
        )
    return response.json()


def throughput(
    args: argparse.Namespace, workdir: Path, settings: wrk.WrkSettings, wrk_path: str
) -> list[Endpoint]:
    service = prepare_service(workdir / "service", secrets.token_urlsafe(32), lead_fixtures=True)
    seconds = seed.seed_contacts(str(service.database_path), service.workspace_id, args.contacts)
    print(f"seeded {args.contacts:,} contacts in {seconds:.1f} s", flush=True)
    with hello_server(workdir) as hello, service.server() as server:
        base = server.base_url
        body = json.dumps(CONTACT_BODY)
        post_headers = {**service.auth, "Content-Type": "application/json"}
        endpoints = [
            Endpoint("hello-world", hello.base_url + "/"),
            Endpoint("GET /v1/ping", base + "/v1/ping", service.auth),
            Endpoint("GET /v1/contacts?limit=50", base + "/v1/contacts?limit=50", service.auth),
            Endpoint(
                "POST /v1/contacts", base + "/v1/contacts", script=wrk.lua_post(body, post_headers)
            ),
            Endpoint(
                "POST /v1/leads",
                base + "/v1/leads",
                script=wrk.lua_post(json.dumps(LEAD_BODY), post_headers),
            ),
        ]
        # Each endpoint answers as expected before it is timed.
        _check(httpx.get(endpoints[0].url), 200)
        _check(httpx.get(endpoints[1].url, headers=service.auth), 200)
        page = _check(httpx.get(endpoints[2].url, headers=service.auth), 200)
        if len(page["data"]) != 50 or not page["has_more"]:
            raise RuntimeError("the contact list did not return a full page")
        _check(httpx.post(endpoints[3].url, content=body, headers=post_headers), 201)
        lead = httpx.post(endpoints[4].url, content=json.dumps(LEAD_BODY), headers=post_headers)
        check_created(_check(lead, 201))
        for endpoint in endpoints:  # warm-up: imports, caches, SQLite page cache
            wrk.run(
                wrk_path,
                endpoint.url,
                settings,
                headers=endpoint.headers,
                script=endpoint.script,
                duration=min(2.0, settings.duration),
            )
        for round_number in range(args.rounds):
            for endpoint in endpoints:
                result = wrk.run(
                    wrk_path,
                    endpoint.url,
                    settings,
                    headers=endpoint.headers,
                    script=endpoint.script,
                )
                if not result.ok:
                    raise RuntimeError(
                        f"{endpoint.name}: {result.errors} errors in {result.requests} requests"
                    )
                endpoint.results.append(result)
                print(
                    f"round {round_number + 1}: {endpoint.name:28} "
                    f"{result.requests_per_second:9.0f} req/s  p50 {result.p50_ms:7.2f} ms  "
                    f"p99 {result.p99_ms:7.2f} ms",
                    flush=True,
                )
        for endpoint in endpoints:
            if endpoint.script is not None:
                endpoint.script.unlink(missing_ok=True)
    return endpoints


@dataclass
class DeepPage:
    contacts: int
    depth: int
    seed_seconds: float
    first: list[wrk.Result]
    deep: list[wrk.Result]

    @property
    def ratio(self) -> float:
        return statistics.median(r.p50_ms for r in self.deep) / statistics.median(
            r.p50_ms for r in self.first
        )


def deep_page(
    args: argparse.Namespace, workdir: Path, settings: wrk.WrkSettings, wrk_path: str
) -> DeepPage:
    secret = secrets.token_urlsafe(32)
    service = prepare_service(workdir / "deep", secret)
    count = args.deep_contacts
    seconds = seed.seed_contacts(str(service.database_path), service.workspace_id, count)
    print(f"seeded {count:,} contacts in {seconds:.1f} s", flush=True)
    depth = count * 9 // 10
    after = seed.id_at_depth(str(service.database_path), service.workspace_id, depth - 1)
    expected = seed.id_at_depth(str(service.database_path), service.workspace_id, depth)
    cursor = encode_cursor(secret, list_key(service.workspace_id, "/v1/contacts", {}), after)
    with service.server() as server:
        first_url = server.base_url + "/v1/contacts?limit=50"
        deep_url = f"{first_url}&cursor={cursor}"
        page = _check(httpx.get(deep_url, headers=service.auth), 200)
        if page["data"][0]["id"] != expected or len(page["data"]) != 50:
            raise RuntimeError("the deep cursor was not honoured (the walk restarted)")
        deep_settings = wrk.WrkSettings(
            threads=1,
            connections=min(8, settings.connections),
            duration=settings.duration,
            timeout=settings.timeout,
        )
        first, deep = [], []
        for url in (first_url, deep_url):
            wrk.run(
                wrk_path,
                url,
                deep_settings,
                headers=service.auth,
                duration=min(2.0, settings.duration),
            )
        for _ in range(args.rounds):  # interleaved, so drift hits both alike
            for url, results in ((first_url, first), (deep_url, deep)):
                result = wrk.run(wrk_path, url, deep_settings, headers=service.auth)
                if not result.ok:
                    raise RuntimeError(f"deep page: {result.errors} errors")
                results.append(result)
            print(
                f"first page p50 {first[-1].p50_ms:.2f} ms, page at {depth:,}: "
                f"p50 {deep[-1].p50_ms:.2f} ms",
                flush=True,
            )
    return DeepPage(contacts=count, depth=depth, seed_seconds=seconds, first=first, deep=deep)


def webhook_delivery(args: argparse.Namespace, workdir: Path) -> list[dict]:
    """bench/webhooks.py's figures (deliveries/s, commit to first attempt p50/p99), at
    the default worker poll interval and a short one, each on a fresh SQLite file."""
    from bench import webhooks

    events, samples = (300, 10) if args.quick else (1000, 20)
    results = []
    for index, poll in enumerate((1.0, 0.1)):
        url = f"sqlite+aiosqlite:///{workdir}/webhooks{index}.sqlite3"
        result = asyncio.run(webhooks.run(url, events, samples, poll, budget_seconds=60))
        print(
            f"webhooks (poll {poll} s): {result['deliveries_per_second']} deliveries/s, "
            f"commit→first attempt p50 {result['commit_to_first_attempt_p50_ms']} ms",
            flush=True,
        )
        results.append(result)
    return results


def _machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def _median(results: list[wrk.Result], attribute: str) -> float:
    return statistics.median(getattr(r, attribute) for r in results)


def report(
    args: argparse.Namespace,
    settings: wrk.WrkSettings,
    endpoints: list[Endpoint] | None,
    deep: DeepPage | None,
    deliveries: list[dict] | None = None,
) -> tuple[str, dict]:
    lines = [
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {_machine()}.",
        f"wrk -t{settings.threads} -c{settings.connections} -d{settings.duration:g}s "
        f"--latency, {args.rounds} round(s), medians; one uvicorn worker (uvloop, "
        "httptools) per server; SQLite.",
        "",
    ]
    figures: dict = {"date": datetime.now(UTC).isoformat(), "machine": _machine()}
    if endpoints:
        baseline = endpoints[0]
        lines += [
            f"Throughput ({args.contacts:,} contacts in the workspace; the key has "
            "contacts:read, contacts:write and leads:write, so email and phone are masked; "
            "POST /v1/leads is the docs/leads.md scenario: routed round-robin, with consent):",
            "",
            "| endpoint | req/s | p50 ms | p99 ms | ratio to hello-world | target |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for endpoint in endpoints:
            # Each round's ratio uses that round's baseline; the median of those is reported.
            ratios = [
                r.requests_per_second / b.requests_per_second
                for r, b in zip(endpoint.results, baseline.results, strict=True)
            ]
            ratio = statistics.median(ratios)
            target = TARGETS.get(endpoint.name)
            verdict = (
                ""
                if target is None
                else (f"≥ {target:.2f} {'met' if ratio >= target else 'MISSED'}")
            )
            rps = _median(endpoint.results, "requests_per_second")
            lines.append(
                f"| {endpoint.name} | {rps:,.0f}"
                f" | {_median(endpoint.results, 'p50_ms'):.2f}"
                f" | {_median(endpoint.results, 'p99_ms'):.2f}"
                f" | {ratio:.3f} | {verdict} |"
            )
            figures[endpoint.name] = {
                "rps": [r.requests_per_second for r in endpoint.results],
                "p50_ms": [r.p50_ms for r in endpoint.results],
                "p99_ms": [r.p99_ms for r in endpoint.results],
                "ratio": ratio,
            }
        lines.append("")
    if deep:
        first_p50, deep_p50 = _median(deep.first, "p50_ms"), _median(deep.deep, "p50_ms")
        lines += [
            f"Deep page ({deep.contacts:,} contacts in one workspace, seeded in "
            f"{deep.seed_seconds:.0f} s; wrk -c{min(8, settings.connections)}):",
            "",
            "| GET /v1/contacts?limit=50 | req/s | p50 ms | p99 ms |",
            "|---|---:|---:|---:|",
            f"| first page | {_median(deep.first, 'requests_per_second'):,.0f} | "
            f"{first_p50:.2f} | {_median(deep.first, 'p99_ms'):.2f} |",
            f"| after {deep.depth:,} contacts | "
            f"{_median(deep.deep, 'requests_per_second'):,.0f} | {deep_p50:.2f} | "
            f"{_median(deep.deep, 'p99_ms'):.2f} |",
            "",
            f"Deep/first p50 latency: **{deep.ratio:.2f}** (target ≤ {DEEP_TARGET}: "
            f"{'met' if deep.ratio <= DEEP_TARGET else 'MISSED'}).",
            "",
        ]
        figures["deep_page"] = {
            "contacts": deep.contacts,
            "depth": deep.depth,
            "first_p50_ms": first_p50,
            "deep_p50_ms": deep_p50,
            "ratio": deep.ratio,
        }
    if deliveries:
        from bench.webhooks import _table

        lines += [
            f"Webhook delivery (bench/webhooks.py: one `homebase worker`, the receiver on "
            f"loopback, SQLite; {deliveries[0]['events']:,} events committed together, then "
            f"{deliveries[0]['latency_samples']} single events one at a time):",
            "",
            _table(deliveries),
            "",
        ]
        figures["webhooks"] = deliveries
    return "\n".join(lines), figures


def write_docs(markdown: str) -> None:
    block = f"{BEGIN}\n{markdown.rstrip()}\n{END}"
    text = DOCS.read_text() if DOCS.exists() else f"# Performance\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip() + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOCS.write_text(head + block + tail)
    print(f"updated {DOCS.relative_to(REPO)}")


def main() -> None:
    args = _arguments()
    wrk_path = wrk.ensure_wrk()
    settings = wrk.WrkSettings(
        threads=args.threads, connections=args.connections, duration=args.duration
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="homebase-bench-") as directory:
        workdir = Path(directory)
        endpoints = (
            throughput(args, workdir, settings, wrk_path)
            if args.only in (None, "throughput")
            else None
        )
        deep = (
            deep_page(args, workdir, settings, wrk_path)
            if args.only in (None, "deep") and args.deep_contacts > 0
            else None
        )
        deliveries = (
            webhook_delivery(args, workdir) if args.only in (None, "webhooks") else None
        )
    markdown, figures = report(args, settings, endpoints, deep, deliveries)
    print("\n" + markdown)
    print(f"(bench took {time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    if args.write_docs:
        write_docs(markdown)


if __name__ == "__main__":
    main()
