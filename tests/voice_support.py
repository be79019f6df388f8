"""A local fake of Twilio Programmable Voice for the AI's calls, on real loopback sockets.

- `FakeTwilio` is the provider's REST API (a thread-served HTTP server): it accepts the
  Calls API (POST .../Calls.json: the TwiML, callbacks and machine detection it was
  given), call updates (a voicemail's TwiML, a hang-up), recordings (start, fetch as WAV,
  DELETE), and keeps every request.
- `Served` runs the app under uvicorn on 127.0.0.1 (a real HTTP and WebSocket server).
- `PhoneCall` is Twilio's side of one call: it opens the ConversationRelay WebSocket with
  a valid X-Twilio-Signature over the wss:// address the TwiML gave (HOMEBASE_PUBLIC_URL's
  host, which is never resolved: the socket goes to the loopback server, as behind a
  proxy), says scripted lines as `prompt`s, interrupts, and sends the signed callbacks.
"""

import asyncio
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from html import unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from homebase.calls.recordings import _write_tone
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.models import ConsentArtifact
from homebase.providers.signing import signature
from homebase.voice import service as voice_service
from tests.support import until

PUBLIC_URL = "https://voice.homebase.test"
TOKEN = "test-twilio-token"
ACCOUNT = "ACtest"
CALLEE_HEARD = 5.0  # seconds a test waits for the service to speak


def settings_for(fake: "FakeTwilio", **more: Any) -> dict[str, Any]:
    return {
        "voice_provider": "twilio",
        "twilio_base_url": fake.base_url,
        "twilio_account_sid": ACCOUNT,
        "twilio_auth_token": TOKEN,
        "public_url": PUBLIC_URL,
        **more,
    }


@dataclass
class Request:
    method: str
    path: str
    form: dict[str, list[str]]


@dataclass
class FakeTwilio:
    requests: list[Request] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    refuse_calls: bool = False
    deleted: list[str] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def placed(self) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.path.endswith("/Calls.json")]

    def updates(self) -> list[Request]:
        with self.lock:
            return [
                r
                for r in self.requests
                if re.search(r"/Calls/[^/]+\.json$", r.path) and r.method == "POST"
            ]

    def start(self) -> "FakeTwilio":
        fake = self
        tone = _tone_bytes()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self, status: int, body: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _record(self) -> Request:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                form: dict[str, list[str]] = {}
                for name, value in parse_qsl(raw.decode(), keep_blank_values=True):
                    form.setdefault(name, []).append(value)
                request = Request(self.command, self.path, form)
                with fake.lock:
                    fake.requests.append(request)
                return request

            def do_POST(self) -> None:  # noqa: N802
                request = self._record()
                if request.path.endswith("/Calls.json"):
                    if fake.refuse_calls:
                        self._answer(400, b'{"code": 21211, "message": "Invalid To number"}')
                        return
                    sid = "CA" + new_id("x").replace("_", "")[:32]
                    self._answer(201, json.dumps({"sid": sid, "status": "queued"}).encode())
                elif request.path.endswith("/Recordings.json"):
                    sid = "RE" + new_id("x").replace("_", "")[:32]
                    self._answer(201, json.dumps({"sid": sid}).encode())
                else:
                    self._answer(200, b'{"status": "in-progress"}')

            def do_GET(self) -> None:  # noqa: N802
                self._record()
                if self.path.endswith(".wav"):
                    self._answer(200, tone, "audio/x-wav")
                else:
                    self._answer(404, b"{}")

            def do_DELETE(self) -> None:  # noqa: N802
                self._record()
                with fake.lock:
                    fake.deleted.append(self.path.rsplit("/", 1)[-1].removesuffix(".json"))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()


def _tone_bytes() -> bytes:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tone.wav"
        _write_tone(path, 1)
        return path.read_bytes()


