"""The provider's side of AI calls, outside /v1 and without an API credential: each
request is signed by the provider (X-Twilio-Signature: HMAC-SHA1 keyed by
HOMEBASE_TWILIO_AUTH_TOKEN over the address it was given, HOMEBASE_PUBLIC_URL's, and the
form's parameters; providers/signing.py), and a wrong or missing one is refused.

- WS   /providers/voice/relay      ConversationRelay's WebSocket (voice/conversation.py);
                                   the handshake's signature is over the wss:// address
- POST /providers/voice/action     `<Connect action>`: handoffData -> the next TwiML
- POST /providers/voice/status     call status; a terminal one finishes the call
- POST /providers/voice/machine    answering-machine detection's verdict (async AMD)
- POST /providers/voice/recording  a recording is ready: fetched into storage
- POST /providers/voice/inbound    a call to a workspace's voice number: answered by the AI
"""

import asyncio
import json
import logging
from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.requests import Request
from starlette.responses import Response

from homebase.ai import service as ai_service
from homebase.ai.handoff import Handoff
from homebase.automations.records import PersonaRecord
from homebase.calls import repository as calls_repository
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts_service
from homebase.contacts.schemas import ContactCreate
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ApiError, NotFound
from homebase.kit.phones import to_e164
from homebase.models import Persona
from homebase.providers import signing
from homebase.runtime import Runtime, get_runtime
from homebase.voice import finish, repository, service, twiml
from homebase.voice.conversation import Conversation, Ended
from homebase.voice.provider import voice_provider_for
from homebase.voice.records import Outgoing, VoiceCallRecord

router = APIRouter(tags=["voice"], include_in_schema=False)
log = logging.getLogger("homebase.voice")
personas = Persona.__table__
# The relay's sessions live in this process: a machine verdict or SIGTERM finds them here.
LIVE: dict[str, Conversation] = {}
GOODBYE_SHUTDOWN = "I'm sorry, I have to go now. Someone from the team will call you back."
ENDING_SECONDS = 5.0  # of a drain's time, kept for ending the calls still live politely

DRAINING = service.DRAINING


async def drain(within: float = 30.0) -> int:
    """serve's SIGTERM: no new calls (the relay refuses its handshake, an inbound call is
    hung up, the worker places none), the live ones may finish; those still live when
    ENDING_SECONDS of `within` are left end politely (a `shutdown` handoff). Returns how
    many were ended."""
    DRAINING.on = True
    await _until_no_call_is_live(max(0.0, within - ENDING_SECONDS))
    live = list(LIVE.values())
    for conversation in live:
        await conversation.end(Ended("handoff", "shutdown"), GOODBYE_SHUTDOWN)
    await _until_no_call_is_live(min(ENDING_SECONDS, within))
    return len(live)


_EMPTIED: list[asyncio.Event] = []  # drains waiting for the last live call to go


async def _until_no_call_is_live(seconds: float) -> None:
    if not LIVE:
        return
    emptied = asyncio.Event()
    _EMPTIED.append(emptied)
    try:
        await asyncio.wait_for(emptied.wait(), seconds)
    except TimeoutError:
        pass
    finally:
        _EMPTIED.remove(emptied)


class InvalidSignature(ApiError):
    status = 403
    code = "invalid_signature"
    message = "The X-Twilio-Signature header is missing or does not match."


def _xml(body: str) -> Response:
    return Response(body, media_type="application/xml")


async def _signed_form(request: Request) -> dict[str, str]:
    pairs = parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)
    settings = get_runtime(request).settings
    url = settings.public_url.rstrip("/") + request.url.path
    if request.url.query:
        url += "?" + request.url.query
    if not signing.valid(
        settings.twilio_auth_token, url, pairs, request.headers.get("x-twilio-signature")
    ):
        raise InvalidSignature()
    return dict(pairs)


