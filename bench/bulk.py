"""Bulk imports (`--only bulk`): POST /v1/imports against POST /v1/contacts.

One workspace (`--contacts` contacts seeded, as the throughput part's), served as each
database is deployed: SQLite, `homebase serve` with its in-process worker (woken
in-process, as on one host); PostgreSQL + Redis, `homebase serve --no-worker` and a
separate `homebase worker` (woken by LISTEN/NOTIFY) on the same machine. Every import is
5,000 contacts rows, each a new contact (its own email and phone), made from the body
POST /v1/contacts is timed with.

- Throughput: in each round, POST /v1/contacts under wrk -c32 (the throughput part's
  figure), then, once the worker has fanned out the creates' events (settle_worker), one
  import, POST /v1/imports to `completed` seen by polling GET /v1/imports/{id} every
  50 ms: its rows per second (wall clock, the client's view, so the request, the queue
  and the polls count) over the creates' requests per second of the same round. Target:
  at least 5.
- CSV: in each round, after that import, 5,000 rows as a Follow Up Boss export holds
  them (CRM_ROW: notes, tags, two custom fields), once as a JSON import and once as a
  CSV file (UTF-8 with a byte order mark, every cell quoted, notes holding newlines, two
  tags a cell, columns named by the custom fields' labels) through the console's upload
  (the one way a file comes in: POST /console/imports/new as a member signed in, the
  mapping page's pre-selections submitted as they stand), the two in turn first; each
  row a new contact, alike but for its name, email and phone. The CSV's dry run, from the same
  upload, to its completed report; then its start to `completed`, both counted from the
  upload. Targets: the CSV import within 1.1x the JSON import's time, its dry run under
  10 s. Those rows as JSON are about 1.3 MB, so the part's HOMEBASE_MAX_BODY_BYTES is
  4 MiB (docs/imports-exports.md: "a larger file is several imports or a larger limit").
- Memory: 100,000 contacts through 20 imports queued at once; the RSS of the process
  that runs them (its /proc/<pid>/status VmRSS, children included), sampled every
  100 ms, before, at its peak and after. Target: less than 100 MB of growth.
- Stall: GET /v1/ping with one client (wrk -c1), p99, idle (the worker done with the
  last imports' events too) against while the worker imports without pause (enough
  5,000-row imports queued to outlast the run, checked). Target: loaded within 2x of
  idle.

On PostgreSQL the tables grow several times over during the part (the creates, then
the imports), and autovacuum is off on the development machine: before each timed step
the part runs VACUUM ANALYZE on them, and every 15 s while many imports run, as
autovacuum would have. Without it the planner
read the trigram GIN index's statistics of the seeded table (only VACUUM refreshes a GIN
index's) and took that index for the import's `email_lower IN (...)` lookup of 250
addresses: 1.6 s a lookup instead of a millisecond (docs/performance.md, "Bulk
imports").
"""

import csv
import io
import json
import math
import re
import secrets
import statistics
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from html import unescape
from pathlib import Path
from typing import Any

import httpx

from bench import wrk
from bench.backends import Backend
from bench.scale import check, median
from bench.servers import Server, Service, prepare_service

IMPORT_ROWS = 5000
THROUGHPUT_TARGET = 5.0
MEMORY_IMPORTS = 20
MEMORY_TARGET_MB = 100.0
STALL_TARGET = 2.0
PHONE_BASE = 2_000_000  # import row n has +1 628 <PHONE_BASE + n as 3 + 4 digits>
POLL_SECONDS = 0.05
CSV_TARGET = 1.1  # the CSV import's seconds over the JSON import's, at most
DRY_RUN_TARGET = 10.0  # seconds, upload to the dry run's report
CUSTOM_FIELDS = (
    {"object": "contacts", "key": "price_max", "label": "Price Max", "type": "number"},
    {"object": "contacts", "key": "pre_approved", "label": "Pre-Approved", "type": "boolean"},
)
# A Follow Up Boss-style row: the JSON import's row, and its CSV cells under these headers.
CRM_ROW = {
    "first_name": "Dana",
    "stage": "HOT_LEAD",
    "source": "Zillow",
    "tags": ["buyer", "vip"],
    "notes": "Met at the open house.\nWants a yard, pre-approved.",
    "custom_fields": {"price_max": 650000, "pre_approved": True},
}
CRM_HEADER = ["First Name", "Last Name", "Email 1", "Phone 1", "Stage", "Source", "Tags"]
CRM_HEADER += ["Background", "Price Max", "Pre-Approved"]


