"""The AI's voice turn (`python -m bench.voice [--db sqlite|postgres] [--calls N]
[--turns T]`; `make bench`'s `voice` part), docs/voice.md.

A voice turn is the service's own time from a caller's final `prompt` arriving on the
ConversationRelay WebSocket to the first `text` token going out: the turn's reads, the
model (the offline stand-in, HOMEBASE_AI_PROVIDER=local, answering at once), the
sentence checks and the transcript's write. The service is `homebase serve --no-worker`
on loopback (bench/servers.py), over a fresh database (bench/backends.py):

- `--db sqlite` (the default): a SQLite file, the in-memory limiter;
- `--db postgres`: a throwaway PostgreSQL database on 127.0.0.1:5432, the Redis limiter.

N calls (default 20) are live at once, each a WebSocket client in this process with a
valid X-Twilio-Signature (the stand-in Twilio's side of a call, HOMEBASE_VOICE_PROVIDER=
local), and each says T lines (default 5), waiting for the AI's last token before the
next. The calls are seeded as placed (the Calls API is not what is timed). A turn's
figure is the time from sending its final `prompt` to receiving its first `text`.

Target (the requirement's): p50 under 300 ms and p99 under 800 ms over 20 concurrent
calls, every turn answered. Bounded: every wait has a deadline, every loop a limit.
"""

import argparse
import asyncio
import json
import secrets
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from websockets.asyncio.client import connect

from bench.ai import PUBLIC_URL, TWILIO_TOKEN, callback_env
from bench.backends import Backend
from bench.servers import Service, prepare_service
from bench.webhooks import _percentile as percentile
from homebase.providers.signing import signature

SENDER = "+14155550100"
LINES = (
    "Hi, who is this?",
    "I'm looking for a condo in the Mission",
    "What's the price of the one on Elm?",
    "We're buying in the next three months",
    "Thanks, that's all for now",
)
CALLS, TURNS = 20, 5
TARGET_P50_MS, TARGET_P99_MS = 300.0, 800.0
DEADLINE = 30.0  # seconds any one message may take before the run fails
MAX_MESSAGES = 100  # messages one turn's answer may take (a sentence each)
BUDGET_SECONDS = 300.0  # the whole run's calls


def relay_url(call_id: str) -> str:
    """The relay's address as the provider is given it (voice/service.relay_url with
    HOMEBASE_PUBLIC_URL=PUBLIC_URL): what the signature covers."""
    from homebase.voice.service import RELAY_PATH

    return "wss://" + PUBLIC_URL.split("://", 1)[1] + f"{RELAY_PATH}?call={call_id}"


def served_env(directory: Path) -> dict[str, str]:
    """What the served process needs: signed provider requests, the stand-ins."""
    return {
        **callback_env(),
        "HOMEBASE_AI_PROVIDER": "local",
        "HOMEBASE_VOICE_PROVIDER": "local",
        "HOMEBASE_RECORDINGS_DIR": str(directory / "recordings"),
    }


async def seed(database_url: str, workspace_id: str, calls: int) -> list[str]:
    """In the workspace: a voice persona and number, and `calls` placed calls, each to a
    contact with consent to AI calls; the calls' ids."""
    from homebase.db.engine import Database
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures
    from homebase.kit.ids import new_id
    from homebase.models import ConsentArtifact, VoiceCall
    from homebase.workspaces import service as workspaces

    now = datetime.now(UTC)
    database = Database(database_url)
    try:
        async with database.transaction() as connection:
            session = TenantSession(connection, workspace_id, actor="admin")
            await workspaces.add_sender_number(
                session, number=SENDER, channel="sms", a2p_status="approved", voice=True
            )
            phones = [f"+1415555{2000 + index:04d}" for index in range(calls)]
            created = await load_fixtures(
                session,
                {
                    "personas": [
                        {
                            "name": "Ava",
                            "tone": "warm",
                            "channels": ["SMS"],
                            "responder": True,
                            "disclosure": "Automated assistant for Bench Voice.",
                            "voice": True,
                        }
                    ],
                    "contacts": [{"first_name": "Lead", "phone": phone} for phone in phones],
                },
            )
            persona_id = created["personas"][0]
            ids = []
            for phone, contact_id in zip(phones, created["contacts"], strict=True):
                await session.insert(
                    ConsentArtifact.__table__,
                    {
                        "id": new_id("cns"),
                        "phone": phone,
                        "phone_e164": phone,
                        "lead_id": None,
                        "captured_at": now - timedelta(days=1),
                        "source_url": None,
                        "ip": None,
                        "form_snapshot": None,
                        "recorded_at": now,
                        "expires_at": now + timedelta(days=365),
                        "revoked_at": None,
                        "ai_voice": True,
                    },
                )
                call_id = new_id("vcl")
                await session.insert(
                    VoiceCall.__table__,
                    {
                        "id": call_id,
                        "contact_id": contact_id,
                        "persona_id": persona_id,
                        "ai_job_id": None,
                        "direction": "outbound",
                        "reason": "bench",
                        "from_number": SENDER,
                        "to_number": phone,
                        "status": "placed",
                        "provider_call_sid": "CA" + call_id[4:],
                        "attempts": 1,
                        "transcript": [],
                        "created_at": now,
                        "updated_at": now,
                    },
                )
                ids.append(call_id)
    finally:
        await database.dispose()
    return ids


