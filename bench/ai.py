"""The AI responder's figures (`python -m bench.ai [--db sqlite|postgres] [--texts N]`).

Inbound to reply: the real service answers texts through the whole loop of docs/ai.md,
with a Chat Completions server and a Twilio-compatible Messages API stood in by this
process on loopback. Both answer at once, so the figure is the service's own: the
callback's transaction, the worker's wake-up, the compose's reads and finish, the send job.

- `--db sqlite`: `homebase serve` with its in-process worker (woken in-process);
- `--db postgres`: PostgreSQL + Redis, `homebase serve --no-worker` and a separate
  `homebase worker` (woken by LISTEN/NOTIFY).

Each of N contacts (distinct numbers, each with consent: a lead with a consent object,
loaded by the fixture loader) sends one signed inbound callback; the callbacks go one at
a time, 100-200 ms apart, without waiting for the replies. A text's figure is the time
from sending its callback to its reply arriving at the stand-in Twilio, split at the
moment its prompt reaches the stand-in model (each text carries a tag found again in
its prompt). One more contact's text warms the service up first and is not counted.
Target: p99 under 2 s, every text answered exactly once with the model's reply.

The throughput part (bench/run.py) and bench/inproc.py post the callback of
`signed_inbound(THROUGHPUT_PHONE)`; `prepare_responder` / `install_responder` set up its
contact. Bounded: every wait has a deadline.
"""

import argparse
import asyncio
import json
import random
import re
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import httpx

from bench.backends import Backend
from bench.servers import Server, Service, prepare_service
from bench.webhooks import _percentile as percentile
from homebase.providers.signing import signature

if TYPE_CHECKING:
    from homebase.db.engine import Database

INBOUND_PATH = "/providers/sms/inbound"
# What HOMEBASE_PUBLIC_URL says (the signature covers it), not where the server listens.
PUBLIC_URL = "https://homebase.bench.example"
TWILIO_TOKEN = "bench-twilio-token"
TWILIO_SID = "ACbench00000000000000000000000000"
SENDER = "+14155550100"  # the workspace's approved number, the To of every text
THROUGHPUT_PHONE = "+13125550000"
TEXT = "Hi, is the house on Elm St still for sale?"
TAG = re.compile(r"\(ref ([a-j]+)\)")  # a text's own mark, found again in its prompt
MODEL_REPLY = "Yes, it is! Would you like to see it this week?"
TARGET_P99_MS = 2000.0
RESPONDER = {
    "ref": "ava",
    "name": "Ava",
    "tone": "warm, brief",
    "channels": ["SMS"],
    "signature": "- Ava, Bench Realty",
    "instructions": "Qualify buyers and sellers; offer showings.",
    "responder": True,
    "disclosure": "Automated assistant for Sam Lee, writing on his behalf.",
}
Handler = Callable[[str, bytes], Awaitable[tuple[int, bytes]]]


def phone(index: int) -> str:
    return f"+1312555{index + 1:04d}"  # +13125550000 is the throughput part's


def tagged(number: str) -> tuple[str, str]:
    """(tag, text) for the contact with this number: the tag is its last four digits as
    letters, so it reads as no phone number."""
    tag = "".join(chr(ord("a") + int(digit)) for digit in number[-4:])
    return tag, f"{TEXT} (ref {tag})"


def callback_env() -> dict[str, str]:
    """What a served process needs to accept `signed_inbound`'s callbacks."""
    return {"HOMEBASE_TWILIO_AUTH_TOKEN": TWILIO_TOKEN, "HOMEBASE_PUBLIC_URL": PUBLIC_URL}


def signed_inbound(sender: str, body: str = TEXT) -> tuple[str, dict[str, str]]:
    """A Twilio inbound callback's form and headers. No MessageSid (it is optional), so the
    same form records a new text every time it is posted."""
    params = {"From": sender, "To": SENDER, "Body": body, "AccountSid": TWILIO_SID}
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": signature(TWILIO_TOKEN, PUBLIC_URL + INBOUND_PATH, params.items()),
    }
    return urlencode(params), headers


def responder_fixtures(phones: list[str]) -> dict:
    """An approved number, the responder persona and, per phone, a lead with a consent
    object (so a contact and its consent artifact), loaded with docs/fixtures.md's kinds."""
    captured = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    return {
        "sender_numbers": [{"number": SENDER, "a2p_status": "approved"}],
        "personas": [RESPONDER],
        "leads": [
            {
                "phone": number,
                "source": "Website",
                "first_name": "Lead",
                "skip_routing": True,
                "consent": {"captured_at": captured, "source_url": "https://bench.example/form"},
            }
            for number in phones
        ],
    }


