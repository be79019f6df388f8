"""Calls through the provider: HOMEBASE_VOICE_PROVIDER = twilio | local (docs/voice.md).

`twilio` speaks Twilio's Programmable Voice REST API at HOMEBASE_TWILIO_BASE_URL with the
SMS provider's account and token (HTTP Basic auth):

- place: POST /2010-04-01/Accounts/{sid}/Calls.json, form To, From, Twiml, StatusCallback
  (+ StatusCallbackEvent initiated, ringing, answered, completed), MachineDetection
  DetectMessageEnd with AsyncAmd true and AsyncAmdStatusCallback: the call connects at
  once (the greeting is not delayed), and the machine verdict arrives later, after a
  machine's greeting has ended, which is when a voicemail is left.
- update: POST .../Calls/{CallSid}.json with Twiml (a voicemail) or Status=completed.
- record: POST .../Calls/{CallSid}/Recordings.json with RecordingStatusCallback: the
  recording starts when the relay asks, after the disclosure was spoken.
- fetch a recording: GET .../Recordings/{RecordingSid}.wav; delete: DELETE
  .../Recordings/{RecordingSid}.json (erasure).

Failing to connect is NOT_SENT (the request never left: the call may be placed later);
any later transport error is UNKNOWN (the provider may have placed it): never placed
again, as a message send is never sent twice (providers/base.py).

`local` places nothing: it records the requests in this process (RECORDED) and answers
as the provider would, so `make run` and the demo work offline.
"""

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

import httpx

from homebase.calls.recordings import _write_tone
from homebase.config import Settings
from homebase.kit.ids import new_id
from homebase.providers.base import NOT_SENT, UNKNOWN

log = logging.getLogger("homebase.voice")
STATUS_EVENTS = ("initiated", "ringing", "answered", "completed")


@dataclass(frozen=True)
class PlaceRequest:
    to: str
    from_: str
    twiml: str
    status_callback: str
    amd_callback: str


@dataclass(frozen=True)
class PlaceResult:
    accepted: bool
    sid: str | None = None
    error: str | None = None
    failure: str | None = None  # NOT_SENT, UNKNOWN, or None: the provider refused it


@dataclass
class LocalRecord:
    """What the local stand-in was asked, newest last (for tests and the demo)."""

    placed: deque[PlaceRequest] = field(default_factory=lambda: deque(maxlen=200))
    updates: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=200))
    deleted: deque[str] = field(default_factory=lambda: deque(maxlen=200))


RECORDED = LocalRecord()


class VoiceProvider(Protocol):
    name: str

    async def place(self, request: PlaceRequest) -> PlaceResult: ...

    async def update(self, sid: str, *, twiml: str | None = None) -> bool: ...

    async def start_recording(self, sid: str, callback: str) -> str | None: ...

    async def fetch_recording(self, recording_sid: str) -> bytes | None: ...

    async def delete_recording(self, recording_sid: str) -> bool: ...


class TwilioVoice:
    name = "twilio"

    def __init__(self, settings: Settings):
        self.settings = settings

    @property
    def base(self) -> str:
        account = self.settings.twilio_account_sid
        return f"{self.settings.twilio_base_url.rstrip('/')}/2010-04-01/Accounts/{account}"

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            timeout=self.settings.messaging_provider_timeout_seconds,
            auth=(self.settings.twilio_account_sid, self.settings.twilio_auth_token),
        )

    async def place(self, request: PlaceRequest) -> PlaceResult:
        form: dict[str, str | list[str]] = {
            "To": request.to,
            "From": request.from_,
            "Twiml": request.twiml,
            "StatusCallback": request.status_callback,
            "StatusCallbackMethod": "POST",
            "StatusCallbackEvent": list(STATUS_EVENTS),
            "MachineDetection": "DetectMessageEnd",
            "AsyncAmd": "true",
            "AsyncAmdStatusCallback": request.amd_callback,
            "AsyncAmdStatusCallbackMethod": "POST",
        }
        try:
            async with self._client() as client:
                response = await client.post(f"{self.base}/Calls.json", data=form)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as error:
            return PlaceResult(False, error=f"twilio unreachable: {error}"[:500], failure=NOT_SENT)
        except httpx.HTTPError as error:
            return PlaceResult(False, error=f"twilio answer lost: {error}"[:500], failure=UNKNOWN)
        payload = _json(response)
        if response.is_success and payload.get("sid"):
            return PlaceResult(True, sid=str(payload["sid"]))
        detail = payload.get("message") or response.reason_phrase or "no reason given"
        return PlaceResult(False, error=f"twilio HTTP {response.status_code}: {detail}"[:500])

    async def update(self, sid: str, *, twiml: str | None = None) -> bool:
        form = {"Twiml": twiml} if twiml is not None else {"Status": "completed"}
        try:
            async with self._client() as client:
                response = await client.post(f"{self.base}/Calls/{sid}.json", data=form)
        except httpx.HTTPError as error:
            log.warning("voice: updating call %s failed: %s", sid, error)
            return False
        return response.is_success

    async def start_recording(self, sid: str, callback: str) -> str | None:
        form = {
            "RecordingStatusCallback": callback,
            "RecordingStatusCallbackEvent": "completed",
            "RecordingStatusCallbackMethod": "POST",
        }
        try:
            async with self._client() as client:
                response = await client.post(f"{self.base}/Calls/{sid}/Recordings.json", data=form)
        except httpx.HTTPError as error:
            log.warning("voice: starting the recording of %s failed: %s", sid, error)
            return None
        payload = _json(response)
        return str(payload["sid"]) if response.is_success and payload.get("sid") else None

    async def fetch_recording(self, recording_sid: str) -> bytes | None:
        try:
            async with self._client() as client:
                response = await client.get(f"{self.base}/Recordings/{recording_sid}.wav")
        except httpx.HTTPError as error:
            log.warning("voice: fetching recording %s failed: %s", recording_sid, error)
            return None
        return response.content if response.is_success else None

    async def delete_recording(self, recording_sid: str) -> bool:
        try:
            async with self._client() as client:
                response = await client.delete(f"{self.base}/Recordings/{recording_sid}.json")
        except httpx.HTTPError as error:
            log.warning("voice: deleting recording %s failed: %s", recording_sid, error)
            return False
        return response.is_success or response.status_code == 404  # gone is deleted


def _json(response: httpx.Response) -> dict[str, object]:
    try:
        payload = response.json()
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


class LocalVoice:
    """The in-process stand-in (HOMEBASE_VOICE_PROVIDER=local)."""

    name = "local"

    async def place(self, request: PlaceRequest) -> PlaceResult:
        RECORDED.placed.append(request)
        return PlaceResult(True, sid="CA" + new_id("loc").replace("_", ""))

    async def update(self, sid: str, *, twiml: str | None = None) -> bool:
        RECORDED.updates.append((sid, twiml or "completed"))
        return True

    async def start_recording(self, sid: str, callback: str) -> str | None:
        return "RE" + new_id("loc").replace("_", "")

    async def fetch_recording(self, recording_sid: str) -> bytes | None:
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "tone.wav"
            _write_tone(path, 1)
            return path.read_bytes()

    async def delete_recording(self, recording_sid: str) -> bool:
        RECORDED.deleted.append(recording_sid)
        return True


def voice_provider_for(settings: Settings) -> VoiceProvider:
    return TwilioVoice(settings) if settings.voice_provider == "twilio" else LocalVoice()