async def one_call(base: str, call_id: str, turns: int) -> list[float]:
    """One caller's `turns` lines on the relay at `base` (ws://127.0.0.1:port); each
    answered turn's seconds, final prompt sent to first `text` received."""
    public = relay_url(call_id)
    local = base + "/" + public.split("://", 1)[1].split("/", 1)[1]
    headers = {"X-Twilio-Signature": signature(TWILIO_TOKEN, public, [])}
    seconds: list[float] = []
    async with connect(
        local, additional_headers=headers, open_timeout=DEADLINE, close_timeout=DEADLINE
    ) as websocket:
        await websocket.send(json.dumps({"type": "setup", "callSid": "CA" + call_id[4:]}))
        for index in range(turns):
            line = LINES[index % len(LINES)]
            partial = {"type": "prompt", "voicePrompt": line[:5], "last": False}
            await websocket.send(json.dumps(partial))
            started = time.perf_counter()
            await websocket.send(json.dumps({"type": "prompt", "voicePrompt": line, "last": True}))
            first = None
            for _ in range(MAX_MESSAGES):
                message = json.loads(await asyncio.wait_for(websocket.recv(), DEADLINE))
                if first is None and message["type"] == "text":
                    first = time.perf_counter() - started
                if message["type"] == "end" or message.get("last"):
                    break
            else:
                raise RuntimeError(f"{call_id}: no last token in {MAX_MESSAGES} messages")
            if first is not None:
                seconds.append(first)
            if message["type"] == "end":
                break
    return seconds


async def _drive(base: str, ids: list[str], turns: int, budget: float) -> list[list[float]]:
    calls = asyncio.gather(*(one_call(base, one, turns) for one in ids))
    return await asyncio.wait_for(calls, budget)


def measure(
    backend: Backend,
    workdir: Path,
    calls: int = CALLS,
    turns: int = TURNS,
    budget: float = BUDGET_SECONDS,
) -> dict:
    """`calls` concurrent calls of `turns` turns each against `homebase serve` over a
    fresh database of `backend` in `workdir`: the turns' figures."""
    service: Service = prepare_service(workdir / "voice", secrets.token_urlsafe(32), backend)
    ids = asyncio.run(seed(service.database_url, service.workspace_id, calls))
    service.env.update(served_env(service.directory))
    print(f"voice: {calls} calls of {turns} turns, {backend.label}", flush=True)
    with service.server() as server:  # --no-worker: the turn is the relay's own work
        base = server.base_url.replace("http://", "ws://", 1)
        results = asyncio.run(_drive(base, ids, turns, budget))
    every = [value for result in results for value in result]

    def ms(fraction: float) -> float | None:
        return round(percentile(every, fraction) * 1000, 1) if every else None

    p50, p99 = ms(0.5), ms(0.99)
    return {
        "database": backend.label,
        "calls": calls,
        "turns_per_call": turns,
        "turns": len(every),
        "expected_turns": calls * turns,
        "p50_ms": p50,
        "p95_ms": ms(0.95),
        "p99_ms": p99,
        "max_ms": round(max(every) * 1000, 1) if every else None,
        "target_p50_ms": TARGET_P50_MS,
        "target_p99_ms": TARGET_P99_MS,
        "met": p50 is not None
        and p99 is not None
        and p50 < TARGET_P50_MS
        and p99 < TARGET_P99_MS
        and len(every) == calls * turns,
    }


def report(results: list[dict]) -> list[str]:
    lines = [
        "AI voice turn, a caller's final `prompt` to the first `text` token (bench/voice.py: "
        "`homebase serve --no-worker`, ConversationRelay WebSocket clients on loopback with "
        "valid signatures, all calls live at once, each line after the AI's last token; the "
        "offline model stand-in answering at once):",
        "",
        "| database | calls | turns | p50 ms | p95 ms | p99 ms | max ms "
        "| target p50 < 300, p99 < 800 over 20 calls |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        verdict = "met" if r["met"] else "MISSED"
        if r["turns"] != r["expected_turns"]:
            verdict += f" ({r['expected_turns'] - r['turns']} of {r['expected_turns']} unanswered)"
        if r["calls"] < CALLS:
            verdict += f" (only {r['calls']} calls)"
        lines.append(
            f"| {r['database']} | {r['calls']} | {r['turns']} | {r['p50_ms']} | {r['p95_ms']} "
            f"| {r['p99_ms']} | {r['max_ms']} | {verdict} |"
        )
    return [*lines, ""]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--calls", type=int, default=CALLS, help="calls live at once")
    parser.add_argument("--turns", type=int, default=TURNS, help="lines each caller says")
    parser.add_argument("--budget-seconds", type=float, default=BUDGET_SECONDS)
    args = parser.parse_args(argv)
    if not 1 <= args.calls <= 200 or not 1 <= args.turns <= 50:
        parser.error("calls must be 1-200 and turns 1-50")
    backend = Backend(args.db)
    try:
        with tempfile.TemporaryDirectory(prefix="homebase-bench-voice-") as directory:
            result = measure(backend, Path(directory), args.calls, args.turns, args.budget_seconds)
    finally:
        backend.cleanup()
    print("\n" + "\n".join(report([result])))
    return result


if __name__ == "__main__":
    main()
