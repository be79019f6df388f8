"""The AI responder's figures (`python -m bench.ai [--db sqlite|postgres] [--texts N]
[--tool-rounds 0|1]`).

Inbound to reply: the real service answers texts through the whole loop of docs/ai.md,
with a Chat Completions server and a Twilio-compatible Messages API stood in by this
process on loopback (bench/standins.py). Both answer at once, so the figure is the
service's own: the callback's transaction, the worker's wake-up, the compose's reads,
its tool round and finish, the send job. The served process runs with
the quiet window it is given (`--quiet-seconds`, by default the setting's default, 4 s:
the responder waits until the lead has been quiet that long after the latest text,
docs/ai.md), which comes before all of it: the target is then p99 under 2 s plus the
window. With `--quiet-seconds 0` the figure is the compose path's alone.

With one tool round (the default) the persona may call `set_qualification` on a select
field, and the model answers each reply's first request with that call and the request
bringing its result with the reply: each reply is two model calls, the round's check
(its lease renewal) between them, and the action performed at the finish. The model
counts the rounds that came back under their call's id and accepted, the action log the
actions performed; a reply without exactly one round fails the target. `--tool-rounds 0`:
the persona has no actions and the model answers at once, one model call per reply.

- `--db sqlite`: `homebase serve` with its in-process worker (woken in-process);
- `--db postgres`: PostgreSQL + Redis, `homebase serve --no-worker` and a separate
  `homebase worker` (woken by LISTEN/NOTIFY).

Each of N contacts (distinct numbers, each with consent: a lead with a consent object,
loaded by the fixture loader) sends one signed inbound callback; the callbacks go one at
a time, 100-200 ms apart, without waiting for the replies. A text's figure is the time
from sending its callback to its reply arriving at the stand-in Twilio, split at the
moment its first prompt reaches the stand-in model (each text carries a tag found again in
its prompt). One more contact's text warms the service up first and is not counted.
Target: p99 under 2 s plus the quiet window, every text answered exactly once with the
model's reply (and,
with a tool round, each after exactly one, its action performed).

The throughput part (bench/run.py) and bench/inproc.py post the callback of
`signed_inbound(THROUGHPUT_PHONE)`; `prepare_responder` / `install_responder` set up its
contact (its persona has no actions). Bounded: every wait has a deadline.
"""

import argparse
import asyncio
import random
import secrets
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import httpx

from bench.backends import Backend
from bench.servers import Server, Service, prepare_service
from bench.standins import FIELD, MODEL_REPLY, TOOL, Model, Stub, Twilio
from bench.webhooks import _percentile as percentile
from homebase.config import Settings
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
TARGET_P99_MS = 2000.0  # plus the quiet window
# The responder's quiet window as served by default (HOMEBASE_AI_QUIET_SECONDS).
QUIET_SECONDS = float(Settings.model_fields["ai_quiet_seconds"].default)
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
# With a tool round: the persona may call the stand-in model's one tool, on this field.
ACTING = {"actions": [TOOL], "qualification_fields": [FIELD]}
INTENT = {
    "object": "contacts",
    "key": FIELD,
    "label": "Intent",
    "type": "single_select",
    "choices": ["buy", "sell", "both", "rent"],
}


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


