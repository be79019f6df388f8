"""The figures at scale: one workspace of 1,000,000 contacts (`--deep-contacts`).

- Deep page: GET /v1/contacts?limit=50, the first page against a page after 90% of the
  contacts (wrk -c8, interleaved), target deep/first p50 <= 1.2.
- Search: `q` with one client (wrk -c1), p50 against the unfiltered first page with one
  client in the same rounds, target <= 3x: a query that finds nothing
  (the whole workspace is read), one that finds one contact in ten, and seven phone digits
  that find one contact 90% of the way down the list. The key may see PII (email and
  phone match by substring: the costlier search), bench/seed.py chooses the names.
- Stall: GET /v1/ping with one client, p99, idle against while one other client runs
  the no-match search on the same process without pause; target loaded <= 2x idle.
- Sync (`--only sync`): the same workspace also gets as many outbox events (bench/seed.py,
  dispatched, a day old). wrk -c8, interleaved, against the plain first page: GET
  /v1/contacts?updated_after=<the stamp of the contact 90% of the way along the walk>,
  GET /v1/events (its first page) and GET /v1/events?after=<the event 90% of the way
  along>, each limit=50; target p50 <= 1.5x the first page's. Every seeded stamp is older
  than the settle interval, so the server runs with the production settings.
- Export (`--only export`): POST /v1/exports of every contact (NDJSON, masked) run by a
  separate `homebase worker`, polled to `completed`; rows/s from `started_at` to
  `finished_at` (target >= 20,000) and the worker's RSS before and at its peak (target
  flat: the peak within 50 MB of before, where the file is some 450 MB).
"""

import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import httpx

from bench import seed, wrk
from bench.backends import Backend
from bench.servers import prepare_service
from homebase.kit.keys import Keyring
from homebase.kit.pagination import encode_cursor, list_key

DEEP_TARGET = 1.2
SEARCH_TARGET = 3.0
STALL_TARGET = 2.0
SEARCH_NAMES = ("finds nothing", "finds many (1 in 10)", "phone digits (finds 1)")
SYNC_TARGET = 1.5
EXPORT_RATE_TARGET = 20_000.0
EXPORT_MEMORY_TARGET_MB = 50.0
SYNC_NAMES = ("updated_after, 90% along", "events, first page", "events, after= 90% along")


def check(response: httpx.Response, status: int) -> dict:
    if response.status_code != status:
        raise RuntimeError(
            f"{response.request.method} {response.request.url} gave "
            f"{response.status_code}: {response.text[:300]}"
        )
    return response.json()


def median(results: list[wrk.Result], attribute: str) -> float:
    return statistics.median(getattr(r, attribute) for r in results)


@dataclass
class Scale:
    contacts: int
    seed_seconds: float
    depth: int = 0
    first: list[wrk.Result] = field(default_factory=list)  # -c8
    deep: list[wrk.Result] = field(default_factory=list)
    queries: dict[str, str] = field(default_factory=dict)  # name -> q
    search_first: list[wrk.Result] = field(default_factory=list)  # -c1
    search: dict[str, list[wrk.Result]] = field(default_factory=dict)
    idle: list[wrk.Result] = field(default_factory=list)
    loaded: list[wrk.Result] = field(default_factory=list)
    load: list[wrk.Result] = field(default_factory=list)
    events_seed_seconds: float = 0.0
    sync_first: list[wrk.Result] = field(default_factory=list)  # -c8
    sync: dict[str, list[wrk.Result]] = field(default_factory=dict)
    exports: list[dict] = field(default_factory=list)

    def sync_ratio(self, name: str) -> float:
        return median(self.sync[name], "p50_ms") / median(self.sync_first, "p50_ms")

    @property
    def deep_ratio(self) -> float:
        return median(self.deep, "p50_ms") / median(self.first, "p50_ms")

    def search_ratio(self, name: str) -> float:
        return median(self.search[name], "p50_ms") / median(self.search_first, "p50_ms")

    @property
    def stall_ratio(self) -> float:
        return median(self.loaded, "p99_ms") / median(self.idle, "p99_ms")


def _warm(wrk_path: str, url: str, settings: wrk.WrkSettings, headers: dict) -> None:
    wrk.run(wrk_path, url, settings, headers=headers, duration=min(2.0, settings.duration))


