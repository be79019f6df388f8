"""`make bench` (`python -m bench.run [options]`).

Serves a bare FastAPI hello-world and the real service (one uvicorn worker each) on
loopback and drives both with wrk, on SQLite (`--db sqlite`, the default) or on
PostgreSQL + Redis (`--db postgres`: fresh databases on 127.0.0.1:5432, dropped at the
end; Redis database 14 for the limiter, bench/backends.py). Every figure is reported as
a ratio to the hello-world's requests/s from the same run, measured in every round next
to the others, because the machine is shared and absolute numbers drift: GET /v1/ping,
GET /v1/contacts, POST /v1/contacts and POST /v1/leads (bench/leads.py); in the same
rounds, ping with the other limiter (Redis against in-memory) and ping and list-50 on
`serve --workers 2`. Then, on one workspace of a million contacts (bench/scale.py): the
first page against a deep one, search, and ping's p99 beside a searching client; then
webhook delivery (bench/webhooks.py: deliveries/s, commit to first attempt p50/p99);
last, the AI responder's inbound text to reply latency (bench/ai.py: p50/p99/max, target
p99 under 2 s plus the quiet window, one tool round in each reply; `--ai-tool-rounds 0`:
none; measured twice: with the default quiet window, as served in production, and with a
window of 0 s, the compose path's own figure); with `--only first-touch`, the AI's first
touch, lead created to first text handed to the provider (bench/first_touch.py:
`--first-touch-leads`, default 200, target p99 within the persona's delay + 2 s); with
`--only voice`, the AI's voice turn, a caller's final `prompt` on the ConversationRelay
WebSocket to the first `text` token out (bench/voice.py: `--voice-calls` live at once,
default 20, each saying `--voice-turns` lines, default 5; p50/p95/p99/max, target p50
under 300 ms and p99 under 800 ms over 20 calls). The bulk parts:
`bulk` (bench/bulk.py: a 5,000-row import's rows/s against POST /v1/contacts' requests/s
in the same rounds, target 5x; the same rows as a Follow Up Boss-style CSV through the
console's upload against them as JSON, target 1.1x of its time, and the CSV's dry run,
target under 10 s; 100,000 contacts through 20 imports with the worker's memory growth,
target under 100 MB; ping's p99 while the worker imports, target within 2x of idle), and
on the million-contact workspace `sync` (an updated_after page and GET /v1/events pages, a
million events seeded, against the plain first page, target 1.5x) and `export` (every
contact to a file, target 20,000 rows/s with flat memory), bench/scale.py and bench/export.py. The
throughput rounds also time the provider callback POST /providers/sms/inbound: a static
signed form from a contact with consent in a workspace with a responder persona, so
every request records a text and runs the AI's eligibility checks and counts the text
into the contact's open AI job (the first opens it). The served process runs no worker
(`--no-worker`, as for every endpoint here): the figure is the callback's own cost, not
the compose of the flood's replies beside it.

`console` (bench/people.py): the console's People list (first page, a stage filter, a
search) and a person's page with a full timeline page, on a workspace of
`--console-contacts` contacts (100,000) seeded in bulk, one signed-in client, one request
at a time: p50 and p99, target p50 under 50 ms for the list and a person's page on
PostgreSQL.

`--against DIR` (the throughput part only; the other parts ignore it) also serves DIR,
another checkout of this repository (e.g. `git worktree add --detach /tmp/base main`), on
the same database, workspace and keys, with the same interpreter and PYTHONPATH=DIR, and
times its ping, list-50, create, leads and inbound callback right after the same endpoint
of this tree, the pair's order swapped every other round so that drift within a round
favours neither tree. An A/B table follows: each tree's median ratio to the hello-world,
and the median and rounds of this tree's requests/s over the other's (the callback's
target: at least 0.95). The database is migrated by this tree and the other tree's own
migration step at start is skipped (bench/servers.py, SERVE_WITHOUT_MIGRATING: an older
checkout refuses revisions it does not know), so the other tree must work on this schema;
both accept the same signed callback (the same HOMEBASE_TWILIO_AUTH_TOKEN
and HOMEBASE_PUBLIC_URL).

`--peer` (PostgreSQL only, the throughput part) also serves bench/peer.py, a lean FastAPI +
asyncpg + redis-py app over the same database and keys, and times its ping, list-50 and
create right after this tree's (order swapped every other round, as `--against`); a table
of this tree's requests/s over the peer's follows (floors: ping 0.9, list-50 0.8, create
0.7; the service does more per request: timeline, tags, search columns).

Results print as Markdown; `--write-docs` also replaces the database's generated block
of docs/performance.md (the bulk parts have a block of their own, replaced only by a run
that measured one of them, so either can be run alone).
"""

