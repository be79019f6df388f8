"""The AI's voice turn (`python -m bench.voice [--calls N] [--turns T]`), docs/voice.md.

A voice turn is the service's own time from a caller's final `prompt` arriving on the
ConversationRelay WebSocket to the first `text` token going out: the turn's reads, the
model (the offline stand-in, HOMEBASE_AI_PROVIDER=local, answering at once), the
sentence checks and the transcript's write. The app is served by uvicorn on loopback in
this process, on a fresh SQLite file; N calls (default 20) are live at once, each a real
WebSocket client with a valid X-Twilio-Signature (the stand-in Twilio's side of a call),
and each says T lines (default 5), waiting for the AI's last token before the next.
The calls are seeded as placed (the Calls API is not what is timed).

Target (the requirement's): p50 under 300 ms and p99 under 800 ms over 20 concurrent
calls. Prints one Markdown table; every wait has a deadline.
"""

import argparse
import asyncio
import json
import socket
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import uvicorn
from websockets.asyncio.client import connect

from homebase.config import Settings
from homebase.db.engine import Database
from homebase.db.migrate import upgrade
from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.ids import new_id
from homebase.models import ConsentArtifact, VoiceCall
from homebase.providers.signing import signature
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from homebase.voice import service as voice_service
from homebase.workspaces import service as workspaces

TOKEN = "bench-twilio-token"
PUBLIC_URL = "https://voice.bench.test"
SENDER = "+14155550100"
LINES = (
    "Hi, who is this?",
    "I'm looking for a condo in the Mission",
    "What's the price of the one on Elm?",
    "We're buying in the next three months",
    "Thanks, that's all for now",
)
DEADLINE = 30.0  # seconds any one answer may take before the run fails


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def seed(runtime: Runtime, calls: int) -> tuple[str, list[str]]:
    """A workspace with a voice persona and number and `calls` placed calls."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        workspace = await workspaces.create_workspace(connection, "Bench Voice", now=now)
        session = TenantSession(connection, workspace["id"], clock=runtime.clock, actor="admin")
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
    return workspace["id"], ids


async def one_call(port: int, settings: Settings, call_id: str, turns: int) -> list[float]:
    public = voice_service.relay_url(settings, call_id)
    path = public.split("://", 1)[1].split("/", 1)[1]  # providers/voice/relay?call=...
    local = f"ws://127.0.0.1:{port}/{path}"
    headers = {"X-Twilio-Signature": signature(TOKEN, public, [])}
    seconds: list[float] = []
    async with connect(local, additional_headers=headers) as websocket:
        await websocket.send(json.dumps({"type": "setup", "callSid": "CA" + call_id[4:]}))
        for index in range(turns):
            line = LINES[index % len(LINES)]
            partial = {"type": "prompt", "voicePrompt": line[:5], "last": False}
            await websocket.send(json.dumps(partial))
            started = time.perf_counter()
            await websocket.send(json.dumps({"type": "prompt", "voicePrompt": line, "last": True}))
            first = None
            while True:
                message = json.loads(await asyncio.wait_for(websocket.recv(), DEADLINE))
                if first is None and message["type"] == "text":
                    first = time.perf_counter() - started
                if message["type"] == "end" or message.get("last"):
                    break
            if first is not None:
                seconds.append(first)
            if message["type"] == "end":
                break
    return seconds


async def main(calls: int, turns: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    url = f"sqlite+aiosqlite:///{folder / 'voice.sqlite3'}"
    await upgrade(url)
    settings = Settings(
        env="test",
        database_url=url,
        secret_key="bench-voice-secret-key-0123456789",
        public_url=PUBLIC_URL,
        twilio_auth_token=TOKEN,
        voice_provider="local",
        ai_provider="local",
        recordings_dir=folder / "recordings",
    )
    runtime = Runtime(settings=settings, db=Database(url, pool_size=4), limiter=MemoryLimiter())
    runtime.clock = lambda: datetime.now(UTC)
    _, ids = await seed(runtime, calls)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(runtime), lifespan="off", log_level="warning", ws="auto")
    )
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        await asyncio.wait_for(_started(server), DEADLINE)
        results = await asyncio.gather(*(one_call(port, settings, one, turns) for one in ids))
    finally:
        server.should_exit = True
        await serving
        await runtime.close()
    every = [value for result in results for value in result]
    return {
        "turns": len(every),
        "p50_ms": percentile(every, 0.5) * 1000,
        "p99_ms": percentile(every, 0.99) * 1000,
        "max_ms": max(every) * 1000,
    }


async def _started(server: uvicorn.Server) -> None:
    while not server.started:  # noqa: ASYNC110 (uvicorn's flag: no event to wait on)
        await asyncio.sleep(0.01)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--turns", type=int, default=5)
    options = parser.parse_args()
    figures = asyncio.run(main(options.calls, options.turns))
    print("| calls | turns | p50 ms | p99 ms | max ms | target |")
    print("|---|---|---|---|---|---|")
    met = figures["p50_ms"] < 300 and figures["p99_ms"] < 800
    print(
        f"| {options.calls} | {int(figures['turns'])} | {figures['p50_ms']:.0f} | "
        f"{figures['p99_ms']:.0f} | {figures['max_ms']:.0f} | "
        f"p50 < 300, p99 < 800: {'met' if met else 'missed'} |"
    )