class Served:
    """The app under uvicorn on a loopback port (lifespan off: the test drives the worker)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.server: uvicorn.Server | None = None
        self.task: asyncio.Task[None] | None = None
        self.port = 0

    async def __aenter__(self) -> "Served":
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app, lifespan="off", log_level="warning", ws="websockets-sansio"
        )
        self.server = uvicorn.Server(config)
        self.task = asyncio.create_task(self.server.serve(sockets=[sock]))
        server = self.server
        await until(lambda: server.started, 30, every=0.01, what="uvicorn listening")
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None and self.task is not None
        self.server.should_exit = True
        await self.task

    def local(self, public: str) -> str:
        """The loopback address of a public one (what the proxy in front would do)."""
        parts = urlsplit(public)
        scheme = "ws" if parts.scheme in ("ws", "wss") else "http"
        query = f"?{parts.query}" if parts.query else ""
        return f"{scheme}://127.0.0.1:{self.port}{parts.path}{query}"


def attribute(twiml: str, name: str) -> str:
    found = re.search(rf'{name}="([^"]*)"', twiml)
    assert found, f"{name} not in {twiml}"
    return unescape(found.group(1))


class PhoneCall:
    """Twilio's side of one placed (or inbound) call: the TwiML it was given."""

    def __init__(self, served: Served, twiml: str, *, sid: str, status_callback: str | None):
        self.served = served
        self.twiml = twiml
        self.sid = sid
        self.relay_url = attribute(twiml, "url")
        self.action_url = attribute(twiml, "action")
        self.greeting = attribute(twiml, "welcomeGreeting")
        self.status_callback = status_callback
        self.socket: ClientConnection | None = None
        self.heard: list[dict[str, Any]] = []

    async def open(
        self, *, token: str = TOKEN, signed_url: str | None = None, setup: bool = True
    ) -> None:
        """The relay's WebSocket, then (`setup`) its first message."""
        header = signature(token, signed_url or self.relay_url, [])
        self.socket = await connect(
            self.served.local(self.relay_url),
            additional_headers={"X-Twilio-Signature": header},
        )
        if setup:
            await self.setup()

    async def setup(self) -> None:
        await self.send(
            {
                "type": "setup",
                "sessionId": "VX" + self.sid[2:],
                "callSid": self.sid,
                "direction": "outbound-api",
                "from": "+14155550100",
                "to": "+14155550142",
            }
        )

    async def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        await self.socket.send(json.dumps(message))

    async def say(self, words: str, *, ends: bool = False) -> list[dict[str, Any]]:
        """A caller's turn: partial then final prompts; what the AI answers, up to its
        `last` text token (or, when the turn `ends` the call, its `end`)."""
        await self.send({"type": "prompt", "voicePrompt": words[: len(words) // 2], "last": False})
        await self.send({"type": "prompt", "voicePrompt": words, "lang": "en-US", "last": True})
        return await self.listen(ends=ends)

    async def listen(self, within: float = CALLEE_HEARD, *, ends: bool = False) -> list[dict]:
        assert self.socket is not None
        got: list[dict[str, Any]] = []
        while True:
            raw = await asyncio.wait_for(self.socket.recv(), within)
            message = json.loads(raw)
            got.append(message)
            self.heard.append(message)
            if message["type"] == "end":
                return got
            if not ends and message["type"] == "text" and message.get("last"):
                return got

    async def interrupt(self, heard: str) -> None:
        await self.send(
            {"type": "interrupt", "utteranceUntilInterrupt": heard, "durationUntilInterruptMs": 900}
        )

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def post(self, public: str, form: dict[str, str]) -> httpx.Response:
        """A signed callback, as Twilio sends it: to the address it was given."""
        header = signature(TOKEN, public, form.items())
        async with httpx.AsyncClient() as client:
            return await client.post(
                self.served.local(public),
                data=form,
                headers={"X-Twilio-Signature": header},
            )

    async def connect_action(self, handoff_data: str | None) -> httpx.Response:
        form = {"CallSid": self.sid, "CallStatus": "in-progress"}
        if handoff_data is not None:
            form["HandoffData"] = handoff_data
        return await self.post(self.action_url, form)

    async def status(self, status: str, duration: int | None = None) -> httpx.Response:
        assert self.status_callback is not None
        form = {"CallSid": self.sid, "CallStatus": status}
        if duration is not None:
            form["CallDuration"] = str(duration)
        return await self.post(self.status_callback, form)


def placed_call(fake: FakeTwilio, served: Served, index: int = -1) -> PhoneCall:
    request = fake.placed()[index]
    return PhoneCall(
        served,
        request.form["Twiml"][0],
        sid="CA" + new_id("x").replace("_", "")[:32],
        status_callback=request.form["StatusCallback"][0],
    )


def callback_url(path: str, call_id: str) -> str:
    return f"{PUBLIC_URL}{path}?{urlencode({'call': call_id})}"


async def voice_consent(runtime, tenant, phone_e164: str, *, days: int = 365) -> None:
    """A consent artifact whose person agreed to AI calls (ai_voice true)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await session.insert(
            ConsentArtifact.__table__,
            {
                "id": new_id("cns"),
                "phone": phone_e164,
                "phone_e164": phone_e164,
                "lead_id": None,
                "captured_at": now - timedelta(days=1),
                "source_url": None,
                "ip": None,
                "form_snapshot": None,
                "recorded_at": now,
                "expires_at": now + timedelta(days=days),
                "revoked_at": None,
                "ai_voice": True,
            },
        )


__all__ = ["voice_service"]


# -- a workspace whose AI calls ------------------------------------------------------------

OWNER_PHONE = "+14155550177"
ALL_WEEK = {day: ["00:00", "23:59"] for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}


async def voice_workspace(
    runtime,
    tenant,
    *,
    consent: bool = True,
    owner_phone: str | None = OWNER_PHONE,
    acting: bool = False,
    **persona: Any,
) -> str:
    """A voice number, a responder persona with voice on, a contact (Dana, PHONE) owned by
    a member with a phone, and AI-voice consent on file; returns the contact's id."""
    from homebase.workspaces import service as workspaces
    from tests.acting_support import acting_workspace
    from tests.automations_support import PHONE
    from tests.messaging_support import SENDER
    from tests.responder_support import responder_workspace

    settings = {"voice": True, **persona}
    if acting:
        contact_id, _ = await acting_workspace(runtime, tenant, **settings)
    else:
        contact_id = await responder_workspace(runtime, tenant, consent=False, **settings)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await workspaces.add_sender_number(
            session, number=SENDER, channel="sms", a2p_status="approved", voice=True
        )
        if owner_phone is not None:
            owner = (await tenant.get(f"/v1/contacts/{contact_id}")).json()["owner_id"]
            if owner:
                users = workspaces.users
                await session.execute(
                    session.update(users).where(users.c.id == owner).values(phone=owner_phone)
                )
    if consent:
        await voice_consent(runtime, tenant, PHONE)
    return contact_id


async def ask_for_call(runtime, tenant, contact_id: str, reason: str = "first_touch") -> dict:
    """service.place_ai_call for the contact as the workspace's responder persona."""
    from homebase.ai import repository as ai_repository
    from homebase.contacts import repository as contacts_repository
    from homebase.models import Persona
    from homebase.voice.service import place_ai_call

    table = Persona.__table__
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        contact = await contacts_repository.get(session, contact_id)
        persona_row = await session.fetch_one(
            session.select(table, table.c.id).where(table.c.responder.is_(True))
        )
        persona = await ai_repository.persona(session, persona_row["id"])
        return dict(await place_ai_call(session, contact, persona=persona, reason=reason))


async def voice_calls(runtime, tenant) -> list[dict]:
    from sqlalchemy import select

    from homebase.models import VoiceCall

    table = VoiceCall.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table).where(table.c.workspace_id == tenant.id).order_by(table.c.id)
        )
        return [dict(row) for row in rows.mappings()]


# -- after the call: the model's summary, by the worker --------------------------------------

MODEL_SUMMARY = (
    "Wants: a condo near downtown\n"
    "Learned: buying within three months\n"
    "Promised: a call back from Agent"
)


async def summarized(runtime, chat_server, text: str = MODEL_SUMMARY) -> None:
    """The model's summary scripted on the chat server, then the worker's rounds until
    nothing is left: a call the lead talked on gets its record from the worker, once the
    model has summarised it (voice/summaries.py)."""
    from tests.responder_support import drive

    chat_server.respond_with(json_object={"summary": text})
    await drive(runtime)


def summary_requests(chat_server) -> list:
    """The chat server's requests that asked for a call's summary."""
    return [
        request
        for request in chat_server.recorded()
        if "finished a phone call" in request.body["messages"][0]["content"]
    ]