import argparse
import asyncio
import json
import os
import platform
import secrets
import statistics
import subprocess
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench import ai, bulk, first_touch, people, scale, voice, wrk
from bench.backends import REDIS_URL, Backend
from bench.leads import LEAD_BODY, check_created
from bench.scale import check as _check
from bench.servers import REPO, Service, hello_server, peer_server, prepare_service

CONTACT_BODY = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "source": "Zillow",
    "tags": ["buyer", "pre-approved"],
}
PING, LIST = "GET /v1/ping", "GET /v1/contacts?limit=50"
CREATE, LEADS = "POST /v1/contacts", "POST /v1/leads"
INBOUND = "POST " + ai.INBOUND_PATH
TARGETS = {PING: 0.35, LIST: 0.15, CREATE: 0.10, LEADS: 0.08}
OTHER_LIMITER, PING_2, LIST_2 = "ping, other limiter", "ping, 2 workers", "list-50, 2 workers"
# --against: the other tree's endpoint is named as this tree's with this suffix.
AGAINST = " (against)"
AB_ENDPOINTS = (PING, LIST, CREATE, LEADS, INBOUND)
# this tree's requests/s over the other's, at least (the callback's own cost)
AB_TARGETS = {INBOUND: 0.95}
# --peer: the lean peer's endpoint is named as this tree's with this suffix; floors.
PEER = " (peer)"
PEER_TARGETS = {PING: 0.9, LIST: 0.8, CREATE: 0.7}
DOCS = REPO / "docs" / "performance.md"
PARTS = (
    "throughput",
    "limiter",
    "workers",
    "deep",
    "search",
    "stall",
    "webhooks",
    "ai",
    "first-touch",
    "voice",
    "bulk",
    "sync",
    "export",
    "console",
)
SCALE_PARTS = {"deep", "search", "stall", "sync", "export"}
BULK_PARTS = {"bulk", "sync", "export"}  # their own generated block (BULK_BLOCK)
BULK_BLOCK = "bulk"


def markers(db: str, block: str = "") -> tuple[str, str]:
    name = f"{db}:{block}" if block else db
    return f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"