def responder_fixtures(phones: list[str], *, acting: bool = False) -> dict:
    """An approved number, the responder persona and, per phone, a lead with a consent
    object (so a contact and its consent artifact), loaded with docs/fixtures.md's kinds.
    `acting`: the persona may call `TOOL` on the custom field `INTENT`."""
    captured = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    return {
        **({"custom_fields": [INTENT]} if acting else {}),
        "sender_numbers": [{"number": SENDER, "a2p_status": "approved"}],
        "personas": [{**RESPONDER, **ACTING} if acting else RESPONDER],
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


async def install_responder(
    database: "Database", workspace_id: str, phones: list[str], *, acting: bool = False
) -> None:
    """Loads `responder_fixtures(phones, acting=...)` as `homebase admin load-fixtures` does."""
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures

    async with database.transaction() as connection:
        session = TenantSession(connection, workspace_id, actor="admin")
        await load_fixtures(session, responder_fixtures(phones, acting=acting))


def prepare_responder(service: Service, phones: list[str], *, acting: bool = False) -> None:
    """`install_responder` on the service's database and workspace."""

    async def install() -> None:
        from homebase.db.engine import Database

        database = Database(service.database_url)
        try:
            return await install_responder(database, service.workspace_id, phones, acting=acting)
        finally:
            await database.dispose()

    return asyncio.run(install())


def ai_jobs(database_url: str, workspace_id: str) -> int:
    """The workspace's AI jobs: the throughput part checks its callbacks open one."""
    return _count(database_url, workspace_id, "ai_jobs")


def performed(database_url: str, workspace_id: str) -> int:
    """The workspace's `TOOL` actions performed (the action log, docs/ai.md, "Actions")."""
    return _count(database_url, workspace_id, "ai_actions", tool=TOOL, outcome="performed")


def _count(database_url: str, workspace_id: str, table: str, **equal: str) -> int:
    async def count() -> int:
        from sqlalchemy import func

        from homebase.db.engine import Database
        from homebase.db.tenancy import TenantSession
        from homebase.models import AiAction, AiJob

        model = {"ai_jobs": AiJob, "ai_actions": AiAction}[table]
        database = Database(database_url)
        try:
            async with database.transaction(write=False) as connection:
                session = TenantSession(connection, workspace_id)
                statement = session.select(model.__table__, func.count().label("rows")).where(
                    *(model.__table__.c[name] == value for name, value in equal.items())
                )
                row = await session.fetch_one(statement)
                return int(row["rows"]) if row else 0
        finally:
            await database.dispose()

    return asyncio.run(count())


def measure(
    backend: Backend,
    workdir: Path,
    texts: int,
    budget_seconds: float = 180,
    tool_rounds: int = 1,
    quiet_seconds: float = QUIET_SECONDS,
) -> dict:
    """Inbound to reply on a fresh database of the backend's kind (see the module), with
    `tool_rounds` (0 or 1) tool rounds in each reply and the responder's quiet window set
    to `quiet_seconds`."""
    # One database per window, so both runs of bench/run.py have their own.
    directory = workdir / f"ai_quiet_{round(quiet_seconds * 1000)}ms"
    service = prepare_service(directory, secrets.token_urlsafe(32), backend)
    numbers = [phone(index) for index in range(texts + 1)]  # the first warms up
    prepare_responder(service, numbers, acting=tool_rounds > 0)
    print(f"ai: {texts + 1} contacts with consent and a responder persona", flush=True)
    model = Model(tool_rounds)
    result = asyncio.run(_drive(service, backend, numbers, budget_seconds, model, quiet_seconds))
    # Done at each reply's finish, as the tool round accepted it (the warm-up's too).
    actions = performed(service.database_url, service.workspace_id)
    expected = tool_rounds * (result["replies"] + 1)
    return {
        "database": backend.label,
        **result,
        "actions_performed": actions,
        "met": result["met"] and actions == expected,
    }


async def _drive(
    service: Service,
    backend: Backend,
    numbers: list[str],
    budget: float,
    model: Model,
    quiet_seconds: float,
) -> dict:
    twilio = Twilio()
    chat, provider = Stub(model), Stub(twilio)
    service.env.update(
        callback_env(),
        HOMEBASE_AI_PROVIDER="openai",
        HOMEBASE_AI_BASE_URL=await chat.start() + "/v1",
        HOMEBASE_AI_QUIET_SECONDS=str(quiet_seconds),
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
    # Every reply had exactly the tool rounds asked for, each come back right.
    off_rounds = sum(
        1
        for n in measured
        if n in twilio.arrivals
        and (model.rounds[tagged(n)[0]] != model.tool_rounds or model.wrong_rounds[tagged(n)[0]])
    )

    def ms(values: list[float], fraction: float) -> float | None:
        return round(percentile(values, fraction) * 1000, 1) if values else None

    p99 = ms(latencies, 0.99)
    target = TARGET_P99_MS + quiet_seconds * 1000
    return {
        "topology": topology,
        "texts": len(measured),
        "replies": len(latencies),
        "missing": len(measured) - len(latencies),
        "provider_requests": twilio.count - 1,  # more than the texts: a text sent twice
        "unexpected_bodies": wrong,
        "tool_rounds_per_reply": model.tool_rounds,
        "tool_rounds": sum(model.rounds[tagged(n)[0]] for n in measured if n in twilio.arrivals),
        "replies_off_rounds": off_rounds,
        "p50_ms": ms(latencies, 0.5),
        "p99_ms": p99,
        "max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "to_model_p50_ms": ms([first for first, _ in stages], 0.5),
        "model_to_reply_p50_ms": ms([second for _, second in stages], 0.5),
        "callback_p50_ms": ms(answered, 0.5),
        "callback_p99_ms": ms(answered, 0.99),
        "quiet_seconds": quiet_seconds,
        "target_p99_ms": target,
        "met": p99 is not None
        and p99 < target
        and len(latencies) == len(measured) == twilio.count - 1
        and not wrong
        and not off_rounds,
    }


def report(results: list[dict]) -> list[str]:
    lines = [
        "AI responder, inbound to reply (bench/ai.py: one signed inbound callback per "
        "contact, 100-200 ms apart; the quiet window (HOMEBASE_AI_QUIET_SECONDS: the "
        "responder waits that long after the lead's latest text; 4 s by default) is in "
        "the figures and the target, and a window of 0 s gives the compose path's alone; "
        "the model and Twilio stood in on loopback, answering at "
        "once; with a tool round, the model answers a reply's first request with one "
        f"`{TOOL}` call and the request bringing its result with the reply; tool rounds: "
        "those that came back under their call's id, accepted, and the actions performed "
        "(the warm-up's too); "
        "from sending the callback to the reply reaching the stand-in Twilio; p50 of its "
        "two stages: callback sent to the model's first request, from there to the reply "
        "at Twilio):",
        "",
        "| database | topology | quiet window s | texts | replies | tool rounds / actions "
        "| p50 ms | p99 ms | max ms | stages p50 ms | callback p50 / p99 ms "
        "| target p99 < 2 s + window |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---|---|---|",
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
        if r["replies_off_rounds"]:
            verdict += (
                f" ({r['replies_off_rounds']} replies without exactly "
                f"{r['tool_rounds_per_reply']} tool round(s))"
            )
        if r["actions_performed"] != r["tool_rounds_per_reply"] * (r["replies"] + 1):
            verdict += f" ({r['actions_performed']} actions performed)"
        lines.append(
            f"| {r['database']} | {r['topology']} | {r['quiet_seconds']:g} | {r['texts']} "
            f"| {r['replies']} "
            f"| {r['tool_rounds']} / {r['actions_performed']} "
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
    parser.add_argument("--tool-rounds", type=int, choices=[0, 1], default=1)
    parser.add_argument(
        "--quiet-seconds",
        type=float,
        default=QUIET_SECONDS,
        help="the responder's quiet window (default: the setting's default)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.texts <= 2000:
        parser.error("texts must be 1-2000")
    backend = Backend(args.db)
    try:
        with tempfile.TemporaryDirectory(prefix="homebase-bench-ai-") as directory:
            result = measure(
                backend,
                Path(directory),
                args.texts,
                args.budget_seconds,
                args.tool_rounds,
                args.quiet_seconds,
            )
    finally:
        backend.cleanup()
    print("\n" + "\n".join(report([result])))
    return result


if __name__ == "__main__":
    main()