def rss_mb(pid: int) -> float:
    """VmRSS of the process and its descendants, in MB (10^6 bytes)."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    break
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total / 1e6


class Sampler:
    """RSS of one process every `every` seconds on a thread, until stopped."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid, self.every = pid, every
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(rss_mb(self.pid))
            self._stop.wait(self.every)

    def __enter__(self) -> "Sampler":
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(rss_mb(self.pid))


class Periodic:
    """`work` on a thread every `every` seconds while the block runs (VACUUM ANALYZE in
    place of the autovacuum the development machine runs without)."""

    def __init__(self, work, every: float = 15.0) -> None:
        self.work, self.every = work, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.work()

    def __enter__(self) -> "Periodic":
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()


class Rows:
    """Import rows of new contacts: row n has its own email and phone."""

    def __init__(self, contact_body: dict) -> None:
        self.contact_body, self.next = contact_body, 0

    def rows(self, base: dict, count: int) -> list[dict]:
        rows = []
        for n in range(self.next, self.next + count):
            number = f"{PHONE_BASE + n:07d}"
            rows.append(
                {
                    **base,
                    "last_name": f"Reyes{n}",
                    "email": f"import{n}@example.com",
                    "phone": f"+1 628 {number[:3]} {number[3:]}",
                }
            )
        self.next += count
        return rows

    def body(self, count: int = IMPORT_ROWS, base: dict | None = None) -> bytes:
        rows = self.rows(self.contact_body if base is None else base, count)
        return json.dumps({"object": "contacts", "rows": rows}, separators=(",", ":")).encode()

    def crm_csv(self, count: int = IMPORT_ROWS) -> bytes:
        """CRM_ROW's rows as a Follow Up Boss export writes them."""
        out = io.StringIO()
        writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        writer.writerow(CRM_HEADER)
        for row in self.rows(CRM_ROW, count):
            custom = row["custom_fields"]
            writer.writerow(
                [row["first_name"], row["last_name"], row["email"], row["phone"]]
                + [row["stage"].replace("_", " ").title(), row["source"], ", ".join(row["tags"])]
                + [row["notes"]]
                + [str(custom["price_max"]), "Yes" if custom["pre_approved"] else "No"]
            )
        return out.getvalue().encode("utf-8-sig")


class Console:
    """A member signed in to the console, uploading a CSV file as a browser does."""

    def __init__(self, service: Service, base: str) -> None:
        email, password = "bench.agent@example.com", secrets.token_urlsafe(18)
        service.admin(
            "create-user", "--workspace", service.workspace_id, "--email", email,
            "--name", "Bench Agent", "--password", password,
        )  # fmt: skip
        self.client = httpx.Client(base_url=base, timeout=120)
        token = _csrf(self.client.get("/console/login").text)
        data = {"csrf_token": token, "email": email, "password": password, "next": "/console"}
        _moved(self.client.post("/console/login", data=data))

    def upload(self, data: bytes) -> str:
        """The mapping page of the uploaded file."""
        token = _csrf(self.client.get("/console/imports/new").text)
        answer = self.client.post(
            "/console/imports/new",
            data={"csrf_token": token, "object": "contacts"},
            files={"file": ("bench.csv", data, "text/csv")},
        )
        page = self.client.get(_moved(answer))
        if page.status_code != 200:
            raise RuntimeError(f"{page.request.url} gave {page.status_code}")
        return page.text

    def submit(self, page: str, action: str) -> str:
        """The mapping form as the page fills it, submitted with `action`; where it leads."""
        found = re.search(
            r'<form method="post" action="(/console/imports/uploads/[^"]+)">(.*?)</form>',
            page,
            re.S,
        )
        target, form = found.groups()
        values: dict[str, list[str]] = {"action": [action]}
        for attributes in re.findall(r"<input ([^>]*)>", form):
            named = dict(re.findall(r'(\w+)="([^"]*)"', attributes))
            if named.get("type") == "hidden" or attributes.endswith(" checked"):
                values.setdefault(named["name"], []).append(unescape(named["value"]))
        for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
            chosen = re.search(r'<option value="([^"]*)" selected>', options)
            values[name] = [unescape(chosen.group(1) if chosen else "")]
        return _moved(self.client.post(unescape(target), data=values))