@dataclass
class Endpoint:
    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    results: list[wrk.Result] = field(default_factory=list)

    def ratios(self, baseline: "Endpoint") -> list[float]:
        # Each round's ratio uses that round's baseline; the median of those is reported.
        return [
            r.requests_per_second / b.requests_per_second
            for r, b in zip(self.results, baseline.results, strict=True)
        ]


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="sqlite (default) or postgres: PostgreSQL + Redis on loopback",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short smoke run: 1 round of 3 s, 100,000 contacts at scale",
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
        help="contacts in the workspace of the deep page, search and stall (0 skips them)",
    )
    parser.add_argument(
        "--console-contacts",
        type=int,
        default=100_000,
        help="contacts in the workspace of the console part (People and a person's page)",
    )
    parser.add_argument(
        "--ai-texts",
        type=int,
        default=100,
        help="texts for the AI responder's inbound to reply latency (one contact each)",
    )
    parser.add_argument(
        "--ai-tool-rounds",
        type=int,
        choices=[0, 1],
        default=1,
        help="tool rounds in each of the AI responder's replies (bench/ai.py)",
    )
    parser.add_argument(
        "--first-touch-leads",
        type=int,
        default=200,
        help="leads for the AI's first touch, lead created to first text (bench/first_touch.py)",
    )
    parser.add_argument(
        "--voice-calls",
        type=int,
        default=voice.CALLS,
        help="calls live at once in the voice part (bench/voice.py)",
    )
    parser.add_argument(
        "--voice-turns",
        type=int,
        default=voice.TURNS,
        help="lines each caller says in the voice part",
    )
    parser.add_argument(
        "--only", choices=PARTS, action="append", help="run this part only (repeatable)"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help=f"replace the database's generated block of {DOCS.relative_to(REPO)}",
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="another checkout of this repository to serve beside this one in the "
        "throughput part, its endpoints interleaved with this tree's (an A/B table)",
    )
    parser.add_argument(
        "--peer",
        action="store_true",
        help="with --db postgres, serve bench/peer.py beside this tree in the throughput "
        "part, its ping, list-50 and create interleaved with this tree's",
    )
    args = parser.parse_args()
    if args.peer and args.db != "postgres":
        parser.error("--peer needs --db postgres (the peer speaks asyncpg and Redis)")
    if args.quick:
        args.duration, args.rounds = min(args.duration, 3.0), 1
        args.deep_contacts = min(args.deep_contacts, 100_000)
        args.ai_texts = min(args.ai_texts, 20)
        args.console_contacts = min(args.console_contacts, 20_000)
        args.voice_turns = min(args.voice_turns, 2)
    if not 1 <= args.rounds <= 20 or not 0.5 <= args.duration <= 120:
        parser.error("rounds must be 1-20 and duration 0.5-120 s")
    if not 1 <= args.ai_texts <= 2000:
        parser.error("ai-texts must be 1-2000")
    if not 1_000 <= args.console_contacts <= 10_000_000:
        parser.error("console-contacts must be 1,000-10,000,000")
    if not 1 <= args.voice_calls <= 200 or not 1 <= args.voice_turns <= 50:
        parser.error("voice-calls must be 1-200 and voice-turns 1-50")
    args.parts = set(args.only or PARTS)
    if args.against is not None:
        args.against = args.against.resolve()
        if not (args.against / "homebase" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: no homebase package there")
        if args.write_docs:
            parser.error("--against compares two trees; --write-docs records this one alone")
        if "throughput" not in args.parts:
            print("--against applies to the throughput part only; ignored", flush=True)
    return args


def throughput(
    args: argparse.Namespace,
    workdir: Path,
    settings: wrk.WrkSettings,
    wrk_path: str,
    backend: Backend,
) -> list[Endpoint]:
    parts = args.parts
    service = prepare_service(
        workdir / "service", secrets.token_urlsafe(32), backend, lead_fixtures=True
    )
    seconds = backend.seed(service.database_url, service.workspace_id, args.contacts)
    backend.seed_leads(service.database_url, service.workspace_id)
    print(f"seeded {args.contacts:,} contacts and their leads in {seconds:.1f} s", flush=True)
    body = json.dumps(CONTACT_BODY)
    post_headers = {**service.auth, "Content-Type": "application/json"}
    inbound = ai.signed_inbound(ai.THROUGHPUT_PHONE)
    if "throughput" in parts:
        ai.prepare_responder(service, [ai.THROUGHPUT_PHONE])
        service.env.update(ai.callback_env())  # every server below accepts the signed form
    with ExitStack() as stack:
        hello = stack.enter_context(hello_server(workdir))
        base = stack.enter_context(service.server()).base_url
        endpoints = [
            Endpoint("hello-world", hello.base_url + "/"),
            Endpoint(PING, base + "/v1/ping", service.auth),
        ]
        if parts & {"throughput", "workers"}:
            endpoints.append(Endpoint(LIST, base + "/v1/contacts?limit=50", service.auth))
        if "throughput" in parts:
            endpoints += [
                Endpoint(CREATE, base + "/v1/contacts", script=wrk.lua_post(body, post_headers)),
                Endpoint(
                    LEADS,
                    base + "/v1/leads",
                    script=wrk.lua_post(json.dumps(LEAD_BODY), post_headers),
                ),
                Endpoint(INBOUND, base + ai.INBOUND_PATH, script=wrk.lua_post(*inbound)),
            ]
        if "limiter" in parts:  # the same database, the other limiter
            other = stack.enter_context(
                service.server(redis_url=None if backend.redis_url else REDIS_URL)
            )
            endpoints.append(Endpoint(OTHER_LIMITER, other.base_url + "/v1/ping", service.auth))
        if "workers" in parts:
            two = stack.enter_context(service.server(workers=2)).base_url
            endpoints += [
                Endpoint(PING_2, two + "/v1/ping", service.auth),
                Endpoint(LIST_2, two + "/v1/contacts?limit=50", service.auth),
            ]
        if args.against is not None and "throughput" in parts:
            endpoints = _pair_against(stack, service, endpoints, base, args.against)
        if args.peer and "throughput" in parts:
            peer = stack.enter_context(peer_server(workdir, service.env)).base_url
            endpoints = _pair(endpoints, base, peer, PEER, PEER_TARGETS)
        _check_endpoints(endpoints, body, post_headers, inbound)
        if "throughput" in parts and not ai.ai_jobs(service.database_url, service.workspace_id):
            raise RuntimeError("the inbound callback opened no AI job: the AI path is not timed")
        for endpoint in endpoints:  # warm-up: imports, caches, the database's page cache
            wrk.run(
                wrk_path,
                endpoint.url,
                settings,
                headers=endpoint.headers,
                script=endpoint.script,
                duration=min(2.0, settings.duration),
            )
        width = max(len(endpoint.name) for endpoint in endpoints)
        for round_number in range(args.rounds):
            for endpoint in _round_order(endpoints, round_number):
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
                    f"round {round_number + 1}: {endpoint.name:{width}} "
                    f"{result.requests_per_second:9.0f} req/s  p50 {result.p50_ms:7.2f} ms  "
                    f"p99 {result.p99_ms:7.2f} ms",
                    flush=True,
                )
        for endpoint in endpoints:
            if endpoint.script is not None:
                endpoint.script.unlink(missing_ok=True)
    return endpoints


