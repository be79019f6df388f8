"""PostgreSQL restarted under load, on the real topology (scripts/cluster): two API
instances behind HAProxy on a throwaway PostgreSQL cluster of the test's own (never the
shared 5432). Serial: `make test-faults`. Every loop is bounded in count and time.
docs/operations.md ("Faults, tested")."""

import asyncio
import time
from dataclasses import dataclass

import httpx

from scripts.topology import Cluster
from tests.cluster_support import (
    SERIAL_ONLY,
    api_key,
    assert_envelope,
    make_cluster_fixture,  # noqa: F401  (the fixture: `make_cluster`)
    tail,
)
from tests.support import until

pytestmark = SERIAL_ONLY

# The bounds the instances run with: a new connection is given CONNECT seconds, a pooled
# one POOL seconds; a request must be answered within their sum and a margin for two busy
# cores, database down or not (homebase/db/unavailable.py: 503 past them).
CONNECT, POOL = 2, 3
BOUND = CONNECT + POOL + 5
CLIENTS, MAX_REQUESTS, DOWN_SECONDS = 4, 4000, 4


@dataclass
class Answer:
    kind: str  # "write" or "read"
    sent: float
    seconds: float
    response: httpx.Response | None
    error: str | None = None


class Traffic:
    """CLIENTS clients, each a POST /v1/contacts then a GET of one contact it made, again
    and again, until stopped (at most 120 s and MAX_REQUESTS requests in all). httpx
    itself gives up on a request after 3 × BOUND: a hang shows as an error, not a stuck
    test."""

    def __init__(self, client: httpx.AsyncClient, headers: dict[str, str]):
        self.client, self.headers = client, headers
        self.answers: list[Answer] = []
        self.stopping = asyncio.Event()

    async def _timed(self, kind: str, method: str, url: str, **kwargs) -> Answer:
        sent = time.monotonic()
        try:
            response = await self.client.request(method, url, headers=self.headers, **kwargs)
            answer = Answer(kind, sent, time.monotonic() - sent, response)
        except httpx.HTTPError as error:
            answer = Answer(kind, sent, time.monotonic() - sent, None, repr(error))
        self.answers.append(answer)
        return answer

    async def _one_client(self, number: int) -> None:
        deadline, made = time.monotonic() + 120, []
        for index in range(MAX_REQUESTS):
            if (
                self.stopping.is_set()
                or time.monotonic() > deadline
                or len(self.answers) >= MAX_REQUESTS
            ):
                return
            wrote = await self._timed(
                "write",
                "POST",
                "/v1/contacts",
                json={
                    "first_name": f"pg{number}-{index}",
                    "email": f"pg{number}-{index}@example.com",
                },
            )
            if wrote.response is not None and wrote.response.status_code == 201:
                made.append(wrote.response.json()["id"])
            if made:
                await self._timed("read", "GET", f"/v1/contacts/{made[-1]}")
            await asyncio.sleep(0.02)

    async def __aenter__(self) -> "Traffic":
        self.tasks = [asyncio.create_task(self._one_client(n)) for n in range(CLIENTS)]
        return self

    async def __aexit__(self, *exc) -> None:
        self.stopping.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), 4 * BOUND)

    def since(self, moment: float) -> list[Answer]:
        return [answer for answer in self.answers if answer.sent >= moment]


def _status(answer: Answer) -> int | None:
    return None if answer.response is None else answer.response.status_code


async def _recovered(cluster: Cluster, traffic: Traffic, since: float, within: float) -> float:
    """Seconds after `since` until the traffic's writes and reads succeed again: the
    first 2xx write sent after `since` followed by ten answers, all 2xx."""

    def recovery() -> float | None:
        after = traffic.since(since)
        for index, answer in enumerate(after):
            rest = after[index : index + 11]
            if (
                answer.kind == "write"
                and len(rest) == 11
                and all(200 <= (_status(a) or 0) < 300 for a in rest)
            ):
                return answer.sent + answer.seconds - since
        return None

    return await until(
        recovery,
        within,
        every=0.1,
        what=lambda: (
            f"recovery after the database's restart: "
            f"{[(_status(a), a.error) for a in traffic.since(since)][-20:]}\n"
            f"{tail(cluster, 'api-1', 'api-2')}"
        ),
    )