def _csrf(page: str) -> str:
    return unescape(re.search(r'name="csrf_token" value="([^"]*)"', page).group(1))


def _moved(answer: httpx.Response) -> str:
    if answer.status_code != 303:
        alerts = re.findall(r'role="alert">(.*?)<', answer.text)
        raise RuntimeError(f"{answer.request.url} gave {answer.status_code}: {alerts}")
    return answer.headers["location"]


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


FANNED_OUT = re.compile(r'^homebase_worker_job_items_total\{job="webhooks\.fan_out"\} (\S+)$', re.M)


def settle_worker(metrics_url: str, quiet: float = 1.0, timeout: float = 300.0) -> None:
    """Until the worker has fanned out what earlier steps left it (the creates' events,
    the last imports'): its fan-out count (/metrics) unchanged for `quiet` seconds. A step
    timed after this starts with an idle worker, not one catching up meanwhile."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        found = FANNED_OUT.search(httpx.get(metrics_url, timeout=30).text)
        count = found.group(1) if found else None
        if count != last:
            last, since = count, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        time.sleep(0.2)
    raise RuntimeError(f"the worker was still fanning events out after {timeout:g} s")


def _submit(client: httpx.Client, body: bytes) -> dict:
    return check(client.post("/v1/imports", content=body), 202)


def _wait(client: httpx.Client, job_id: str, timeout: float = 900.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        job = check(client.get(f"/v1/imports/{job_id}"), 200)
        if job["status"] in ("completed", "failed"):
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"import {job_id} still {job['status']} after {timeout:g} s")
        time.sleep(POLL_SECONDS)
    if job["status"] != "completed" or job["counts"]["created"] != job["counts"]["rows"]:
        raise RuntimeError(f"import {job_id} did not create every row: {job}")
    return job


def worker_seconds(job: dict) -> float:
    return (_moment(job["finished_at"]) - _moment(job["started_at"])).total_seconds()


def one_import(client: httpx.Client, body: bytes) -> dict:
    """One import from POST to `completed`: wall-clock and worker seconds."""
    started = time.monotonic()
    job = _wait(client, _submit(client, body)["id"])
    wall = time.monotonic() - started
    return {
        "rows": job["counts"]["rows"],
        "wall_seconds": wall,
        "worker_seconds": worker_seconds(job),
        "queued_seconds": (_moment(job["started_at"]) - _moment(job["created_at"])).total_seconds(),
    }


def csv_import(console: Console, client: httpx.Client, data: bytes) -> tuple[float, float]:
    """A CSV file uploaded, dry-run, then started: seconds from the upload to the dry run's
    completed report, and to the import's `completed`."""
    started = time.monotonic()
    page = console.upload(data)
    uploaded = time.monotonic() - started
    started = time.monotonic()
    dry = _wait(client, console.submit(page, "dry_run").rsplit("/", 1)[-1])
    dry_run = uploaded + time.monotonic() - started
    started = time.monotonic()
    console.submit(page, "start")
    newest = check(client.get("/v1/imports", params={"limit": 1}), 200)["data"][0]
    job = _wait(client, newest["id"])
    wall = uploaded + time.monotonic() - started
    for found in (dry, job):  # every cell read as the JSON row has it
        if found["counts"]["warnings"] or found["dry_run"] != (found is dry):
            raise RuntimeError(f"the CSV import is not the JSON one's rows: {found}")
    return dry_run, wall