async def install_responder(database: "Database", workspace_id: str, phones: list[str]) -> None:
    """Loads `responder_fixtures(phones)` as `homebase admin load-fixtures` does."""
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures

    async with database.transaction() as connection:
        session = TenantSession(connection, workspace_id, actor="admin")
        await load_fixtures(session, responder_fixtures(phones))


def prepare_responder(service: Service, phones: list[str]) -> None:
    """`install_responder` on the service's database and workspace."""

    async def install() -> None:
        from homebase.db.engine import Database

        database = Database(service.database_url)
        try:
            return await install_responder(database, service.workspace_id, phones)
        finally:
            await database.dispose()

    return asyncio.run(install())


def ai_jobs(database_url: str, workspace_id: str) -> int:
    """The workspace's AI jobs: the throughput part checks its callbacks open one."""

    async def count() -> int:
        from sqlalchemy import func

        from homebase.db.engine import Database
        from homebase.db.tenancy import TenantSession
        from homebase.models import AiJob

        database = Database(database_url)
        try:
            async with database.transaction(write=False) as connection:
                session = TenantSession(connection, workspace_id)
                statement = session.select(AiJob.__table__, func.count().label("jobs"))
                row = await session.fetch_one(statement)
                return int(row["jobs"]) if row else 0
        finally:
            await database.dispose()

    return asyncio.run(count())