async def _call(runtime: Runtime, call_id: str | None) -> tuple[str, str]:
    """(workspace id, call id) of the callback's `call`, or 404."""
    if call_id:
        async with runtime.db.transaction(write=False) as connection:
            workspace_id = await repository.locate(connection, call_id)
        if workspace_id is not None:
            return workspace_id, call_id
    raise NotFound("No such call.")


def _session(runtime: Runtime, connection: Any, workspace_id: str) -> TenantSession:
    return TenantSession(connection, workspace_id, clock=runtime.clock, actor="provider")


# -- the relay ----------------------------------------------------------------------------


def relay_signed_url(runtime: Runtime, query: str) -> str:
    base = service.relay_url(runtime.settings, "").split("?", 1)[0]
    return f"{base}?{query}" if query else base


@router.websocket("/providers/voice/relay")
async def relay(websocket: WebSocket) -> None:
    runtime = get_runtime(websocket)
    if DRAINING.on:
        await websocket.close(code=1013)  # shutting down: no new call here (403)
        return
    url = relay_signed_url(runtime, websocket.url.query)
    given = websocket.headers.get("x-twilio-signature")
    if not signing.valid(runtime.settings.twilio_auth_token, url, [], given):
        await websocket.close(code=1008)  # before accept: the handshake answers 403
        return
    try:
        workspace_id, call_id = await _call(runtime, websocket.query_params.get("call"))
    except NotFound:
        await websocket.close(code=1008)
        return
    async with runtime.db.transaction(write=False) as connection:
        row = await repository.get(_session(runtime, connection, workspace_id), call_id)
    if row is None or row["status"] not in repository.LIVE_STATUSES:
        await websocket.close(code=1008)  # a call never placed, or over: no conversation
        return
    await websocket.accept()

    async def send(message: Outgoing) -> None:
        try:
            await websocket.send_text(json.dumps(message))
        except (WebSocketDisconnect, RuntimeError):
            pass  # the caller hung up mid-sentence: the loop ends at its next receive

    conversation = Conversation(runtime, workspace_id, call_id, send)
    LIVE[call_id] = conversation
    recording: asyncio.Task[None] | None = None
    try:
        while conversation.ended is None:
            try:
                raw = await websocket.receive_text()
            except (WebSocketDisconnect, RuntimeError):  # hung up (seen here or on a send)
                break
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            if message.get("type") == "prompt" and recording is None:
                # The greeting (the disclosure) has been spoken: the recording starts now.
                recording = asyncio.create_task(_start_recording(runtime, workspace_id, call_id))
            await conversation.receive(message)
    finally:
        conversation.close()
        LIVE.pop(call_id, None)
        if not LIVE:
            for emptied in _EMPTIED:
                emptied.set()
        if conversation.ended is None:
            await conversation.save()
        if recording is not None:
            await asyncio.gather(recording, return_exceptions=True)
    if conversation.ended is not None:
        try:
            await websocket.close()
        except RuntimeError:
            pass


async def _start_recording(runtime: Runtime, workspace_id: str, call_id: str) -> None:
    async with runtime.db.transaction(write=False) as connection:
        row = await repository.get(_session(runtime, connection, workspace_id), call_id)
    if row is None or not row["provider_call_sid"]:
        return
    callback = service.public_url(runtime.settings, service.RECORDING_PATH, call_id=call_id)
    sid = await voice_provider_for(runtime.settings).start_recording(
        row["provider_call_sid"], callback
    )
    if sid is not None:
        async with runtime.db.transaction() as connection:
            session = _session(runtime, connection, workspace_id)
            await repository.update(session, call_id, recording_sid=sid)


# -- callbacks ----------------------------------------------------------------------------