def measure(
    args,
    workdir: Path,
    settings: wrk.WrkSettings,
    wrk_path: str,
    backend: Backend,
    parts: set[str],
    secret: str,
) -> Scale:
    service = prepare_service(workdir / "deep", secret, backend)
    count = args.deep_contacts
    seconds = backend.seed(service.database_url, service.workspace_id, count)
    print(f"seeded {count:,} contacts in {seconds:.1f} s ({backend.label})", flush=True)
    scale = Scale(contacts=count, seed_seconds=seconds)
    one = wrk.WrkSettings(
        threads=1, connections=1, duration=settings.duration, timeout=max(settings.timeout, 30.0)
    )
    eight = wrk.WrkSettings(
        threads=1,
        connections=min(8, settings.connections),
        duration=settings.duration,
        timeout=settings.timeout,
    )
    if "sync" in parts:
        scale.events_seed_seconds = backend.seed_events(
            service.database_url, service.workspace_id, count
        )
        print(f"seeded {count:,} events in {scale.events_seed_seconds:.1f} s", flush=True)
    with service.server() as server:
        first_url = server.base_url + "/v1/contacts?limit=50"
        if "sync" in parts:
            _sync(scale, service, backend, server.base_url, wrk_path, eight, args.rounds)
        if "export" in parts:
            from bench.export import measure as export

            scale.exports = export(service, server.base_url, count, min(args.rounds, 2))
        if "deep" in parts:
            scale.depth = depth = count * 9 // 10
            after = backend.id_at_depth(service.database_url, service.workspace_id, depth - 1)
            expected = backend.id_at_depth(service.database_url, service.workspace_id, depth)
            contacts_list = list_key(service.workspace_id, "/v1/contacts", {})
            cursor = encode_cursor(Keyring(secret), contacts_list, after)
            deep_url = f"{first_url}&cursor={cursor}"
            page = check(httpx.get(deep_url, headers=service.auth), 200)
            if page["data"][0]["id"] != expected or len(page["data"]) != 50:
                raise RuntimeError("the deep cursor was not honoured (the walk restarted)")
            for url in (first_url, deep_url):
                _warm(wrk_path, url, eight, service.auth)
            for _ in range(args.rounds):  # interleaved, so drift hits both alike
                for url, results in ((first_url, scale.first), (deep_url, scale.deep)):
                    result = wrk.run(wrk_path, url, eight, headers=service.auth)
                    if not result.ok:
                        raise RuntimeError(f"deep page: {result.errors} errors")
                    results.append(result)
                print(
                    f"first page p50 {scale.first[-1].p50_ms:.2f} ms, page at {depth:,}: "
                    f"p50 {scale.deep[-1].p50_ms:.2f} ms",
                    flush=True,
                )
        phone, phone_index = seed.search_phone(count)
        scale.queries = dict(
            zip(SEARCH_NAMES, (seed.SEARCH_NONE, seed.SEARCH_MANY, phone), strict=True)
        )
        urls = {name: f"{first_url}&q={quote(q)}" for name, q in scale.queries.items()}
        if parts & {"search", "stall"}:
            _check_searches(urls, service.pii_auth, phone)
        if "search" in parts:
            for url in (first_url, *urls.values()):
                _warm(wrk_path, url, one, service.pii_auth)
            for _ in range(args.rounds):
                scale.search_first.append(_one(wrk_path, first_url, one, service.pii_auth))
                for name, url in urls.items():
                    result = _one(wrk_path, url, one, service.pii_auth)
                    scale.search.setdefault(name, []).append(result)
                    print(
                        f"search {name:24} p50 {result.p50_ms:9.2f} ms "
                        f"(first page {scale.search_first[-1].p50_ms:.2f} ms)",
                        flush=True,
                    )
        if "stall" in parts:
            ping_url = server.base_url + "/v1/ping"
            _warm(wrk_path, ping_url, one, service.auth)
            for _ in range(args.rounds):
                scale.idle.append(_one(wrk_path, ping_url, one, service.auth))
                background = wrk.start(
                    wrk_path,
                    urls[SEARCH_NAMES[0]],
                    one,
                    headers=service.pii_auth,
                    duration=settings.duration + 2,
                )
                try:
                    time.sleep(0.5)
                    loaded = wrk.run(wrk_path, ping_url, one, headers=service.auth)
                    if loaded.requests == 0:  # no answer at all: p99 is at least the run
                        waited = settings.duration * 1000
                        loaded = wrk.Result(0.0, waited, waited, 0, loaded.errors)
                    scale.loaded.append(loaded)
                finally:
                    scale.load.append(wrk.finish(background, timeout=settings.duration + 90))
                # The last search wrk sent may still be running: the next idle round
                # starts once a ping is answered again.
                check(httpx.get(ping_url, headers=service.auth, timeout=120), 200)
                time.sleep(1.0)
                print(
                    f"ping p99 idle {scale.idle[-1].p99_ms:.2f} ms, beside a searching "
                    f"client {scale.loaded[-1].p99_ms:.2f} ms "
                    f"({scale.load[-1].requests} searches)",
                    flush=True,
                )
    return scale


