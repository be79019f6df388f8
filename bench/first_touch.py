"""The AI's first touch, lead created to first text handed to the provider
(`python -m bench.first_touch [--db sqlite|postgres] [--leads N] [--delay S]`).

The real service takes POST /v1/leads, each lead with a consent object, in a workspace
whose responder persona texts new leads first (`first_touch: "text"`,
`first_touch_delay_seconds` S, docs/ai.md "First touch and follow-ups"); the model and
Twilio's Messages API are stood in on loopback by this process and answer at once
(bench/standins.py), so the figure is the service's own: the lead's transaction, the
outreach row coming due, the worker's claim, the compose's reads, the finish and the
send job. A lead's figure is the time from sending its POST to its first text reaching
the stand-in Twilio. Target: p99 within S + 2 s, every lead texted exactly once.

"A clock inside allowed hours": the served process keeps the real clock, so the leads'
numbers are taken in a zone where it is now inside every rule's hours (a US zone with no
stricter state rule, else another country's: `pick_numbers`); the run says which.

- `--db sqlite`: `homebase serve` with its in-process worker;
- `--db postgres`: PostgreSQL + Redis, `homebase serve --no-worker` and a separate
  `homebase worker` (woken by LISTEN/NOTIFY).

The leads are posted one at a time, 100-200 ms apart, without waiting for the texts; one
more lead warms the service up first and is not counted. Bounded: every wait has a
deadline.
"""

import argparse
import asyncio
import json
import random
import secrets
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench.ai import SENDER, TWILIO_SID, callback_env
from bench.backends import Backend
from bench.servers import Server, Service, prepare_service
from bench.standins import MODEL_REPLY, Model, Stub, Twilio
from bench.webhooks import _percentile as percentile

DELAY_SECONDS = 30
MARGIN_SECONDS = 2.0
PERSONA = {
    "ref": "ava",
    "name": "Ava",
    "tone": "warm, brief",
    "channels": ["SMS"],
    "signature": "- Ava, Bench Realty",
    "instructions": "Qualify buyers and sellers; offer showings.",
    "responder": True,
    "disclosure": "Automated assistant for Sam Lee, writing on his behalf.",
    "first_touch": "text",
}
# Numbering plans whose zones are single and whose state (if any) has no stricter rule:
# (prefix of an E.164 number, digits that follow).
PLANS = (
    ("+1212555", 4),  # New York
    ("+1312555", 4),  # Chicago
    ("+1303555", 4),  # Denver
    ("+1213555", 4),  # Los Angeles
    ("+1808555", 4),  # Honolulu
    ("+4420794", 5),  # London
    ("+49301234", 4),  # Berlin
    ("+81312345", 4),  # Tokyo
    ("+61291234", 4),  # Sydney
)


def pick_numbers(count: int, now: datetime) -> tuple[str, list[str]]:
    """`count` distinct numbers of the first plan whose zones are now inside the lawful
    hours (compliance/lawful_hours.py, the workspace's default window), more than 30
    minutes before they close; (its prefix, the numbers)."""
    from homebase.compliance.lawful_hours import SendingWindow, lawful, refusal

    window = SendingWindow()
    for prefix, digits in PLANS:
        numbers = [f"{prefix}{index:0{digits}d}" for index in range(1, count + 1)]
        zones, rule = lawful(numbers[0])
        later = now.timestamp() + 1800
        if (
            zones
            and refusal(now, zones, rule, window) is None
            and refusal(datetime.fromtimestamp(later, UTC), zones, rule, window) is None
        ):
            return prefix, numbers
    raise RuntimeError("no numbering plan is inside its lawful hours now; run later")


def install(service: Service, delay: int) -> None:
    """The approved number and the responder persona that texts first, loaded as
    `homebase admin load-fixtures` does."""

    async def load() -> None:
        from homebase.db.engine import Database
        from homebase.db.tenancy import TenantSession
        from homebase.fixtures.load import load_fixtures

        database = Database(service.database_url)
        try:
            async with database.transaction() as connection:
                session = TenantSession(connection, service.workspace_id, actor="admin")
                await load_fixtures(
                    session,
                    {
                        "sender_numbers": [{"number": SENDER, "a2p_status": "approved"}],
                        "personas": [{**PERSONA, "first_touch_delay_seconds": delay}],
                    },
                )
        finally:
            await database.dispose()

    asyncio.run(load())


def measure(
    backend: Backend, workdir: Path, leads: int, delay: int = DELAY_SECONDS, budget: float = 300
) -> dict:
    service = prepare_service(workdir / "first-touch", secrets.token_urlsafe(32), backend)
    install(service, delay)
    prefix, numbers = pick_numbers(leads + 1, datetime.now(UTC))  # the first warms up
    print(f"first touch: {leads + 1} leads on {prefix}..., delay {delay} s", flush=True)
    result = asyncio.run(_drive(service, backend, numbers, delay, budget))
    return {"database": backend.label, "numbers": prefix, **result}


