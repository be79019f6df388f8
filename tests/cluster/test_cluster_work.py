"""A worker and an API instance SIGKILLed mid-burst, on the real topology (scripts/cluster):
webhook deliveries to a receiver on 127.0.0.1, email sends to an aiosmtpd server on
127.0.0.1, automation enrolments. Afterwards every event was delivered (at least once,
with its one event id), no message was sent twice (one whose send was cut off ends
FAILED "outcome unknown"), and every automation step ran once. Serial: `make
test-faults`. Every loop is bounded in count and time. docs/operations.md ("Faults,
tested")."""

import asyncio
import collections
import email
import glob
import json
import os
import signal
import threading
import time
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from homebase.models import (
    AutomationEnrolment,
    AutomationStepRun,
    Contact,
    Message,
    OutboxEvent,
    Task,
    WebhookAttempt,
    WebhookDelivery,
)
from scripts.topology import WORKERS, Cluster
from tests.cluster_support import (
    SERIAL_ONLY,
    api_key,
    assert_envelope,
    make_cluster_fixture,  # noqa: F401  (the fixture: `make_cluster`)
    tail,
)
from tests.messaging_support import LoopbackSmtp
from tests.support import until
from tests.webhook_receiver import Receiver

pytestmark = SERIAL_ONLY

# Three requests a contact. After ARM_AFTER answers the SMTP server holds the next mail
# (its worker is killed then), after KILL_AFTER an API instance is killed.
CONTACTS, CONCURRENCY, ARM_AFTER, KILL_AFTER = 45, 6, 15, 40
LEASE = 8  # webhook and message leases: a killed worker's work is taken back after this
STEPS = [
    {
        "type": "send_message",
        "persona": "ava",
        "channel": "EMAIL",
        "subject": "Hello",
        "template": "Hi {first_name}, still looking?",
    },
    {"type": "create_task", "title": "Call {full_name}"},
    {"type": "move_stage", "stage": "NURTURE"},
]
FIXTURES = {
    "personas": [{"ref": "ava", "name": "Ava", "tone": "brief", "channels": ["EMAIL"]}],
    "automations": [{"name": "Follow-up", "steps": STEPS}],
}


class Mailroom:
    """aiosmtpd handler: records the X-Homebase-Message-Id of every mail it accepted data
    for (the message went out then, whatever the sender hears next). Once armed, it holds
    the next mail's answer until released: the worker sending it is then, for certain, in
    the middle of that send, and `peer` is its end of the connection."""

    def __init__(self):
        self.received: list[str] = []
        self.armed = threading.Event()
        self.held = threading.Event()
        self.released = threading.Event()
        self.peer: tuple[str, int] | None = None
        self.held_message: str | None = None

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        parsed = email.message_from_bytes(envelope.original_content or envelope.content)
        self.received.append(parsed["X-Homebase-Message-Id"])
        # No await between the check and the set: one request is held, on this loop.
        if self.armed.is_set() and not self.held.is_set():
            self.peer, self.held_message = session.peer, self.received[-1]
            self.held.set()
            # Until released (at most 60 s), on a thread: this loop serves the others.
            await asyncio.to_thread(self.released.wait, 60)
        return "250 Message accepted for delivery"