def _stamp(value: object) -> str:
    """A stored updated_at (SQLite: naive UTC text; PostgreSQL: an aware datetime) as the
    RFC 3339 text updated_after takes, to the microsecond."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _sync(
    scale: Scale,
    service,
    backend: Backend,
    base: str,
    wrk_path: str,
    eight: wrk.WrkSettings,
    rounds: int,
) -> None:
    """updated_after and events pages 90% of the way along their walks, against the plain
    first page, interleaved (wrk -c8)."""
    url, workspace = service.database_url, service.workspace_id
    depth = scale.contacts * 9 // 10
    walk = "FROM contacts WHERE workspace_id = ? ORDER BY updated_at, id LIMIT 1 OFFSET ?"
    since = _stamp(backend.fetch_value(url, "SELECT updated_at " + walk, workspace, depth - 1))
    expected_contact = backend.fetch_value(url, "SELECT id " + walk, workspace, depth)
    events = "FROM outbox_events WHERE workspace_id = ? ORDER BY occurred_at, id LIMIT 1 OFFSET ?"
    after = backend.fetch_value(url, "SELECT id " + events, workspace, depth - 1)
    expected_event = backend.fetch_value(url, "SELECT id " + events, workspace, depth)
    first_event = backend.fetch_value(url, "SELECT id " + events, workspace, 0)
    first_url = base + "/v1/contacts?limit=50"
    urls = dict(
        zip(
            SYNC_NAMES,
            (
                f"{first_url}&updated_after={quote(since)}",
                base + "/v1/events?limit=50",
                base + f"/v1/events?limit=50&after={after}",
            ),
            strict=True,
        )
    )
    changed, first_events, later = (
        check(httpx.get(u, headers=service.auth, timeout=60), 200) for u in urls.values()
    )
    if changed["data"][0]["id"] != expected_contact or len(changed["data"]) != 50:
        raise RuntimeError("the updated_after page did not start 90% along the walk")
    if first_events["data"][0]["data"]["event_id"] != first_event or not first_events["has_more"]:
        raise RuntimeError("the events page did not start at the first event")
    if later["data"][0]["data"]["event_id"] != expected_event or len(later["data"]) != 50:
        raise RuntimeError("the events page after= did not start 90% along the walk")
    for each in (first_url, *urls.values()):
        _warm(wrk_path, each, eight, service.auth)
    for _ in range(rounds):
        scale.sync_first.append(_one(wrk_path, first_url, eight, service.auth))
        for name, each in urls.items():
            scale.sync.setdefault(name, []).append(_one(wrk_path, each, eight, service.auth))
        print(
            f"sync: first page p50 {scale.sync_first[-1].p50_ms:.2f} ms; "
            + "; ".join(f"{name} {got[-1].p50_ms:.2f} ms" for name, got in scale.sync.items()),
            flush=True,
        )


def _one(wrk_path: str, url: str, settings: wrk.WrkSettings, headers: dict) -> wrk.Result:
    result = wrk.run(wrk_path, url, settings, headers=headers)
    if not result.ok:
        raise RuntimeError(f"{url}: {result.errors} errors in {result.requests} requests")
    return result


def _check_searches(urls: dict[str, str], headers: dict, phone: str) -> None:
    none, many, digits = (
        check(httpx.get(url, headers=headers, timeout=120), 200) for url in urls.values()
    )
    if none["data"]:
        raise RuntimeError("the no-match search found contacts")
    if len(many["data"]) != 50 or not all(
        "ann" in (c["first_name"] or "").lower() for c in many["data"]
    ):
        raise RuntimeError("the many-match search did not return a full page of Joannes")
    if len(digits["data"]) != 1 or phone not in digits["data"][0]["phone"].replace(" ", ""):
        raise RuntimeError(f"the phone-digits search did not find its one contact: {digits}")


def report(scale: Scale, settings: wrk.WrkSettings) -> tuple[list[str], dict]:
    lines: list[str] = []
    figures: dict = {"contacts": scale.contacts, "seed_seconds": scale.seed_seconds}
    if scale.first:
        first_p50, deep_p50 = median(scale.first, "p50_ms"), median(scale.deep, "p50_ms")
        ratio = scale.deep_ratio
        lines += [
            f"Deep page ({scale.contacts:,} contacts in one workspace, seeded in "
            f"{scale.seed_seconds:.0f} s; wrk -c{min(8, settings.connections)}):",
            "",
            "| GET /v1/contacts?limit=50 | req/s | p50 ms | p99 ms |",
            "|---|---:|---:|---:|",
            f"| first page | {median(scale.first, 'requests_per_second'):,.0f} | "
            f"{first_p50:.2f} | {median(scale.first, 'p99_ms'):.2f} |",
            f"| after {scale.depth:,} contacts | "
            f"{median(scale.deep, 'requests_per_second'):,.0f} | {deep_p50:.2f} | "
            f"{median(scale.deep, 'p99_ms'):.2f} |",
            "",
            f"Deep/first p50 latency: **{ratio:.2f}** (target ≤ {DEEP_TARGET}: "
            f"{'met' if ratio <= DEEP_TARGET else 'MISSED'}).",
            "",
        ]
        figures["deep_page"] = {
            "depth": scale.depth,
            "first_p50_ms": first_p50,
            "deep_p50_ms": deep_p50,
            "ratio": ratio,
        }
    if scale.search:
        first_p50 = median(scale.search_first, "p50_ms")
        lines += [
            f"Search at {scale.contacts:,} contacts (GET /v1/contacts?limit=50&q=..., one "
            "client, wrk -c1; a key with contacts:read:pii, so email and phone match by "
            "substring):",
            "",
            "| query | q | req/s | p50 ms | p99 ms | p50 / first page | target |",
            "|---|---|---:|---:|---:|---:|---|",
            f"| unfiltered first page | | "
            f"{median(scale.search_first, 'requests_per_second'):,.1f} | {first_p50:.2f} | "
            f"{median(scale.search_first, 'p99_ms'):.2f} | 1.00 | |",
        ]
        figures["search"] = {"first_page_p50_ms": first_p50}
        for name, results in scale.search.items():
            ratio = scale.search_ratio(name)
            verdict = "met" if ratio <= SEARCH_TARGET else "MISSED"
            lines.append(
                f"| {name} | `{scale.queries[name]}` | "
                f"{median(results, 'requests_per_second'):,.1f} | "
                f"{median(results, 'p50_ms'):.2f} | {median(results, 'p99_ms'):.2f} | "
                f"{ratio:.2f} | ≤ {SEARCH_TARGET:g} {verdict} |"
            )
            figures["search"][name] = {
                "q": scale.queries[name],
                "p50_ms": median(results, "p50_ms"),
                "ratio": ratio,
            }
        lines.append("")
    if scale.idle:
        ratio = scale.stall_ratio
        lines += [
            f"Stall ({scale.contacts:,} contacts): GET /v1/ping with one client (wrk -c1), "
            "idle and while one other client runs the no-match search without pause on "
            "the same process:",
            "",
            "| GET /v1/ping | req/s | p50 ms | p99 ms |",
            "|---|---:|---:|---:|",
            f"| idle | {median(scale.idle, 'requests_per_second'):,.0f} | "
            f"{median(scale.idle, 'p50_ms'):.2f} | {median(scale.idle, 'p99_ms'):.2f} |",
            f"| beside the searching client | "
            f"{median(scale.loaded, 'requests_per_second'):,.0f} | "
            f"{median(scale.loaded, 'p50_ms'):.2f} | {median(scale.loaded, 'p99_ms'):.2f} |",
            "",
            f"Loaded/idle ping p99: **{ratio:.2f}** (target ≤ {STALL_TARGET:g}: "
            f"{'met' if ratio <= STALL_TARGET else 'MISSED'}); a run in which ping got no "
            "answer at all counts its whole duration as p99 (a lower bound); the searching "
            "client made "
            f"{statistics.median(r.requests for r in scale.load):,.0f} searches a run.",
            "",
        ]
        figures["stall"] = {
            "idle_p99_ms": median(scale.idle, "p99_ms"),
            "loaded_p99_ms": median(scale.loaded, "p99_ms"),
            "ratio": ratio,
        }
    return lines, figures


def report_bulk(scale: Scale, settings: wrk.WrkSettings) -> tuple[list[str], dict]:
    """The sync and export figures (the generated block of the bulk parts)."""
    lines: list[str] = []
    figures: dict = {"contacts": scale.contacts}
    if scale.sync_first:
        first_p50 = median(scale.sync_first, "p50_ms")
        lines += [
            f"Sync at {scale.contacts:,} contacts and {scale.contacts:,} stored events "
            f"(seeded in {scale.seed_seconds:.0f} s and {scale.events_seed_seconds:.0f} s, "
            "every stamp older than the settle interval; wrk "
            f"-c{min(8, settings.connections)}, interleaved; limit=50; the key reads "
            "contact events, so GET /v1/events merges one index range per readable type):",
            "",
            "| GET | req/s | p50 ms | p99 ms | p50 / first page | target |",
            "|---|---:|---:|---:|---:|---|",
            f"| /v1/contacts, first page | "
            f"{median(scale.sync_first, 'requests_per_second'):,.0f} | {first_p50:.2f} | "
            f"{median(scale.sync_first, 'p99_ms'):.2f} | 1.00 | |",
        ]
        figures["sync"] = {"first_page_p50_ms": [r.p50_ms for r in scale.sync_first]}
        for name, results in scale.sync.items():
            ratio = scale.sync_ratio(name)
            per_round = [
                r.p50_ms / f.p50_ms for r, f in zip(results, scale.sync_first, strict=True)
            ]
            spread = f" [{min(per_round):.2f}-{max(per_round):.2f}]" if len(per_round) > 1 else ""
            lines.append(
                f"| {name} | {median(results, 'requests_per_second'):,.0f} | "
                f"{median(results, 'p50_ms'):.2f} | {median(results, 'p99_ms'):.2f} | "
                f"{ratio:.2f}{spread} | ≤ {SYNC_TARGET:g} "
                f"{'met' if ratio <= SYNC_TARGET else 'MISSED'} |"
            )
            figures["sync"][name] = {
                "p50_ms": [r.p50_ms for r in results],
                "ratio": ratio,
                "rounds": per_round,
            }
        lines += [
            "",
            "(p50 / first page: the ratio of the medians; in brackets, the rounds' own ratios.)",
            "",
        ]
    if scale.exports:
        lines += [
            f"Export of {scale.contacts:,} contacts (POST /v1/exports, NDJSON, masked, every "
            "member; a separate `homebase worker` on the same database and machine; rows/s "
            "from `started_at` to `finished_at`; the worker's RSS sampled every 200 ms):",
            "",
            "| run | rows/s | worker s | wall s | file MB | RSS before | peak | growth | targets |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for index, run in enumerate(scale.exports, 1):
            rate_ok = run["rows_per_second"] >= EXPORT_RATE_TARGET
            flat = run["growth_mb"] < EXPORT_MEMORY_TARGET_MB
            lines.append(
                f"| {index} | **{run['rows_per_second']:,.0f}** | {run['worker_seconds']:.1f} | "
                f"{run['wall_seconds']:.1f} | {run['file_mb']:.0f} | {run['before_mb']:.0f} MB"
                f" | {run['peak_mb']:.0f} MB | **{run['growth_mb']:.0f} MB** | "
                f"≥ {EXPORT_RATE_TARGET:,.0f} rows/s {'met' if rate_ok else 'MISSED'}; flat "
                f"(< {EXPORT_MEMORY_TARGET_MB:g} MB) {'met' if flat else 'MISSED'} |"
            )
        lines.append("")
        figures["exports"] = scale.exports
    return lines, figures