def _restart_postgres(cluster: Cluster) -> tuple[float, float, float]:
    """Stop the throwaway cluster (fast: sessions are ended, as on a failover or a
    restart), keep it down DOWN_SECONDS (the load balancer's checks see it), start it.
    The monotonic times the stop began, it had stopped, and it accepted connections
    again (pg_ctl -w waits for each)."""
    stopping = time.monotonic()
    cluster.stop_postgres(mode="fast", timeout=60)
    stopped = time.monotonic()
    assert not cluster.postgres_running()
    time.sleep(DOWN_SECONDS)
    cluster.start_postgres(timeout=60)
    return stopping, stopped, time.monotonic()


async def test_postgres_restarted_under_load_answers_503_recovers_and_keeps_every_write(
    make_cluster,
):
    started = time.monotonic()
    cluster = make_cluster(
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="1000000",
        HOMEBASE_DATABASE_CONNECT_TIMEOUT_SECONDS=str(CONNECT),
        HOMEBASE_DATABASE_POOL_TIMEOUT_SECONDS=str(POOL),
    )
    up = time.monotonic() - started
    workspace = cluster.homebase("admin", "create-workspace", "--name", "Faults")["id"]
    headers = api_key(cluster, workspace, "contacts:read,contacts:write")
    async with httpx.AsyncClient(base_url=cluster.url, timeout=3 * BOUND) as client:
        async with Traffic(client, headers) as traffic:
            await asyncio.sleep(2)  # traffic flowing before the fault
            before = len(traffic.answers)
            stopping, stopped, back = await asyncio.to_thread(_restart_postgres, cluster)
            recovered = await _recovered(cluster, traffic, back, within=30)
            await asyncio.sleep(1)  # traffic flowing after the recovery
        # Every write answered 2xx is stored, read back one by one now.
        written = [
            a.response.json()["id"]
            for a in traffic.answers
            if a.kind == "write" and _status(a) == 201
        ]
        missing = []
        for contact_id in written:
            read = await client.get(f"/v1/contacts/{contact_id}", headers=headers)
            if read.status_code != 200:
                missing.append((contact_id, read.status_code))

    statuses: dict[int | None, int] = {}
    for answer in traffic.answers:
        statuses[_status(answer)] = statuses.get(_status(answer), 0) + 1
    # Nothing unanswered, nothing but 2xx or 503, no answer past the bound.
    assert [a.error for a in traffic.answers if a.error] == [], tail(cluster, "haproxy")
    assert set(statuses) <= {200, 201, 503}, (
        statuses,
        [a.response.text for a in traffic.answers if _status(a) not in (200, 201, 503)],
        tail(cluster, "api-1", "api-2"),
    )
    slowest = max(a.seconds for a in traffic.answers)
    assert slowest < BOUND, slowest
    # A 503 is the envelope with Retry-After: an instance's own ("the database is not
    # answering"), or the load balancer's once its checks took both instances out
    # (its request ids start req_lb). Only while the database was away: none before the
    # stop began, none once the service had recovered.
    refused = [a for a in traffic.answers if _status(a) == 503]
    for answer in refused:
        assert_envelope(answer.response, "service_unavailable")
        assert stopping <= answer.sent + answer.seconds, answer.response.text
        assert answer.sent <= back + recovered, answer.response.text
    by_balancer = sum(a.response.headers["x-request-id"].startswith("req_lb") for a in refused)
    assert refused and before > 0  # the traffic did meet the outage
    assert not missing, missing
    print(
        f"\ncluster up in {up:.1f} s; PostgreSQL stopping {stopped - stopping:.1f} s, then "
        f"down {back - stopped:.1f} s; {len(traffic.answers)} requests ({statuses}); "
        f"503s: {len(refused) - by_balancer} by the instances, {by_balancer} by HAProxy, "
        f"over {max(a.sent for a in refused) - min(a.sent for a in refused):.1f} s; "
        f"slowest answer {slowest:.2f} s; recovered {recovered:.1f} s after PostgreSQL "
        f"was back; {len(written)} writes read back; test {time.monotonic() - started:.1f} s"
    )