def _pair_against(
    stack: ExitStack, service: Service, endpoints: list[Endpoint], base: str, tree: Path
) -> list[Endpoint]:
    """`endpoints` with, right after each of AB_ENDPOINTS, the same endpoint served by
    `tree` (a second server over the same database, started on `stack`)."""
    for label, pythonpath, checkout in (("this tree", None, REPO), ("against", tree, tree)):
        loaded = service.homebase_file(pythonpath)
        print(f"{label}: homebase from {loaded}", flush=True)
        if not loaded.is_relative_to(checkout):
            raise RuntimeError(f"{label} would import homebase from {loaded}, not {checkout}")
    other = stack.enter_context(service.server(tree=tree)).base_url
    return _pair(endpoints, base, other, AGAINST, AB_ENDPOINTS)


def _pair(endpoints: list[Endpoint], base: str, other: str, suffix: str, names) -> list[Endpoint]:
    """`endpoints` with, right after each one named in `names`, the same path on `other`."""
    paired = []
    for endpoint in endpoints:
        paired.append(endpoint)
        if endpoint.name in names:
            url = other + endpoint.url.removeprefix(base)
            paired.append(Endpoint(endpoint.name + suffix, url, endpoint.headers, endpoint.script))
    return paired


def _round_order(endpoints: list[Endpoint], round_number: int) -> list[Endpoint]:
    """The endpoints in one round's order: as listed, each other tree's endpoint right
    after this tree's; in odd rounds each such pair runs the other tree's first, so a
    machine slowing down or speeding up during a round favours neither tree."""
    order = list(endpoints)
    if round_number % 2:
        for index, endpoint in enumerate(order):
            if endpoint.name.endswith((AGAINST, PEER)):
                order[index - 1], order[index] = order[index], order[index - 1]
    return order


