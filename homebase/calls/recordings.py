"""Recording links and storage.

A link is `{public_url}/recordings/{token}`, signed by kit/links.py under the purpose
"recording-link": it carries the workspace, the call and the expiry (five minutes after
issue), works without a credential (a browser or audio player fetches it), can't be moved
to another call or workspace, and can't be extended. The audio is read from
HOMEBASE_RECORDINGS_DIR, which holds files by the relative key each call records.
"""

import asyncio
import math
import struct
import wave
from datetime import datetime
from pathlib import Path

from homebase.kit.keys import Keyring
from homebase.kit.links import LINK_TTL, LinkClaim, LinkKind, SignedLink, resolve

__all__ = ["LINK_TTL", "LinkClaim", "RecordingLink", "issue", "resolve", "verify"]

RecordingLink = SignedLink
LINKS = LinkKind(purpose="recording-link", route="recordings")


def issue(
    keys: Keyring, public_url: str, workspace_id: str, call_id: str, now: datetime
) -> RecordingLink:
    return LINKS.issue(keys, public_url, workspace_id, call_id, now)


def verify(keys: Keyring, token: str) -> LinkClaim | None:
    """The claim of an intact token (expired or not; its subject_id is the call), or None
    when malformed or altered."""
    return LINKS.verify(keys, token)


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