def _check_csv_row(client: httpx.Client) -> None:
    """The newest contact, a CSV row's, holds what the JSON row does."""
    newest = check(client.get("/v1/contacts", params={"limit": 1}), 200)["data"][0]
    contact = check(client.get(f"/v1/contacts/{newest['id']}"), 200)
    wrong = {key: contact.get(key) for key, value in CRM_ROW.items() if contact.get(key) != value}
    if wrong:
        raise RuntimeError(f"a CSV row was read otherwise than the JSON one: {wrong}")


def _csv_round(
    console: Console, client: httpx.Client, rows: Rows, vacuum, csv_first: bool
) -> dict[str, float]:
    """The same rows, new contacts each, as a JSON import and as a CSV file."""
    body, data = rows.body(base=CRM_ROW), rows.crm_csv()
    result: dict[str, float] = {}
    for step in ("csv", "json") if csv_first else ("json", "csv"):
        vacuum()
        if step == "json":
            result["json_seconds"] = one_import(client, body)["wall_seconds"]
        else:
            result["dry_run_seconds"], result["csv_seconds"] = csv_import(console, client, data)
    return result


@dataclass
class Bulk:
    topology: str
    contacts: int
    body_bytes: int = 0
    create: list[wrk.Result] = field(default_factory=list)
    imports: list[dict] = field(default_factory=list)
    memory: dict = field(default_factory=dict)
    idle: list[wrk.Result] = field(default_factory=list)
    loaded: list[wrk.Result] = field(default_factory=list)
    loaded_imports: list[int] = field(default_factory=list)
    busy_after: list[float] = field(default_factory=list)  # import time left when wrk ended
    csv: list[dict[str, float]] = field(default_factory=list)  # _csv_round's, by round

    def ratios(self) -> list[float]:
        return [
            job["rows"] / job["wall_seconds"] / create.requests_per_second
            for job, create in zip(self.imports, self.create, strict=True)
        ]

    @property
    def stall_ratio(self) -> float:
        return median(self.loaded, "p99_ms") / median(self.idle, "p99_ms")