async def _drive(
    service: Service, backend: Backend, numbers: list[str], delay: int, budget: float
) -> dict:
    twilio = Twilio()
    chat, provider = Stub(Model(0)), Stub(twilio)
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
    posted: dict[str, float] = {}
    creates: list[float] = []
    try:
        for server in servers:
            await asyncio.to_thread(server.start)
        async with httpx.AsyncClient(
            base_url=servers[0].base_url, timeout=10, headers=service.auth
        ) as client:

            async def lead(number: str) -> float:
                body = {
                    "phone": number,
                    "source": "Website",
                    "first_name": "Lead",
                    "skip_routing": True,
                    "consent": {"source_url": "https://bench.example/form"},
                }
                started = time.monotonic()
                response = await client.post(
                    "/v1/leads",
                    content=json.dumps(body),
                    headers={"Content-Type": "application/json"},
                )
                if response.status_code != 201:
                    raise RuntimeError(f"POST /v1/leads: {response.status_code} {response.text}")
                posted[number] = started
                return time.monotonic() - started

            await lead(numbers[0])  # warm-up
            warm = min(deadline, time.monotonic() + delay + 60)
            if not await twilio.wait_for(numbers[:1], warm):
                raise RuntimeError("the warm-up lead got no first text in time")
            spacing = random.Random(7)
            for number in numbers[1:]:
                if time.monotonic() > deadline:
                    break
                started = time.monotonic()
                creates.append(await lead(number))
                await asyncio.sleep(
                    max(0.0, started + spacing.uniform(0.1, 0.2) - time.monotonic())
                )
            await twilio.wait_for(list(posted), min(deadline, time.monotonic() + delay + 30))
    finally:
        for server in reversed(servers):
            await asyncio.to_thread(server.stop)
        chat.close()
        provider.close()
    measured = [n for n in numbers[1:] if n in posted]
    latencies = [twilio.arrivals[n] - posted[n] for n in measured if n in twilio.arrivals]
    wrong = sum(1 for n in measured if MODEL_REPLY not in twilio.bodies.get(n, MODEL_REPLY))

    def ms(values: list[float], fraction: float) -> float | None:
        return round(percentile(values, fraction) * 1000, 1) if values else None

    p99 = ms(latencies, 0.99)
    target = (delay + MARGIN_SECONDS) * 1000
    return {
        "topology": topology,
        "delay_s": delay,
        "leads": len(measured),
        "texted": len(latencies),
        "missing": len(measured) - len(latencies),
        "provider_requests": twilio.count - 1,  # more than the leads: a text sent twice
        "unexpected_bodies": wrong,
        "p50_ms": ms(latencies, 0.5),
        "p99_ms": p99,
        "max_ms": round(max(latencies) * 1000, 1) if latencies else None,
        "create_p50_ms": ms(creates, 0.5),
        "create_p99_ms": ms(creates, 0.99),
        "target_p99_ms": target,
        "met": p99 is not None
        and p99 <= target
        and len(latencies) == len(measured) == twilio.count - 1
        and not wrong,
    }


def report(results: list[dict]) -> list[str]:
    lines = [
        "AI first touch, lead created to first text (bench/first_touch.py: POST /v1/leads "
        "with consent, 100-200 ms apart, the responder persona texting first after its "
        "delay; the model and Twilio stood in on loopback, answering at once; the leads' "
        "numbers in a zone inside its lawful hours at the run; from sending the POST to the "
        "text reaching the stand-in Twilio):",
        "",
        "| database | topology | numbers | delay s | leads | texted | p50 ms | p99 ms | max ms "
        "| POST p50 / p99 ms | target p99 <= delay + 2 s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in results:
        verdict = "met" if r["met"] else "MISSED"
        if r["missing"]:
            verdict += f" ({r['missing']} never texted)"
        if r["provider_requests"] != r["texted"] or r["unexpected_bodies"]:
            verdict += (
                f" ({r['provider_requests']} sends for {r['texted']} texts, "
                f"{r['unexpected_bodies']} not the model's)"
            )
        lines.append(
            f"| {r['database']} | {r['topology']} | {r['numbers']}... | {r['delay_s']} "
            f"| {r['leads']} | {r['texted']} | {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} "
            f"| {r['create_p50_ms']} / {r['create_p99_ms']} | {verdict} |"
        )
    return [*lines, ""]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--leads", type=int, default=200)
    parser.add_argument("--delay", type=int, default=DELAY_SECONDS)
    parser.add_argument("--budget-seconds", type=float, default=300)
    args = parser.parse_args(argv)
    if not 1 <= args.leads <= 2000:
        parser.error("leads must be 1-2000")
    backend = Backend(args.db)
    try:
        with tempfile.TemporaryDirectory(prefix="homebase-bench-first-touch-") as directory:
            result = measure(backend, Path(directory), args.leads, args.delay, args.budget_seconds)
    finally:
        backend.cleanup()
    print("\n" + "\n".join(report([result])))
    return result


if __name__ == "__main__":
    main()