@router.post("/providers/voice/action")
async def connect_action(request: Request) -> Response:
    """The relay ended: a transfer dials the owner's phone; anything else hangs up, and a
    handoff leaves the lead to a person (a task, the AI paused: ai/service.py)."""
    runtime = get_runtime(request)
    form = await _signed_form(request)
    workspace_id, call_id = await _call(runtime, request.query_params.get("call"))
    try:
        handoff = json.loads(form.get("HandoffData") or "{}")
    except ValueError:
        handoff = {}
    if not isinstance(handoff, dict):
        handoff = {}
    async with runtime.db.transaction() as connection:
        session = _session(runtime, connection, workspace_id)
        row = await repository.get(session, call_id)
        if row is None:
            raise NotFound("No such call.")
        if handoff and row["handoff"] is None:
            await repository.update(session, call_id, handoff=handoff)
        reason = handoff.get("reason")
        if reason == "transfer" and handoff.get("to"):
            ours = row["from_number"] if row["direction"] == "outbound" else row["to_number"]
            return _xml(twiml.dial(str(handoff["to"]), ours))
        if reason == "handoff":
            await _hand_off(session, row, str(handoff.get("detail") or "asked for a person"))
    return _xml(twiml.hangup())


async def _hand_off(session: TenantSession, row: VoiceCallRecord, detail: str) -> None:
    if row["contact_id"] is None or row["ai_job_id"] is None:
        return
    contact = await contacts_repository.get(session, row["contact_id"])
    persona_row = await session.fetch_one(
        session.select(personas).where(personas.c.id == row["persona_id"])
    )
    if contact is None or contact["anonymized_at"] is not None:
        return
    persona: PersonaRecord | None = persona_row  # type: ignore[assignment]
    reason, _, rest = detail.partition(": ")
    await ai_service._hand_off(  # noqa: SLF001 (the one handoff path, a call's too)
        session,
        contact,
        persona,
        Handoff(reason if reason else "asked_for_person", rest or None),
        cause=("ai_job_id", row["ai_job_id"]),
        texts=[line["text"] for line in row["transcript"] or [] if line["speaker"] == "lead"],
    )


@router.post("/providers/voice/status")
async def status_callback(request: Request) -> Response:
    runtime = get_runtime(request)
    form = await _signed_form(request)
    workspace_id, call_id = await _call(runtime, request.query_params.get("call"))
    status = form.get("CallStatus", "")
    async with runtime.db.transaction() as connection:
        session = _session(runtime, connection, workspace_id)
        row = await repository.get(session, call_id)
        if row is None:
            raise NotFound("No such call.")
        if form.get("CallSid") and not row["provider_call_sid"]:
            await repository.update(session, call_id, provider_call_sid=form["CallSid"][:64])
            row = {**row, "provider_call_sid": form["CallSid"][:64]}
        if status in finish.TERMINAL:
            duration = form.get("CallDuration")
            seconds = int(duration) if duration and duration.isdigit() else None
            # The record now, or, after a conversation, by the worker once the model has
            # summarised the call (voice/summaries.py): never a model call in here.
            if await finish.end(session, row, status, seconds) is not None:
                await finish.attach_stored(runtime.settings, session, call_id)
    return Response(status_code=204)


@router.post("/providers/voice/machine")
async def machine_callback(request: Request) -> Response:
    """Async AMD's verdict: on a machine, the persona's voicemail (the disclosure first)
    is left after the beep, or the call hangs up (the persona's `voicemail`)."""
    runtime = get_runtime(request)
    form = await _signed_form(request)
    workspace_id, call_id = await _call(runtime, request.query_params.get("call"))
    answered_by = form.get("AnsweredBy", "unknown")[:24]
    async with runtime.db.transaction() as connection:
        session = _session(runtime, connection, workspace_id)
        row = await repository.get(session, call_id)
        if row is None:
            raise NotFound("No such call.")
        await repository.update(session, call_id, answered_by=answered_by)
        if not (answered_by.startswith("machine") or answered_by == "fax"):
            return Response(status_code=204)
        persona_row = await session.fetch_one(
            session.select(personas).where(personas.c.id == row["persona_id"])
        )
        contact = (
            await contacts_repository.get(session, row["contact_id"]) if row["contact_id"] else None
        )
        leave = persona_row is not None and persona_row["voicemail"] == "leave"
        text = None
        if leave and persona_row is not None:
            persona: PersonaRecord = persona_row  # type: ignore[assignment]
            greeting = await service.greeting(
                session, contact, persona=persona, callback_number=row["from_number"]
            )
            text = service.voicemail_text(greeting, persona)
    live = LIVE.get(call_id)
    if live is not None:
        live.ended = live.ended or Ended("voicemail")
    sid = row["provider_call_sid"]
    if sid:
        provider = voice_provider_for(runtime.settings)
        await provider.update(sid, twiml=twiml.say_then_hangup(text) if text else None)
    return Response(status_code=204)