class Stub:
    """A minimal HTTP/1.1 keep-alive server on loopback, in this process's loop: each
    request's path and body go to `handler`, which gives the status and JSON body."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while request := await reader.readline():
                path = request.split(b" ")[1].decode() if request.count(b" ") >= 2 else ""
                length = 0
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = header.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                status, body = await self.handler(path, await reader.readexactly(length))
                writer.write(
                    f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


class Model:
    """A Chat Completions server answering at once, the reply as docs/ai.md's JSON object;
    it records when the prompt holding each text's `tag` first arrived."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}

    async def __call__(self, path: str, body: bytes) -> tuple[int, bytes]:
        if not path.endswith("/chat/completions"):
            return 404, b'{"error": {"message": "not found"}}'
        request = json.loads(body)
        for tag in TAG.findall(json.dumps(request.get("messages", []))):
            self.arrivals.setdefault(tag, time.monotonic())
        content = json.dumps({"reply": MODEL_REPLY, "handoff": False, "handoff_reason": ""})
        answer = {
            "id": f"chatcmpl-{secrets.token_hex(8)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        return 200, json.dumps(answer).encode()


class Twilio:
    """The Messages API's accepted answer (providers/twilio.py reads `sid`), and when
    each text first arrived, by its To."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}
        self.bodies: dict[str, str] = {}
        self.count = 0
        self.arrived = asyncio.Event()

    async def __call__(self, path: str, body: bytes) -> tuple[int, bytes]:
        if not path.endswith("/Messages.json"):
            return 404, b'{"message": "not found"}'
        form = dict(parse_qsl(body.decode()))
        self.count += 1
        self.arrivals.setdefault(form.get("To", ""), time.monotonic())
        self.bodies.setdefault(form.get("To", ""), form.get("Body", ""))
        self.arrived.set()
        return 201, json.dumps({"sid": f"SM{secrets.token_hex(16)}", "status": "queued"}).encode()

    async def wait_for(self, numbers: list[str], deadline: float) -> bool:
        while not all(n in self.arrivals for n in numbers) and time.monotonic() < deadline:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                break
        return all(n in self.arrivals for n in numbers)


def measure(backend: Backend, workdir: Path, texts: int, budget_seconds: float = 180) -> dict:
    """Inbound to reply on a fresh database of the backend's kind (see the module)."""
    service = prepare_service(workdir / "ai", secrets.token_urlsafe(32), backend)
    numbers = [phone(index) for index in range(texts + 1)]  # the first warms up
    prepare_responder(service, numbers)
    print(f"ai: {texts + 1} contacts with consent and a responder persona", flush=True)
    result = asyncio.run(_drive(service, backend, numbers, budget_seconds))
    return {"database": backend.label, **result}


async def _drive(service: Service, backend: Backend, numbers: list[str], budget: float) -> dict:
    twilio = Twilio()
    model = Model()
    chat, provider = Stub(model), Stub(twilio)
    service.env.update(
        callback_env(),
        HOMEBASE_AI_PROVIDER="openai",
        HOMEBASE_AI_BASE_URL=await chat.start() + "/v1",
        HOMEBASE_SMS_PROVIDER="twilio",
        HOMEBASE_TWILIO_BASE_URL=await provider.start(),
        HOMEBASE_TWILIO_ACCOUNT_SID=TWILIO_SID,
    )
    servers: list[Server] = [service.server(worker=not backend.postgres)]
    if backend.postgres:
        servers.append(service.worker())
    topology = (
        "serve --no-worker + homebase worker (LISTEN/NOTIFY)"
        if backend.postgres
        else "serve, in-process worker"
    )
    deadline = time.monotonic() + budget
    sent: dict[str, float] = {}
    answered: list[float] = []
    try:
        for server in servers:
            await asyncio.to_thread(server.start)
        async with httpx.AsyncClient(base_url=servers[0].base_url, timeout=10) as client:

            async def text(number: str) -> float:
                form, headers = signed_inbound(number, tagged(number)[1])
                started = time.monotonic()
                response = await client.post(INBOUND_PATH, content=form, headers=headers)
                if response.status_code != 200:
                    raise RuntimeError(f"inbound callback: {response.status_code} {response.text}")
                sent[number] = started
                return time.monotonic() - started

            await text(numbers[0])  # warm-up: imports, the model client, pooled connections
            if not await twilio.wait_for(numbers[:1], min(deadline, time.monotonic() + 60)):
                raise RuntimeError("the warm-up text got no reply within 60 s")
            spacing = random.Random(7)
            for number in numbers[1:]:
                if time.monotonic() > deadline:
                    break
                started = time.monotonic()
                answered.append(await text(number))
                await asyncio.sleep(
                    max(0.0, started + spacing.uniform(0.1, 0.2) - time.monotonic())
                )
            await twilio.wait_for(list(sent), min(deadline, time.monotonic() + 30))
    finally:
        for server in reversed(servers):
            await asyncio.to_thread(server.stop)
        chat.close()
        provider.close()
    measured = [n for n in numbers[1:] if n in sent]
    latencies = [twilio.arrivals[n] - sent[n] for n in measured if n in twilio.arrivals]
    stages = [
        (model.arrivals[tag] - sent[n], twilio.arrivals[n] - model.arrivals[tag])
        for n in measured
        if n in twilio.arrivals and (tag := tagged(n)[0]) in model.arrivals
    ]
    wrong = sum(1 for n in measured if MODEL_REPLY not in twilio.bodies.get(n, MODEL_REPLY))

    def ms(values: list[float], fraction: float) -> float | None:
        return round(percentile(values, fraction) * 1000, 1) if values else None

    p99 = ms(latencies, 0.99)
    return {
        "topology": topology,
        "texts": len(measured),
        "replies": len(latencies),
        "missing": len(measured) - len(latencies),
        "provider_requests": twilio.count - 1,  # more than the texts: a text sent twice
        "unexpected_bodies": wrong,
        "p50_ms": ms(latencies, 0.5),
        "p99_ms": p99,
        "max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "to_model_p50_ms": ms([first for first, _ in stages], 0.5),
        "model_to_reply_p50_ms": ms([second for _, second in stages], 0.5),
        "callback_p50_ms": ms(answered, 0.5),
        "callback_p99_ms": ms(answered, 0.99),
        "target_p99_ms": TARGET_P99_MS,
        "met": p99 is not None
        and p99 < TARGET_P99_MS
        and len(latencies) == len(measured) == twilio.count - 1
        and not wrong,
    }


def report(results: list[dict]) -> list[str]:
    lines = [
        "AI responder, inbound to reply (bench/ai.py: one signed inbound callback per "
        "contact, 100-200 ms apart; the model and Twilio stood in on loopback, answering at "
        "once; from sending the callback to the reply reaching the stand-in Twilio; p50 of "
        "its two stages: callback sent to the model's request, the model's answer to the "
        "reply at Twilio):",
        "",
        "| database | topology | texts | replies | p50 ms | p99 ms | max ms "
        "| stages p50 ms | callback p50 / p99 ms | target p99 < 2 s |",
        "|---|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in results:
        verdict = "met" if r["met"] else "MISSED"
        if r["missing"]:
            verdict += f" ({r['missing']} without a reply)"
        if r["provider_requests"] != r["replies"] or r["unexpected_bodies"]:
            verdict += (
                f" ({r['provider_requests']} sends for {r['replies']} replies, "
                f"{r['unexpected_bodies']} not the model's)"
            )
        lines.append(
            f"| {r['database']} | {r['topology']} | {r['texts']} | {r['replies']} "
            f"| {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} "
            f"| {r['to_model_p50_ms']} + {r['model_to_reply_p50_ms']} "
            f"| {r['callback_p50_ms']} / {r['callback_p99_ms']} | {verdict} |"
        )
    return [*lines, ""]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--texts", type=int, default=100)
    parser.add_argument("--budget-seconds", type=float, default=180)
    args = parser.parse_args(argv)
    if not 1 <= args.texts <= 2000:
        parser.error("texts must be 1-2000")
    backend = Backend(args.db)
    try:
        with tempfile.TemporaryDirectory(prefix="homebase-bench-ai-") as directory:
            result = measure(backend, Path(directory), args.texts, args.budget_seconds)
    finally:
        backend.cleanup()
    print("\n" + "\n".join(report([result])))
    return result


if __name__ == "__main__":
    main()
