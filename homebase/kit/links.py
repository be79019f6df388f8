"""Signed download links: `{public_url}/{route}/{token}`, where the token carries a
workspace, the id of what it opens and the expiry (five minutes after issue), HMAC-signed
with the service secret under the link's own purpose. So a link works without a
credential (a browser, an audio player or a download tool fetches it), can't be moved to
another object, workspace or kind of link, and can't be extended. Call recordings
(calls/recordings.py) and export files (exports/links.py) are served this way; a fresh
link comes with each read of the object.
"""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from homebase.kit.crypto import open_signed_blob, signed_blob
from homebase.kit.keys import Keyring

LINK_TTL = timedelta(minutes=5)
MAX_TOKEN_LENGTH = 512
_SEPARATOR = "\x1f"
_MAC_BYTES = 16


@dataclass(frozen=True)
class SignedLink:
    url: str
    expires_at: datetime


@dataclass(frozen=True)
class LinkClaim:
    workspace_id: str
    subject_id: str  # the call, the export: what the link opens
    expires_at: datetime


@dataclass(frozen=True)
class LinkKind:
    """One kind of link: its signing purpose (a token of one kind never opens another's)
    and the route it is served under, outside /v1."""

    purpose: str
    route: str

    def issue(
        self, keys: Keyring, public_url: str, workspace_id: str, subject_id: str, now: datetime
    ) -> SignedLink:
        # Whole seconds, rounded up, so a link never lives less than the full five minutes.
        expires = math.ceil((now + LINK_TTL).timestamp())
        expires_at = datetime.fromtimestamp(expires, UTC)
        payload = _SEPARATOR.join([workspace_id, subject_id, str(expires)])
        token = signed_blob(keys, self.purpose, payload.encode(), mac_bytes=_MAC_BYTES)
        return SignedLink(f"{public_url.rstrip('/')}/{self.route}/{token}", expires_at)

    def verify(self, keys: Keyring, token: str) -> LinkClaim | None:
        """The claim of an intact token (expired or not), or None when malformed or
        altered."""
        if len(token) > MAX_TOKEN_LENGTH:
            return None
        payload = open_signed_blob(keys, self.purpose, token, mac_bytes=_MAC_BYTES)
        if payload is None:
            return None
        try:
            workspace_id, subject_id, expires = payload.decode().split(_SEPARATOR)
            expires_at = datetime.fromtimestamp(int(expires), UTC)
        except (ValueError, UnicodeDecodeError, OverflowError, OSError):
            return None
        return LinkClaim(workspace_id, subject_id, expires_at)


def resolve(root: Path, key: str) -> Path | None:
    """The stored file for a relative key, never a path outside the storage folder."""
    base = root.resolve()
    path = (base / key).resolve()
    if base != path and base not in path.parents:
        return None
    return path