def _owner(cluster: Cluster, names: tuple[str, ...], port: int) -> str:
    """Which of the processes `names` holds the loopback TCP socket bound to `port`."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port:
            inodes.add(fields[9])
    for name in names:
        pid = cluster.state["processes"][name]["pid"]
        for descriptor in glob.glob(f"/proc/{pid}/fd/*"):
            try:
                target = os.readlink(descriptor)
            except OSError:  # closed meanwhile
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return name
    raise AssertionError(f"no process of {names} has a socket on port {port}")


@dataclass
class Burst:
    """For each of CONTACTS contacts, CONCURRENCY at a time: POST /v1/contacts, POST
    /v1/messages (an email to it), POST /v1/automations/{id}/enroll. Each request has an
    Idempotency-Key and is retried with it when it is lost (the load balancer's 502, or
    the connection closed unanswered) or finds its key in use (409 while the killed
    request's claim lasts): a client that sent it loses nothing."""

    client: httpx.AsyncClient
    headers: dict[str, str]
    automation: str
    done: int = 0
    lost: list = field(default_factory=list)  # (seconds since start, status or error)
    answers: list[httpx.Response] = field(default_factory=list)

    async def post(self, path: str, body: dict) -> httpx.Response:
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        for _ in range(40):  # 40 tries, about a second apart at most: the lease is 5 s
            try:
                response = await self.client.post(path, headers=headers, json=body)
            except httpx.RemoteProtocolError as error:  # closed unanswered (haproxy.py)
                self.lost.append((path, repr(error)))
                await asyncio.sleep(0.5)
                continue
            if response.status_code == 502:
                assert_envelope(response, "bad_gateway")
                self.lost.append((path, 502))
                await asyncio.sleep(0.5)
                continue
            if (
                response.status_code == 409
                and response.json()["error"]["code"] == "idempotency_key_in_use"
            ):
                await asyncio.sleep(int(response.headers["retry-after"]))
                continue
            self.answers.append(response)
            return response
        raise AssertionError(f"{path} not answered after 40 tries")

    async def one_contact(self, index: int, on_done) -> dict[str, str]:
        made = await self.post(
            "/v1/contacts",
            {
                "first_name": f"Work{index}",
                "last_name": "Burst",
                "email": f"work{index}@example.com",
            },
        )
        assert made.status_code == 201, made.text
        contact = made.json()["id"]
        sent = await self.post(
            "/v1/messages",
            {
                "channel": "EMAIL",
                "contact_id": contact,
                "subject": f"Showing {index}",
                "body": "Confirming Saturday at 11.",
                # Marked as written by the AI: a person's message would pause the
                # contact's AI (docs/ai.md), and the automation's AI-written email, the
                # second send counted below, would then be skipped.
                "ai_generated": True,
            },
        )
        assert sent.status_code == 201, sent.text
        enrolled = await self.post(
            f"/v1/automations/{self.automation}/enroll", {"contact_id": contact}
        )
        assert enrolled.status_code == 202, enrolled.text
        for _ in range(3):
            self.done += 1
            await on_done(self.done)
        return {
            "contact": contact,
            "message": sent.json()["id"],
            "enrolment": enrolled.json()["id"],
        }

    async def run(self, on_done) -> list[dict[str, str]]:
        indexes = list(range(CONTACTS))
        made: list[dict[str, str]] = []

        async def sender() -> None:
            while indexes:
                made.append(await self.one_contact(indexes.pop(0), on_done))

        await asyncio.wait_for(asyncio.gather(*(sender() for _ in range(CONCURRENCY))), 180)
        return made


async def _rows(engine, table, workspace: str) -> list[dict]:
    async with engine.connect() as connection:
        result = await connection.execute(select(table).where(table.c.workspace_id == workspace))
        return [dict(row) for row in result.mappings()]


async def _settled(engine, workspace: str, within: float) -> float:
    """Seconds until nothing is left to do: every event fanned out, no delivery pending,
    no message queued or sending, no enrolment active."""
    started = time.monotonic()

    async def nothing_left() -> bool:
        events = await _rows(engine, OutboxEvent.__table__, workspace)
        deliveries = await _rows(engine, WebhookDelivery.__table__, workspace)
        messages = await _rows(engine, Message.__table__, workspace)
        enrolments = await _rows(engine, AutomationEnrolment.__table__, workspace)
        return (
            all(e["dispatched_at"] for e in events)
            and all(d["status"] != "pending" for d in deliveries)
            and all(m["status"] not in ("QUEUED", "SENDING") for m in messages)
            and all(e["status"] != "active" for e in enrolments)
        )

    await until(nothing_left, within, every=0.5, what="the work left")
    return time.monotonic() - started


def _worker_pids(cluster: Cluster) -> dict[str, str]:
    return {str(cluster.state["processes"][name]["pid"]): name for name in WORKERS}


async def test_a_worker_and_an_instance_killed_mid_burst_lose_no_event_send_no_message_twice(
    make_cluster,
):
    started = time.monotonic()
    mailroom = Mailroom()
    smtp = LoopbackSmtp(mailroom)
    smtp.start()

    def respond(request):
        # The first attempt of one delivery in four is refused: it is retried (the same
        # event id, checked below) by whichever worker claims it next.
        if (
            request.headers["x-webhook-attempt"] == "1"
            and zlib.crc32(request.headers["x-webhook-delivery"].encode()) % 4 == 0
        ):
            return 503, {}, 0.01
        return 200, {}, 0.01

    receiver = await Receiver(respond=respond).start()
    engine = None
    try:
        cluster = make_cluster(
            HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="1000000",
            HOMEBASE_WEBHOOK_ALLOW_PRIVATE_URLS="1",
            HOMEBASE_TESTING_LOOPBACK_RESOLVER="1",
            HOMEBASE_WEBHOOK_TIMEOUT_SECONDS="5",
            HOMEBASE_WEBHOOK_LEASE_SECONDS=str(LEASE),
            HOMEBASE_WEBHOOK_BACKOFF_UNIT_SECONDS="1",
            HOMEBASE_EMAIL_PROVIDER="smtp",
            HOMEBASE_SMTP_HOST="127.0.0.1",
            HOMEBASE_SMTP_PORT=str(smtp.port),
            HOMEBASE_EMAIL_FROM="agent@demo-realty.example",
            HOMEBASE_MESSAGING_PROVIDER_TIMEOUT_SECONDS="5",
            HOMEBASE_MESSAGING_LEASE_SECONDS=str(LEASE),
            HOMEBASE_IDEMPOTENCY_LEASE_SECONDS="5",
            HOMEBASE_WORKER_POLL_SECONDS="0.2",
        )
        up = time.monotonic() - started
        engine = create_async_engine(cluster.state["database_url"], pool_size=2)
        workspace = cluster.homebase("admin", "create-workspace", "--name", "Faults")["id"]
        fixtures = cluster.run_dir / "fixtures.json"
        fixtures.write_text(json.dumps(FIXTURES))
        [automation] = cluster.homebase(
            "admin", "load-fixtures", "--workspace", workspace, str(fixtures)
        )["automations"]
        headers = api_key(
            cluster,
            workspace,
            " ".join(
                (
                    "contacts:read",
                    "contacts:write",
                    "messages:read",
                    "messages:send",
                    "automations:read",
                    "automations:manage",
                    "webhooks:manage",
                )
            ),
        )
        killed: dict[str, float] = {}
        fault: list[asyncio.Task] = []

        async def kill_worker_mid_send() -> None:
            mailroom.armed.set()
            try:
                await until(mailroom.held.is_set, 60, every=0.1, what="a worker's mail")
                name = await asyncio.to_thread(_owner, cluster, WORKERS, mailroom.peer[1])
                await asyncio.to_thread(cluster.kill, name, signal.SIGKILL)
                killed[name] = time.monotonic()
            finally:
                mailroom.released.set()

        async def on_done(done: int) -> None:
            if done == ARM_AFTER and not fault:
                fault.append(asyncio.create_task(kill_worker_mid_send()))
            if done == KILL_AFTER and "api-1" not in killed:
                await asyncio.to_thread(cluster.kill, "api-1", signal.SIGKILL)
                killed["api-1"] = time.monotonic()

        async with httpx.AsyncClient(base_url=cluster.url, timeout=60) as client:
            hook = await client.post(
                "/v1/webhooks", headers=headers, json={"url": receiver.url, "event_types": []}
            )
            assert hook.status_code == 201, hook.text
            burst = Burst(client, headers, automation)
            made = await burst.run(on_done)
            burst_done = time.monotonic()
            await asyncio.wait_for(fault[0], 90)
            settled = await _settled(engine, workspace, within=120)
            await asyncio.sleep(1)  # time for a late duplicate to show

        events = await _rows(engine, OutboxEvent.__table__, workspace)
        deliveries = await _rows(engine, WebhookDelivery.__table__, workspace)
        attempts = await _rows(engine, WebhookAttempt.__table__, workspace)
        messages = await _rows(engine, Message.__table__, workspace)
        enrolments = await _rows(engine, AutomationEnrolment.__table__, workspace)
        step_runs = await _rows(engine, AutomationStepRun.__table__, workspace)
        tasks = await _rows(engine, Task.__table__, workspace)
        contacts = await _rows(engine, Contact.__table__, workspace)
    finally:
        await receiver.stop()
        smtp.stop()
        if engine is not None:
            await engine.dispose()

    # Nothing a client sent is lost: one of each per contact, whatever was retried.
    assert len(made) == CONTACTS
    assert {c["id"] for c in contacts} == {m["contact"] for m in made}
    assert {m["message"] for m in made} <= {m["id"] for m in messages}
    assert {m["enrolment"] for m in made} == {e["id"] for e in enrolments}
    [worker] = set(killed) - {"api-1"}

    # Every event delivered, at least once, each delivery always with its one event
    # (one in four was refused once and retried).
    received = collections.defaultdict(list)  # delivery id -> event id of each request
    for request in receiver.requests:
        received[request.headers["x-webhook-delivery"]].append(
            orjson.loads(request.body)["data"]["event_id"]
        )
    assert all(len(set(ids)) == 1 for ids in received.values()), received
    retried = [ids for ids in received.values() if len(ids) > 1]
    assert retried
    delivered = {ids[0] for ids in received.values()}
    assert {e["id"] for e in events} == delivered
    assert {d["event_id"] for d in deliveries} == delivered and len(deliveries) == len(events)
    assert {d["status"] for d in deliveries} == {"succeeded"}, tail(cluster, "worker-2")

    # No message sent twice: a SENT one exactly once. The one the killed worker was
    # sending, and any other its lease held, are FAILED "outcome unknown", never sent
    # again: the first reached the server once, the others never.
    per_message = collections.Counter(mailroom.received)
    assert max(per_message.values()) == 1, per_message.most_common(3)
    assert set(per_message) <= {m["id"] for m in messages}
    unknown = {m["id"] for m in messages if m["status"] == "FAILED"}
    assert mailroom.held_message in unknown
    for message in messages:
        if message["status"] == "SENT":
            assert per_message[message["id"]] == 1, message["id"]
        else:
            assert message["status"] == "FAILED", message
            assert "outcome unknown" in message["failure_reason"], message["failure_reason"]
    # The API's message and the automation's, for each contact.
    assert len(messages) == 2 * CONTACTS
    assert all(m["ai_generated"] for m in messages)

    # Every step ran once: each enrolment completed with one run per step, one task per
    # contact, every contact moved on.
    assert {e["status"] for e in enrolments} == {"completed"}, enrolments[:3]
    runs = collections.Counter((r["enrolment_id"], r["step_index"]) for r in step_runs)
    assert set(runs) == {(e["id"], index) for e in enrolments for index in range(len(STEPS))}
    assert set(runs.values()) == {1}
    assert sorted(t["contact_id"] for t in tasks) == sorted(c["id"] for c in contacts)
    assert {c["stage"] for c in contacts} == {"NURTURE"}

    pids = _worker_pids(cluster)
    by_worker = collections.Counter(pids.get(a["worker"].rsplit(":", 1)[1], "?") for a in attempts)
    print(
        f"\ncluster up in {up:.1f} s; burst of {3 * CONTACTS} requests; api-1 killed after "
        f"{KILL_AFTER} answers; {worker} killed mid-send {killed[worker] - killed['api-1']:+.1f}"
        f" s from it, {burst_done - killed[worker]:.1f} s before the burst ended; "
        f"{len(burst.lost)} requests lost and retried with their key; {len(events)} events, "
        f"{len(receiver.requests)} requests received ({len(retried)} deliveries retried), "
        f"{len(attempts)} attempts {dict(by_worker)}; {len(messages)} messages, "
        f"{len(unknown)} FAILED outcome unknown ({per_message[mailroom.held_message]} of "
        f"them reached the server), {len(per_message)} mails received; settled "
        f"{settled:.1f} s after the burst; test {time.monotonic() - started:.1f} s"
    )
