"""Check that a webhook delivery came from Homebase, for receivers (written by hand:
`make client` regenerates homebase_client/ beside this file and never touches it).

Every delivery is signed with the subscription's secret (`whsec_...`, shown once when the
subscription is created) in two ways:

- `X-Webhook-Signature: sha256=<hex>`: HMAC-SHA256 of the exact raw body, keyed by the
  secret's UTF-8 bytes;
- Standard Webhooks (standardwebhooks.com): `webhook-id` (the event id), `webhook-timestamp`
  (Unix seconds of the attempt) and `webhook-signature: v1,<base64>`, HMAC-SHA256 of
  `<webhook-id>.<webhook-timestamp>.<raw body>` keyed by the base64 decoding of the secret
  after `whsec_`. Any Standard Webhooks library checks these given the secret unchanged.

`verify` checks both and refuses a `webhook-timestamp` further than a tolerance (five
minutes by default) from now, so a captured delivery cannot be replayed later. Hash the
raw bytes as received, never a re-serialised object. Standard library only.

    from homebase_webhooks import SignatureMismatch, verify

    try:
        verify(secret, raw_body, request.headers)
    except SignatureMismatch:
        return 400  # not from Homebase, altered, or too old
"""

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Mapping

__all__ = ["DEFAULT_TOLERANCE_SECONDS", "SignatureMismatch", "sign", "sign_standard", "verify"]

PREFIX = "sha256="
DEFAULT_TOLERANCE_SECONDS = 300
SIGNATURE = "X-Webhook-Signature"
MESSAGE_ID = "webhook-id"
TIMESTAMP = "webhook-timestamp"
STANDARD_SIGNATURE = "webhook-signature"


class SignatureMismatch(ValueError):
    """The delivery is not authentic, was altered, or its timestamp is outside the window."""


def sign(secret: str | bytes, message: bytes) -> str:
    """`sha256=` + hex HMAC-SHA256 of `message` (the raw body), keyed by the secret."""
    key = secret.encode() if isinstance(secret, str) else secret
    return PREFIX + hmac.new(key, message, hashlib.sha256).hexdigest()


def sign_standard(secret: str, message_id: str, timestamp: str, body: bytes) -> str:
    """`v1,` + base64 HMAC-SHA256 of `<message_id>.<timestamp>.<body>`; the key is the
    base64 decoding of what follows `whsec_` (a secret of any other form: its own bytes)."""
    key = b""
    if secret.startswith("whsec_"):
        try:
            key = base64.b64decode(secret[len("whsec_"):], validate=True)
        except binascii.Error:
            pass
    digest = hmac.new(key or secret.encode(), f"{message_id}.{timestamp}.".encode() + body,
                      hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify(secret: str | bytes, body: bytes, headers: Mapping[str, str], *,
           tolerance_seconds: float | None = DEFAULT_TOLERANCE_SECONDS,
           now: float | None = None) -> None:
    """Return if `body` (the raw bytes received) and `headers` are an authentic delivery;
    raise SignatureMismatch otherwise.

    `headers` is any mapping of the request's headers (names in any case). With
    `tolerance_seconds` (default 300) the Standard Webhooks signature is required too and
    `webhook-timestamp` must lie within that many seconds of `now` (default: the current
    time), in either direction. `tolerance_seconds=None` checks only the plain body
    signature, which does not protect against replays.
    """
    if not isinstance(body, bytes | bytearray | memoryview):
        raise TypeError("body must be the raw bytes received, not a decoded or parsed body")
    body = bytes(body)
    secret = secret.decode() if isinstance(secret, bytes) else secret
    if not _same(_header(headers, SIGNATURE), sign(secret, body)):
        raise SignatureMismatch(f"{SIGNATURE} does not match the body")
    if tolerance_seconds is None:
        return
    if tolerance_seconds < 0:
        raise ValueError("tolerance_seconds must be zero or more")
    message_id, timestamp = _header(headers, MESSAGE_ID), _header(headers, TIMESTAMP)
    if not message_id:
        raise SignatureMismatch(f"{MESSAGE_ID} is missing")
    # ASCII digits only: "²".isdigit() is true and int() would refuse it.
    if not (timestamp.isascii() and timestamp.isdigit()):
        raise SignatureMismatch(f"{TIMESTAMP} is missing or not Unix seconds")
    expected = sign_standard(secret, message_id, timestamp, body)
    # Space-separated `v1,<base64>` entries (several while a secret rotates): one must match.
    if not any(_same(sent, expected) for sent in _header(headers, STANDARD_SIGNATURE).split()):
        raise SignatureMismatch(f"{STANDARD_SIGNATURE} does not match")
    age = (time.time() if now is None else now) - int(timestamp)
    if abs(age) > tolerance_seconds:
        raise SignatureMismatch(f"{TIMESTAMP} is {age:.0f} s from now; at most "
                                f"{tolerance_seconds:g} s is accepted")


def _same(received: str, expected: str) -> bool:
    # Constant time: the comparison must not reveal how much of a forged value was right.
    return hmac.compare_digest(received.encode("utf-8", "surrogatepass"), expected.encode())


def _header(headers: Mapping[str, str], name: str) -> str:
    value = headers.get(name)
    if value is None:
        wanted = name.lower()
        value = next((found for key, found in headers.items() if key.lower() == wanted), "")
    return value.strip()