def measure(
    args,
    workdir: Path,
    settings: wrk.WrkSettings,
    wrk_path: str,
    backend: Backend,
    secret: str,
    contact_body: dict,
) -> Bulk:
    service = prepare_service(workdir / "bulk", secret, backend)
    service.env["HOMEBASE_MAX_BODY_BYTES"] = str(4 * 1024 * 1024)  # the CSV's rows as JSON
    seconds = backend.seed(service.database_url, service.workspace_id, args.contacts)
    print(f"bulk: seeded {args.contacts:,} contacts in {seconds:.1f} s", flush=True)
    servers: list[Server] = [service.server(worker=not backend.postgres)]
    if backend.postgres:
        servers.append(service.worker())
    bulk = Bulk(
        topology="`homebase serve --no-worker` and a separate `homebase worker` on the same "
        "machine (LISTEN/NOTIFY)"
        if backend.postgres
        else "`homebase serve` with its in-process worker (the same process serves ping)",
        contacts=args.contacts,
    )
    rows = Rows(contact_body)
    tables = ("contacts", "outbox_events", "imports")

    def vacuum() -> None:
        backend.vacuum(service.database_url, *tables)

    post_headers = {**service.auth, "Content-Type": "application/json"}
    create_script = wrk.lua_post(json.dumps(contact_body), post_headers)
    one = wrk.WrkSettings(threads=1, connections=1, duration=settings.duration, timeout=30.0)
    try:
        for server in servers:
            server.start()
        base = servers[0].base_url
        runner = servers[-1].process
        assert runner is not None
        metrics_url = servers[-1].base_url + "/metrics"  # the worker's process
        with httpx.Client(base_url=base, headers=post_headers, timeout=120) as client:
            bulk.memory["start_mb"] = rss_mb(runner.pid)
            warm = rows.body()
            bulk.body_bytes = len(warm)
            one_import(client, warm)  # warm-up: imports, caches, the worker's first claim
            for definition in CUSTOM_FIELDS:
                check(client.post("/v1/custom-fields", json=definition), 201)
            console = Console(service, base)
            one_import(client, rows.body(100, CRM_ROW))
            csv_import(console, client, rows.crm_csv(100))
            _check_csv_row(client)
            create_url = base + "/v1/contacts"
            wrk.run(wrk_path, create_url, settings, script=create_script, duration=2.0)
            for round_number in range(args.rounds):
                result = wrk.run(wrk_path, create_url, settings, script=create_script)
                if not result.ok:
                    raise RuntimeError(f"POST /v1/contacts: {result.errors} errors")
                bulk.create.append(result)
                settle_worker(metrics_url)
                vacuum()
                job = one_import(client, rows.body())
                bulk.imports.append(job)
                print(
                    f"bulk round {round_number + 1}: POST /v1/contacts "
                    f"{result.requests_per_second:.0f} req/s; import of {job['rows']:,} rows "
                    f"{job['wall_seconds']:.2f} s ({job['rows'] / job['wall_seconds']:,.0f} "
                    f"rows/s; worker {job['worker_seconds']:.2f} s, queued "
                    f"{job['queued_seconds']:.2f} s)",
                    flush=True,
                )
                bulk.csv.append(_csv_round(console, client, rows, vacuum, round_number % 2 == 1))
                print(
                    "bulk round {}: the same {:,} rows as JSON {json_seconds:.2f} s, as CSV "
                    "{csv_seconds:.2f} s; the CSV's dry run {dry_run_seconds:.2f} s".format(
                        round_number + 1, IMPORT_ROWS, **bulk.csv[-1]
                    ),
                    flush=True,
                )
            console.client.close()
            imports = 4 if args.quick else MEMORY_IMPORTS
            vacuum()
            with Periodic(vacuum):
                bulk.memory.update(_memory(client, rows, runner.pid, imports))
            print(
                f"bulk memory: {imports} imports, RSS {bulk.memory['before_mb']:.0f} MB "
                f"before, peak {bulk.memory['peak_mb']:.0f} MB, after "
                f"{bulk.memory['after_mb']:.0f} MB",
                flush=True,
            )
            per_second = max(
                statistics.median(j["rows"] / j["worker_seconds"] for j in bulk.imports),
                bulk.memory["rows"] / bulk.memory["worker_seconds"],
            )
            _stall(
                bulk,
                client,
                rows,
                wrk_path,
                (base, metrics_url),
                one,
                service.auth,
                per_second,
                vacuum,
            )
    finally:
        for server in reversed(servers):
            server.stop()
        create_script.unlink(missing_ok=True)
    return bulk


def _memory(client: httpx.Client, rows: Rows, pid: int, imports: int) -> dict:
    before = rss_mb(pid)
    started = time.monotonic()
    with Sampler(pid) as sampler:
        ids = [_submit(client, rows.body())["id"] for _ in range(imports)]
        jobs = [_wait(client, job_id) for job_id in ids]
    wall = time.monotonic() - started
    worker = (_moment(jobs[-1]["finished_at"]) - _moment(jobs[0]["started_at"])).total_seconds()
    total = sum(job["counts"]["rows"] for job in jobs)
    return {
        "imports": len(jobs),
        "rows": total,
        "before_mb": before,
        "peak_mb": max(sampler.samples),
        "after_mb": sampler.samples[-1],
        "growth_mb": max(sampler.samples) - before,
        "wall_seconds": wall,
        "worker_seconds": worker,
    }


def _stall(
    bulk: Bulk,
    client: httpx.Client,
    rows: Rows,
    wrk_path: str,
    urls: tuple[str, str],
    one: wrk.WrkSettings,
    auth: dict,
    per_second: float,
    vacuum,
) -> None:
    base, metrics_url = urls
    ping_url = base + "/v1/ping"
    wrk.run(wrk_path, ping_url, one, headers=auth, duration=2.0)
    # Enough imports to keep the worker busy past the end of the loaded run, at twice the
    # fastest rate seen so far (checked after the run).
    count = min(40, math.ceil(2 * (one.duration + 3) * per_second / IMPORT_ROWS) + 1)
    for _ in range(len(bulk.imports)):
        settle_worker(metrics_url)  # idle: nothing left to fan out from the last imports
        vacuum()
        bulk.idle.append(wrk.run(wrk_path, ping_url, one, headers=auth))
        with Periodic(vacuum):
            ids = _loaded_run(bulk, client, rows, wrk_path, ping_url, one, auth, count)
        for job_id in ids[:-1]:
            _wait(client, job_id)
        time.sleep(1.0)
        print(
            f"bulk ping p99 idle {bulk.idle[-1].p99_ms:.2f} ms, while importing "
            f"{bulk.loaded[-1].p99_ms:.2f} ms ({count} imports queued; the worker went on "
            f"{bulk.busy_after[-1]:.1f} s after the run)",
            flush=True,
        )