@router.post("/providers/voice/recording")
async def recording_callback(request: Request) -> Response:
    """The recording is ready: fetched from the provider into HOMEBASE_RECORDINGS_DIR and
    attached to the call record (or to it when it is made)."""
    runtime = get_runtime(request)
    form = await _signed_form(request)
    workspace_id, call_id = await _call(runtime, request.query_params.get("call"))
    recording_sid = form.get("RecordingSid", "")
    if form.get("RecordingStatus", "completed") != "completed" or not recording_sid:
        return Response(status_code=204)
    audio = await voice_provider_for(runtime.settings).fetch_recording(recording_sid)
    if audio is None:
        return Response(status_code=502)  # the provider tries the callback again
    key = await finish.store_recording(runtime.settings, workspace_id, call_id, audio)
    async with runtime.db.transaction() as connection:
        session = _session(runtime, connection, workspace_id)
        row = await repository.get(session, call_id)
        if row is None:
            raise NotFound("No such call.")
        await repository.update(session, call_id, recording_sid=recording_sid[:64])
        await finish.attach_recording(session, row, key)
    return Response(status_code=204)


@router.post("/providers/voice/inbound")
async def inbound_call(request: Request) -> Response:
    """A call to a workspace's voice number: answered by the AI as the workspace's voice
    persona (its responder when that one has voice on), with the same disclosure. The
    caller's own call is the consent to talk; the caller's number finds (or makes) the
    contact. No voice persona: the call is hung up."""
    runtime = get_runtime(request)
    form = await _signed_form(request)
    to, caller = to_e164(form.get("To", "")), to_e164(form.get("From", ""))
    if to is None or DRAINING.on:
        return _xml(twiml.hangup())
    async with runtime.db.transaction() as connection:
        owners = await repository.voice_owners(connection, to)
        if len(owners) != 1:
            return _xml(twiml.hangup())
        session = _session(runtime, connection, owners[0])
        persona_row = await session.fetch_one(
            session.select(personas)
            .where(personas.c.voice.is_(True))
            .order_by(personas.c.responder.desc(), personas.c.id)
            .limit(1)
        )
        if persona_row is None:
            return _xml(twiml.hangup())
        persona: PersonaRecord = persona_row  # type: ignore[assignment]
        contact = None
        if caller is not None:
            contact_id = await calls_repository.contact_by_phone(session, caller)
            if contact_id is None:
                made = await contacts_service.create_contact(
                    session, ContactCreate.model_validate({"phone": caller, "source": "Phone call"})
                )
                contact_id = made["id"]
            contact = await contacts_repository.get(session, contact_id)
        row = service.new_call(
            session,
            contact_id=contact["id"] if contact else None,
            persona_id=persona["id"],
            direction="inbound",
            reason="inbound",
            from_number=caller,
            to_number=to,
            status="placed",
            provider_call_sid=(form.get("CallSid") or "")[:64] or None,
            answered_by="human",
        )
        await repository.insert(session, row)
        greeting = await service.greeting(
            session, contact, persona=persona, callback_number=to, inbound=True
        )
    settings = runtime.settings
    return _xml(
        twiml.connect(
            service.public_url(settings, service.ACTION_PATH, call_id=row["id"]),
            service.relay_url(settings, row["id"]),
            greeting,
        )
    )