def _check_endpoints(
    endpoints: list[Endpoint], body: str, post_headers: dict, inbound: tuple[str, dict]
) -> None:
    """Each endpoint answers as expected before it is timed."""
    for endpoint in endpoints:
        if endpoint.url.endswith(ai.INBOUND_PATH):
            answer = httpx.post(endpoint.url, content=inbound[0], headers=inbound[1])
            if answer.status_code != 200 or "<Response>" not in answer.text:
                raise RuntimeError(f"{endpoint.name}: {answer.status_code} {answer.text[:300]}")
        elif endpoint.script is None:
            answer = _check(httpx.get(endpoint.url, headers=endpoint.headers), 200)
            if "contacts" in endpoint.url and (len(answer["data"]) != 50 or not answer["has_more"]):
                raise RuntimeError("the contact list did not return a full page")
        elif endpoint.url.endswith("/v1/contacts"):
            _check(httpx.post(endpoint.url, content=body, headers=post_headers), 201)
        else:
            lead = httpx.post(endpoint.url, content=json.dumps(LEAD_BODY), headers=post_headers)
            check_created(_check(lead, 201))


def webhook_delivery(args: argparse.Namespace, workdir: Path, backend: Backend) -> list[dict]:
    """bench/webhooks.py's figures (deliveries/s, commit to first attempt p50/p99), at
    the default worker poll interval and a short one, each on a fresh database."""
    from bench import webhooks

    events, samples = (300, 10) if args.quick else (1000, 20)
    results = []
    for index, poll in enumerate((1.0, 0.1)):
        url = backend.new_database(workdir, f"webhooks{index}")
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


def _row(endpoint: Endpoint, baseline: Endpoint, name: str, target: str = "") -> str:
    ratio = statistics.median(endpoint.ratios(baseline))
    return (
        f"| {name} | {_median(endpoint.results, 'requests_per_second'):,.0f}"
        f" | {_median(endpoint.results, 'p50_ms'):.2f}"
        f" | {_median(endpoint.results, 'p99_ms'):.2f} | {ratio:.3f} | {target} |"
    )


