"""Webhook signatures, and the helper receivers use to check them (docs/webhooks.md).

Every delivery is signed twice over, keyed by the subscription secret:

- `X-Webhook-Signature: sha256=<hex>`: HMAC-SHA256 of the exact raw body, keyed by the
  secret's UTF-8 bytes (the spec's; the same format as GitHub's X-Hub-Signature-256).
- Standard Webhooks (standardwebhooks.com): `webhook-id` (the event id, the same on
  every attempt), `webhook-timestamp` (Unix seconds of this attempt) and
  `webhook-signature: v1,<base64>`: HMAC-SHA256 of `<id>.<timestamp>.<raw body>`, keyed by
  `standard_key(secret)`. A receiver passes the secret it was shown to any Standard
  Webhooks library (`Webhook(secret).verify(body, headers)`), which checks the signature
  and refuses a timestamp more than five minutes from now.

Until LEGACY_SUNSET the older replay-protected pair goes along too: `X-Webhook-Timestamp`
and `X-Webhook-Signature-Timestamped: sha256=<hex>` over `<timestamp>.<raw body>` (keyed as
the plain signature). From that date on, attempts no longer carry it.

This module needs nothing but the standard library, so receivers may copy it.
"""

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Mapping
from datetime import UTC, datetime

PREFIX = "sha256="
SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE_SECONDS = 300
# The first instant at which attempts stop carrying X-Webhook-Timestamp and
# X-Webhook-Signature-Timestamped (docs/webhooks.md, "Signatures").
LEGACY_SUNSET = datetime(2027, 6, 1, tzinfo=UTC)


class SignatureMismatch(ValueError):
    """The delivery is not authentic, or its timestamp is too old or too new."""


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks key of a secret: the base64 decoding of what follows `whsec_`.

    Every secret Homebase makes is `whsec_` and 40 characters of A-Z, a-z, 0-9: valid
    base64 of 30 bytes, so the secret as shown is what a Standard Webhooks library takes.
    A secret of another form (none is made; a hand-made row could hold one) is keyed by
    its own UTF-8 bytes, so nothing fails to sign: its receivers pass
    `whsec_` + base64(secret)."""
    if secret.startswith(SECRET_PREFIX):
        try:
            key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
        except binascii.Error:
            key = b""
        if key:
            return key
    return secret.encode()


def signature(secret: str, body: bytes) -> str:
    return PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def timestamped_signature(secret: str, timestamp: int | str, body: bytes) -> str:
    return signature(secret, str(timestamp).encode() + b"." + body)


def standard_signature(secret: str, message_id: str, timestamp: int | str, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(standard_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signature_headers(secret: str, body: bytes, event_id: str, now: datetime) -> dict[str, str]:
    """The signing headers of one attempt made at `now` (the attempt's clock)."""
    timestamp = int(now.timestamp())
    headers = {
        "X-Webhook-Signature": signature(secret, body),
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": standard_signature(secret, event_id, timestamp, body),
    }
    if now < LEGACY_SUNSET:
        headers["X-Webhook-Timestamp"] = str(timestamp)
        headers["X-Webhook-Signature-Timestamped"] = timestamped_signature(secret, timestamp, body)
    return headers


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value.strip()
    return ""


def _same(received: str, expected: str) -> bool:
    # Constant time; as UTF-8 bytes, since compare_digest refuses non-ASCII str.
    return hmac.compare_digest(
        received.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


def verify(
    secret: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    tolerance_seconds: float | None = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> None:
    """Raise SignatureMismatch unless `body` (the raw bytes received) is authentic.

    With a tolerance (the default, five minutes) the Standard Webhooks signature is
    checked too and a delivery whose `webhook-timestamp` is further than that from `now`
    is refused; with `tolerance_seconds=None` only the spec's plain body signature is.
    """
    if not _same(_header(headers, "X-Webhook-Signature"), signature(secret, body)):
        raise SignatureMismatch("X-Webhook-Signature does not match the body")
    if tolerance_seconds is None:
        return
    message_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    if not message_id:
        raise SignatureMismatch("webhook-id is missing")
    if not (timestamp.isascii() and timestamp.isdigit()):  # "²".isdigit(), int("²") fails
        raise SignatureMismatch("webhook-timestamp is missing or not Unix seconds")
    expected = standard_signature(secret, message_id, timestamp, body)
    # Space-separated `v1,<base64>` entries: any one matching is enough.
    if not any(_same(sent, expected) for sent in _header(headers, "webhook-signature").split()):
        raise SignatureMismatch("webhook-signature does not match")
    age = (time.time() if now is None else now) - int(timestamp)
    if abs(age) > tolerance_seconds:
        raise SignatureMismatch(
            f"webhook-timestamp is {age:.0f} s from now; at most {tolerance_seconds:g} s "
            "is accepted"
        )
