"""The console's People pages at scale (`--only console`): one workspace of
`--console-contacts` contacts (100,000 by default) seeded in bulk (bench/seed.py: COPY on
PostgreSQL, one executemany on SQLite), a note on every contact's timeline (one INSERT ...
SELECT), and PERSON_NOTES more on the measured person's through POST /v1/contacts/{id}/notes,
so its page shows a full timeline page and an Older link. A member signs in through the
console's own form; then one client (httpx, one connection, one request at a time) asks,
interleaved so drift hits all alike, for:

- GET /console/people (the first page of 50),
- GET /console/people?stage=HOT_LEAD (a filter),
- GET /console/people?q=ann (the search, one contact in ten matching: bench/seed.py),
- GET /console/people/{id} (a contact half way down the list, with its timeline),

WARMUP requests each first, then `REQUESTS` each, timed from the request's start to the
body's end; p50 and p99 are reported. Target: p50 under 50 ms for the People list and a
person's page on PostgreSQL (docs/performance.md)."""

import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.backends import Backend
from bench.scale import check
from bench.servers import prepare_service

EMAIL, PASSWORD = "manager@example.com", "a long bench manager password"
PERSON_NOTES = 120
WARMUP, REQUESTS = 20, 300
TARGET_P50_MS = 50.0
PAGES = ("people", "people, stage", "people, search", "person")
TARGETED = ("people", "person")


@dataclass
class Figures:
    contacts: int
    seed_seconds: float
    timeline_seconds: float
    samples: dict[str, list[float]] = field(default_factory=dict)  # milliseconds

    def p50(self, name: str) -> float:
        return statistics.median(self.samples[name])

    def p99(self, name: str) -> float:
        ordered = sorted(self.samples[name])
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _sign_in(client: httpx.Client) -> None:
    page = client.get("/console/login", params={"next": "/console/people"})
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    following = re.search(r'name="next" value="([^"]*)"', page.text)
    if page.status_code != 200 or token is None or following is None:
        raise RuntimeError(f"the sign-in page: {page.status_code}")
    answer = client.post(
        "/console/login",
        data={
            "email": EMAIL,
            "password": PASSWORD,
            "next": following.group(1),
            "csrf_token": token.group(1),
        },
    )
    if answer.status_code != 303 or "/console/login" in answer.headers.get("location", ""):
        raise RuntimeError(f"the console sign-in failed: {answer.status_code}")


def _timed(client: httpx.Client, url: str, expect: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200 or expect not in response.text:
        raise RuntimeError(f"GET {url}: {response.status_code} {response.text[:200]}")
    return elapsed


def measure(
    workdir: Path, backend: Backend, secret: str, count: int, requests: int = REQUESTS
) -> Figures:
    service = prepare_service(workdir / "console", secret, backend)
    service.admin(
        "create-user",
        "--workspace",
        service.workspace_id,
        "--email",
        EMAIL,
        "--name",
        "Bench Manager",
        "--password",
        PASSWORD,
    )
    seconds = backend.seed(service.database_url, service.workspace_id, count)
    timeline = backend.seed_timeline(service.database_url, service.workspace_id)
    print(
        f"console: seeded {count:,} contacts in {seconds:.1f} s and their timeline notes in "
        f"{timeline:.1f} s ({backend.label})",
        flush=True,
    )
    figures = Figures(contacts=count, seed_seconds=seconds, timeline_seconds=timeline)
    person = backend.id_at_depth(service.database_url, service.workspace_id, count // 2)
    with service.server() as server:
        with httpx.Client(base_url=server.base_url, headers=service.auth, timeout=60) as api:
            for index in range(PERSON_NOTES):
                note = {"body": f"Call {index}: asked about the open house on Saturday."}
                check(api.post(f"/v1/contacts/{person}/notes", json=note), 201)
        backend.vacuum(service.database_url, "timeline_events", "contacts")
        urls = {
            "people": ("/console/people", 'href="/console/people/con_'),
            "people, stage": ("/console/people?stage=HOT_LEAD", ">HOT_LEAD</td>"),
            "people, search": ("/console/people?q=ann", ">Joanne "),
            "person": (f"/console/people/{person}", "Older</a>"),
        }
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            _sign_in(client)
            for name, (url, expect) in urls.items():
                for _ in range(WARMUP):
                    _timed(client, url, expect)
                figures.samples[name] = []
            for _ in range(requests):
                for name, (url, expect) in urls.items():
                    figures.samples[name].append(_timed(client, url, expect))
    for name in PAGES:
        print(
            f"console: {name}: p50 {figures.p50(name):.1f} ms, p99 {figures.p99(name):.1f} ms",
            flush=True,
        )
    return figures


def report(figures: Figures, backend: Backend) -> tuple[list[str], dict]:
    lines = [
        f"Console pages (bench/people.py: {figures.contacts:,} contacts in one workspace, "
        f"seeded in {figures.seed_seconds:.0f} s, a timeline note each; one client, one "
        f"request at a time, {len(figures.samples[PAGES[0]])} requests a page; "
        f"{backend.label}):",
        "",
        "| page | p50 ms | p99 ms | target |",
        "|---|---:|---:|---|",
    ]
    data: dict = {"contacts": figures.contacts, "seed_seconds": figures.seed_seconds}
    for name in PAGES:
        p50, p99 = figures.p50(name), figures.p99(name)
        target = ""
        if name in TARGETED:
            target = f"p50 < {TARGET_P50_MS:.0f} ms on PostgreSQL"
            if backend.postgres:
                target += ": met" if p50 < TARGET_P50_MS else ": MISSED"
        lines.append(f"| {name} | {p50:.1f} | {p99:.1f} | {target} |")
        data[name] = {"p50_ms": p50, "p99_ms": p99}
    return [*lines, ""], data