def _throughput_report(
    args, backend: Backend, endpoints: list[Endpoint], figures: dict
) -> list[str]:
    named = {endpoint.name: endpoint for endpoint in endpoints}
    baseline = endpoints[0]
    for endpoint in endpoints:
        ratios = endpoint.ratios(baseline)
        figures[endpoint.name] = {
            "rps": [r.requests_per_second for r in endpoint.results],
            "p50_ms": [r.p50_ms for r in endpoint.results],
            "p99_ms": [r.p99_ms for r in endpoint.results],
            "ratios": ratios,
            "ratio": statistics.median(ratios),
        }
    header = [
        "| endpoint | req/s | p50 ms | p99 ms | ratio to hello-world | target |",
        "|---|---:|---:|---:|---:|---|",
    ]
    limiter = "Redis" if backend.redis_url else "in-memory"
    lines = [
        f"Throughput ({args.contacts:,} contacts, each with a lead, in the workspace; "
        f"{limiter} rate limiter; "
        "the key has contacts:read, contacts:write and leads:write, so email and phone are "
        "masked; POST /v1/leads is the docs/leads.md scenario: routed round-robin, with "
        "consent; POST /providers/sms/inbound a signed text from a contact with consent to "
        "a workspace with a responder persona, no worker running; "
        "ratio range over the rounds in brackets):",
        "",
        *header,
    ]
    for endpoint in endpoints:
        if endpoint.name not in ("hello-world", PING, LIST, CREATE, LEADS, INBOUND):
            continue
        target = TARGETS.get(endpoint.name)
        verdict = ""
        if target is not None:
            ratio = figures[endpoint.name]["ratio"]
            spread = figures[endpoint.name]["ratios"]
            verdict = f"≥ {target:.2f} {'met' if ratio >= target else 'MISSED'}" + (
                f" [{min(spread):.3f}-{max(spread):.3f}]" if len(spread) > 1 else ""
            )
        lines.append(_row(endpoint, baseline, endpoint.name, verdict))
    lines.append("")
    if OTHER_LIMITER in named:
        other = "in-memory (HOMEBASE_REDIS_URL unset)" if backend.redis_url else "Redis"
        production = figures[PING]["ratio"]
        alternative = figures[OTHER_LIMITER]["ratio"]
        redis, memory = (
            (production, alternative) if backend.redis_url else (alternative, production)
        )
        lines += [
            "Rate limiter: GET /v1/ping on two one-worker processes over the same database, "
            "in the same rounds:",
            "",
            *header,
            _row(named[PING], baseline, f"GET /v1/ping, {limiter} limiter"),
            _row(named[OTHER_LIMITER], baseline, f"GET /v1/ping, {other} limiter"),
            "",
            f"Redis limiter / in-memory: **{redis / memory:.2f}** of the throughput.",
            "",
        ]
    if PING_2 in named:
        lines += [
            "One process against two (`serve --workers 2`, the same database and limiter; "
            "wrk still -t1 on a machine of "
            f"{os.cpu_count()} cores shared with the database and wrk):",
            "",
            *header,
            _row(named[PING], baseline, "GET /v1/ping, 1 worker"),
            _row(named[PING_2], baseline, "GET /v1/ping, 2 workers"),
            _row(named[LIST], baseline, "GET /v1/contacts?limit=50, 1 worker"),
            _row(named[LIST_2], baseline, "GET /v1/contacts?limit=50, 2 workers"),
            "",
            f"2 workers / 1: ping **{figures[PING_2]['ratio'] / figures[PING]['ratio']:.2f}**, "
            f"list-50 **{figures[LIST_2]['ratio'] / figures[LIST]['ratio']:.2f}**.",
            "",
        ]
    if PING + AGAINST in named:
        lines += _ab_report(args.against, named, figures)
    if PING + PEER in named:
        lines += _peer_report(named, figures)
    return lines


def _peer_report(named: dict[str, Endpoint], figures: dict) -> list[str]:
    """--peer's table: this tree's requests/s over the lean peer's, round by round."""
    lines = [
        "Against the lean peer (bench/peer.py: FastAPI + asyncpg + redis-py, the same "
        "database and keys), each endpoint of one right after the other's:",
        "",
        "| endpoint | this tree | peer | this / peer | rounds | floor |",
        "|---|---:|---:|---:|---|---|",
    ]
    figures["peer"] = {}
    for name, floor in PEER_TARGETS.items():
        this, peer = named[name], named[name + PEER]
        rounds = [
            mine.requests_per_second / theirs.requests_per_second
            for mine, theirs in zip(this.results, peer.results, strict=True)
        ]
        ratio = statistics.median(rounds)
        figures["peer"][name] = {"this_over_peer": ratio, "rounds": rounds}
        lines.append(
            f"| {name} | {figures[name]['ratio']:.3f} | {figures[name + PEER]['ratio']:.3f}"
            f" | **{ratio:.3f}** | {', '.join(f'{value:.3f}' for value in rounds)}"
            f" | ≥ {floor:.2f} {'met' if ratio >= floor else 'MISSED'} |"
        )
    return [*lines, ""]


def _revision(tree: Path) -> str:
    """The tree's commit, and whether it has uncommitted changes, for the A/B heading."""

    def git(*arguments: str) -> str:
        command = ["git", "-C", str(tree), *arguments]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        changes = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"{commit} with uncommitted changes" if changes else commit


