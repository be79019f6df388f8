"""Recording links and storage.

A link is `{public_url}/recordings/{token}`: the token carries the workspace, the call and
the expiry (five minutes after issue), HMAC-signed with the service secret under its own
purpose, so it works without a credential (a browser or audio player fetches it), can't be
moved to another call or workspace, and can't be extended. The audio is read from
HOMEBASE_RECORDINGS_DIR, which holds files by the relative key each call records.
"""

import asyncio
import math
import struct
import wave
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from homebase.kit.crypto import open_signed_blob, signed_blob
from homebase.kit.keys import Keyring

LINK_TTL = timedelta(minutes=5)
_PURPOSE = "recording-link"
_SEPARATOR = "\x1f"


@dataclass(frozen=True)
class RecordingLink:
    url: str
    expires_at: datetime


@dataclass(frozen=True)
class LinkClaim:
    workspace_id: str
    call_id: str
    expires_at: datetime


def issue(
    keys: Keyring, public_url: str, workspace_id: str, call_id: str, now: datetime
) -> RecordingLink:
    # Whole seconds, rounded up, so a link never lives less than the full five minutes.
    expires = math.ceil((now + LINK_TTL).timestamp())
    expires_at = datetime.fromtimestamp(expires, UTC)
    payload = _SEPARATOR.join([workspace_id, call_id, str(expires)])
    token = signed_blob(keys, _PURPOSE, payload.encode(), mac_bytes=16)
    return RecordingLink(f"{public_url.rstrip('/')}/recordings/{token}", expires_at)


def verify(keys: Keyring, token: str) -> LinkClaim | None:
    """The claim of an intact token (expired or not), or None when malformed or altered."""
    if len(token) > 512:
        return None
    payload = open_signed_blob(keys, _PURPOSE, token, mac_bytes=16)
    if payload is None:
        return None
    try:
        workspace_id, call_id, expires = payload.decode().split(_SEPARATOR)
        expires_at = datetime.fromtimestamp(int(expires), UTC)
    except (ValueError, UnicodeDecodeError, OverflowError, OSError):
        return None
    return LinkClaim(workspace_id, call_id, expires_at)


def resolve(root: Path, key: str) -> Path | None:
    """The stored file for a key, never a path outside the storage folder."""
    base = root.resolve()
    path = (base / key).resolve()
    if base != path and base not in path.parents:
        return None
    return path


MEDIA_TYPES = {
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".m4a": "audio/mp4",
    ".ogg": "audio/ogg",
    ".opus": "audio/ogg",
    ".webm": "audio/webm",
}


def media_type(path: Path) -> str:
    return MEDIA_TYPES.get(path.suffix.lower(), "application/octet-stream")


def _write_tone(path: Path, seconds: int, rate: int = 8000) -> None:
    """A small 16-bit mono WAV (a soft two-tone chime), so demo calls have real audio."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frames = bytearray()
    for index in range(seconds * rate):
        frequency = 440 if (index // (rate // 2)) % 2 == 0 else 660
        sample = int(6000 * math.sin(2 * math.pi * frequency * index / rate))
        frames += struct.pack("<h", sample)
    with wave.open(str(path), "wb") as output:
        output.setnchannels(1)
        output.setsampwidth(2)
        output.setframerate(rate)
        output.writeframes(bytes(frames))


async def write_tone(root: Path, key: str, seconds: int) -> None:
    path = resolve(root, key)
    if path is None:
        raise ValueError("recording key outside the storage folder")
    await asyncio.to_thread(_write_tone, path, seconds)