def _loaded_run(
    bulk: Bulk,
    client: httpx.Client,
    rows: Rows,
    wrk_path: str,
    ping_url: str,
    one: wrk.WrkSettings,
    auth: dict,
    count: int,
) -> list[str]:
    """Ping while `count` queued imports run; returns their ids."""
    ids = [_submit(client, rows.body())["id"] for _ in range(count)]
    while check(client.get(f"/v1/imports/{ids[0]}"), 200)["status"] == "queued":
        time.sleep(POLL_SECONDS)
    loaded = wrk.run(wrk_path, ping_url, one, headers=auth)
    ended = time.monotonic()
    last = check(client.get(f"/v1/imports/{ids[-1]}"), 200)
    _wait(client, ids[-1])
    # Negative: the worker ran out of imports before the run ended (reported).
    bulk.busy_after.append(-1.0 if last["status"] == "completed" else time.monotonic() - ended)
    bulk.loaded.append(loaded)
    bulk.loaded_imports.append(count)
    return ids


def _range(values: list[float], form: str = ".2f") -> str:
    if len(values) < 2:
        return ""
    return f" [{min(values):{form}}-{max(values):{form}}]"


def report(bulk: Bulk, settings: wrk.WrkSettings) -> tuple[list[str], dict[str, Any]]:
    ratios = bulk.ratios()
    ratio = statistics.median(ratios)
    wall = [j["rows"] / j["wall_seconds"] for j in bulk.imports]
    worker = [j["rows"] / j["worker_seconds"] for j in bulk.imports]
    creates = [r.requests_per_second for r in bulk.create]
    memory = bulk.memory
    lines = [
        f"Bulk import ({bulk.contacts:,} contacts seeded; {bulk.topology}; each import "
        f"{IMPORT_ROWS:,} new contacts, a body of {bulk.body_bytes / 1e6:.2f} MB; rows/s "
        "from POST /v1/imports to `completed` seen by polling every 50 ms, and the worker's "
        "own from `started_at` to `finished_at`; range over the rounds in brackets):",
        "",
        "| figure | median | range |",
        "|---|---:|---|",
        f"| POST /v1/contacts req/s (wrk -c{settings.connections}) | "
        f"{statistics.median(creates):,.0f} |{_range(creates, ',.0f')} |",
        f"| import rows/s, POST to completed | {statistics.median(wall):,.0f} |"
        f"{_range(wall, ',.0f')} |",
        f"| import rows/s, worker (started to finished) | {statistics.median(worker):,.0f} |"
        f"{_range(worker, ',.0f')} |",
        f"| import queued (created to started), s | "
        f"{statistics.median(j['queued_seconds'] for j in bulk.imports):.2f} | |",
        "",
        f"Import rows/s over POST /v1/contacts req/s: **{ratio:.1f}**{_range(ratios, '.1f')} "
        f"(target ≥ {THROUGHPUT_TARGET:g}: {'met' if ratio >= THROUGHPUT_TARGET else 'MISSED'}).",
        "",
        f"Memory: {memory['rows']:,} contacts through {memory['imports']} imports queued at "
        f"once ({memory['worker_seconds']:.0f} s of importing, "
        f"{memory['rows'] / memory['worker_seconds']:,.0f} rows/s); RSS of the process "
        "running them, sampled every 100 ms:",
        "",
        "| at the process's start | before | peak | after | growth (peak - before) | target |",
        "|---:|---:|---:|---:|---:|---|",
        f"| {memory['start_mb']:.0f} MB | {memory['before_mb']:.0f} MB | "
        f"{memory['peak_mb']:.0f} MB | {memory['after_mb']:.0f} MB | "
        f"**{memory['growth_mb']:.0f} MB** | < {MEMORY_TARGET_MB:g} MB "
        f"{'met' if memory['growth_mb'] < MEMORY_TARGET_MB else 'MISSED'} |",
        "",
    ]
    csv_ratios = [r["csv_seconds"] / r["json_seconds"] for r in bulk.csv]
    csv_ratio = statistics.median(csv_ratios)
    dry_runs = [r["dry_run_seconds"] for r in bulk.csv]
    dry_run = statistics.median(dry_runs)
    lines += [
        f"CSV import: {IMPORT_ROWS:,} new contacts a file in a Follow Up Boss-style export "
        "(UTF-8 BOM, every cell quoted, notes holding newlines, two tags a cell, two custom "
        "fields' labels as headers) uploaded through the console's form, against the same "
        "rows as a JSON import in the same round; seconds to `completed` counted from the "
        "upload, the dry run's to its completed report:",
        "",
        "| figure | median | range |",
        "|---|---:|---|",
    ]
    for name, key in (
        ("JSON import of the same rows, s", "json_seconds"),
        ("CSV import, upload to completed, s", "csv_seconds"),
        ("CSV dry run, upload to its report, s", "dry_run_seconds"),
    ):
        values = [r[key] for r in bulk.csv]
        lines.append(f"| {name} | {statistics.median(values):.2f} |{_range(values)} |")
    lines += [
        "",
        f"CSV over JSON import time: **{csv_ratio:.2f}**{_range(csv_ratios)} (target ≤ "
        f"{CSV_TARGET:g}: {'met' if csv_ratio <= CSV_TARGET else 'MISSED'}); the CSV's dry "
        f"run: **{dry_run:.1f} s** (target < {DRY_RUN_TARGET:g} s: "
        f"{'met' if dry_run < DRY_RUN_TARGET else 'MISSED'}).",
        "",
    ]
    stall = bulk.stall_ratio
    idle_p99 = [r.p99_ms for r in bulk.idle]
    loaded_p99 = [r.p99_ms for r in bulk.loaded]
    lines += [
        "Ping while importing: GET /v1/ping with one client (wrk -c1), idle and while the "
        f"worker imports without pause ({statistics.median(bulk.loaded_imports):.0f} imports "
        "of 5,000 rows queued, the last finishing "
        f"{min(bulk.busy_after):.0f}-{max(bulk.busy_after):.0f} s after the run"
        + (
            "; -1: the worker ran out of imports before the run ended, so that run was partly idle"
            if min(bulk.busy_after) < 0
            else ""
        )
        + "):",
        "",
        "| GET /v1/ping | req/s | p50 ms | p99 ms |",
        "|---|---:|---:|---:|",
        f"| idle | {median(bulk.idle, 'requests_per_second'):,.0f} | "
        f"{median(bulk.idle, 'p50_ms'):.2f} | {median(bulk.idle, 'p99_ms'):.2f}"
        f"{_range(idle_p99)} |",
        f"| while importing | {median(bulk.loaded, 'requests_per_second'):,.0f} | "
        f"{median(bulk.loaded, 'p50_ms'):.2f} | {median(bulk.loaded, 'p99_ms'):.2f}"
        f"{_range(loaded_p99)} |",
        "",
        f"Importing/idle ping p99: **{stall:.2f}** (target ≤ {STALL_TARGET:g}: "
        f"{'met' if stall <= STALL_TARGET else 'MISSED'}).",
        "",
    ]
    figures = {
        "topology": bulk.topology,
        "create_rps": creates,
        "import_rows_per_second_wall": wall,
        "import_rows_per_second_worker": worker,
        "ratios": ratios,
        "ratio": ratio,
        "memory": memory,
        "ping_idle_p99_ms": idle_p99,
        "ping_importing_p99_ms": loaded_p99,
        "stall_ratio": stall,
        "csv": bulk.csv,
        "csv_ratios": csv_ratios,
        "csv_ratio": csv_ratio,
        "csv_dry_run_seconds": dry_run,
    }
    return lines, figures