def _ab_report(against: Path, named: dict[str, Endpoint], figures: dict) -> list[str]:
    """The A/B table of --against: each tree's median ratio to the hello-world, and the
    median and rounds of this tree's requests/s over the other tree's in the same round."""
    this_revision, against_revision = _revision(REPO), _revision(against)
    comparison: dict = {
        "this_tree": str(REPO),
        "this_revision": this_revision,
        "against": str(against),
        "against_revision": against_revision,
        "endpoints": {},
    }
    lines = [
        f"A/B: this tree ({REPO}, {this_revision}) against {against} ({against_revision}), "
        "two one-worker servers over the same database, each endpoint of one right after "
        "the same endpoint of the other (the other tree first in even rounds):",
        "",
        "| endpoint | this tree | against | this / against | rounds (this / against) | target |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name in AB_ENDPOINTS:
        this, other = named[name], named[name + AGAINST]
        per_round = [
            mine.requests_per_second / theirs.requests_per_second
            for mine, theirs in zip(this.results, other.results, strict=True)
        ]
        row = {
            "this_ratio": figures[name]["ratio"],
            "against_ratio": figures[name + AGAINST]["ratio"],
            "this_over_against": statistics.median(per_round),
            "rounds": per_round,
            "this_ratios": figures[name]["ratios"],
            "against_ratios": figures[name + AGAINST]["ratios"],
        }
        target = AB_TARGETS.get(name)
        verdict = ""
        if target is not None:
            row["target"] = target
            verdict = f"≥ {target:.2f} " + (
                "met" if row["this_over_against"] >= target else "MISSED"
            )
        comparison["endpoints"][name] = row
        lines.append(
            f"| {name} | {row['this_ratio']:.3f} | {row['against_ratio']:.3f}"
            f" | **{row['this_over_against']:.3f}**"
            f" | {', '.join(f'{value:.3f}' for value in per_round)} | {verdict} |"
        )
    figures["ab"] = comparison
    return [*lines, ""]


def report(
    args: argparse.Namespace,
    settings: wrk.WrkSettings,
    backend: Backend,
    endpoints: list[Endpoint] | None,
    at_scale: "scale.Scale | None",
    deliveries: list[dict] | None,
    responder: list[dict] | None,
    seconds: float,
    imports: "bulk.Bulk | None" = None,
    console: "people.Figures | None" = None,
    touched: dict | None = None,
    spoken: dict | None = None,
) -> tuple[str, dict, dict[str, str]]:
    """The Markdown of everything measured, the figures, and each generated block's
    Markdown ("" the main one, BULK_BLOCK the bulk parts'), for the blocks measured."""
    heading = [
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {_machine()}; {backend.label}.",
        f"wrk -t{settings.threads} -c{settings.connections} -d{settings.duration:g}s "
        f"--latency, {args.rounds} round(s), medians; one uvicorn worker (uvloop, "
        f"httptools) per server unless said; the run took {seconds / 60:.0f} min "
        f"(`python -m bench.run --db {args.db}"
        + "".join(f" --only {part}" for part in (args.only or ()))
        + (f" --ai-tool-rounds {args.ai_tool_rounds}" if args.ai_tool_rounds != 1 else "")
        + (
            f" --console-contacts {args.console_contacts}"
            if args.console_contacts != 100_000
            else ""
        )
        + (f" --voice-calls {args.voice_calls}" if args.voice_calls != voice.CALLS else "")
        + (f" --voice-turns {args.voice_turns}" if args.voice_turns != voice.TURNS else "")
        + "`).",
        "",
    ]
    lines = list(heading)
    figures: dict = {"date": datetime.now(UTC).isoformat(), "machine": _machine(), "db": args.db}
    if endpoints:
        lines += _throughput_report(args, backend, endpoints, figures)
    if at_scale:
        more, figures["scale"] = scale.report(at_scale, settings)
        lines += more
    if deliveries:
        from bench.webhooks import _table

        lines += [
            f"Webhook delivery (bench/webhooks.py: one `homebase worker`, the receiver on "
            f"loopback; {deliveries[0]['events']:,} events committed together, then "
            f"{deliveries[0]['latency_samples']} single events one at a time):",
            "",
            _table(deliveries),
            "",
        ]
        figures["webhooks"] = deliveries
    if responder:
        lines += ai.report(responder)
        figures["ai"] = responder
    if console:
        more, figures["console"] = people.report(console, backend)
        lines += more
    if touched:
        lines += first_touch.report([touched])
        figures["first_touch"] = touched
    if spoken:
        lines += voice.report([spoken])
        figures["voice"] = spoken
    blocks = {"": "\n".join(lines)} if args.parts - BULK_PARTS else {}
    extra: list[str] = []
    if imports:
        more, figures["bulk"] = bulk.report(imports, settings)
        extra += more
    if at_scale and (at_scale.sync_first or at_scale.exports):
        more, figures["scale_bulk"] = scale.report_bulk(at_scale, settings)
        extra += more
    if extra:
        blocks[BULK_BLOCK] = "\n".join(heading + extra)
        lines += extra
    return "\n".join(lines), figures, blocks


def write_docs(markdown: str, db: str, label: str, block_name: str = "") -> None:
    begin, end = markers(db, block_name)
    block = f"{begin}\n{markdown.rstrip()}\n{end}"
    text = DOCS.read_text() if DOCS.exists() else "# Performance\n"
    if begin not in text or end not in text:
        title = f"{label}, bulk imports, exports and sync" if block_name else label
        text = text.rstrip() + f"\n\n### {title}\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    DOCS.write_text(head + block + tail)
    print(f"updated {DOCS.relative_to(REPO)} ({label})")


def main() -> None:
    args = _arguments()
    wrk_path = wrk.ensure_wrk()
    settings = wrk.WrkSettings(
        threads=args.threads, connections=args.connections, duration=args.duration
    )
    backend = Backend(args.db)
    started = time.monotonic()
    parts = args.parts
    try:
        with tempfile.TemporaryDirectory(prefix="homebase-bench-") as directory:
            workdir = Path(directory)
            endpoints = (
                throughput(args, workdir, settings, wrk_path, backend)
                if parts & {"throughput", "limiter", "workers"}
                else None
            )
            at_scale = None
            if parts & SCALE_PARTS and args.deep_contacts > 0:
                at_scale = scale.measure(
                    args, workdir, settings, wrk_path, backend, parts, secrets.token_urlsafe(32)
                )
            imports = (
                bulk.measure(
                    args,
                    workdir,
                    settings,
                    wrk_path,
                    backend,
                    secrets.token_urlsafe(32),
                    CONTACT_BODY,
                )
                if "bulk" in parts
                else None
            )
            deliveries = webhook_delivery(args, workdir, backend) if "webhooks" in parts else None
            responder = (
                [
                    ai.measure(
                        backend,
                        workdir,
                        args.ai_texts,
                        tool_rounds=args.ai_tool_rounds,
                        quiet_seconds=window,
                    )
                    for window in (ai.QUIET_SECONDS, 0.0)
                ]
                if "ai" in parts
                else None
            )
            console = (
                people.measure(workdir, backend, secrets.token_urlsafe(32), args.console_contacts)
                if "console" in parts
                else None
            )
            touched = (
                first_touch.measure(backend, workdir, args.first_touch_leads)
                if "first-touch" in parts
                else None
            )
            spoken = (
                voice.measure(backend, workdir, args.voice_calls, args.voice_turns)
                if "voice" in parts
                else None
            )
    finally:
        backend.cleanup()
    seconds = time.monotonic() - started
    markdown, figures, blocks = report(
        args,
        settings,
        backend,
        endpoints,
        at_scale,
        deliveries,
        responder,
        seconds,
        imports,
        console,
        touched,
        spoken,
    )
    print("\n" + markdown)
    print(f"(bench took {seconds:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    if args.write_docs:
        for name, block in blocks.items():
            write_docs(block, args.db, backend.label, name)


if __name__ == "__main__":
    main()
