"""Check that a webhook delivery came from Homebase, for receivers (written by hand:
`make client` regenerates homebase_client/ beside this file and never touches it).

Every delivery carries two signatures, HMAC-SHA256 keyed by the subscription's secret
(`whsec_...`, shown once when the subscription is created), hex-encoded:

- `X-Webhook-Signature: sha256=<hex>` over the exact raw body;
- `X-Webhook-Signature-Timestamped: sha256=<hex>` over `<X-Webhook-Timestamp>.<raw body>`,
  where `X-Webhook-Timestamp` is the Unix time (seconds) the attempt was signed.

`verify` checks both and refuses a timestamp further than a tolerance (five minutes by
default) from now, so a captured delivery cannot be replayed later. Hash the raw bytes as
received, never a re-serialised object. Standard library only.

    from homebase_webhooks import SignatureMismatch, verify

    try:
        verify(secret, raw_body, request.headers)
    except SignatureMismatch:
        return 400  # not from Homebase, altered, or too old
"""

import hashlib
import hmac
import time
from collections.abc import Mapping

__all__ = ["DEFAULT_TOLERANCE_SECONDS", "SignatureMismatch", "sign", "verify"]

PREFIX = "sha256="
DEFAULT_TOLERANCE_SECONDS = 300
SIGNATURE = "X-Webhook-Signature"
TIMESTAMP = "X-Webhook-Timestamp"
TIMESTAMPED_SIGNATURE = "X-Webhook-Signature-Timestamped"


class SignatureMismatch(ValueError):
    """The delivery is not authentic, was altered, or its timestamp is outside the window."""


def sign(secret: str | bytes, message: bytes) -> str:
    """`sha256=` + hex HMAC-SHA256 of `message`: the body, or `<timestamp>.<body>`."""
    key = secret.encode() if isinstance(secret, str) else secret
    return PREFIX + hmac.new(key, message, hashlib.sha256).hexdigest()


def verify(secret: str | bytes, body: bytes, headers: Mapping[str, str], *,
           tolerance_seconds: float | None = DEFAULT_TOLERANCE_SECONDS,
           now: float | None = None) -> None:
    """Return if `body` (the raw bytes received) and `headers` are an authentic delivery;
    raise SignatureMismatch otherwise.

    `headers` is any mapping of the request's headers (names in any case). With
    `tolerance_seconds` (default 300) the timestamped signature is required too and the
    timestamp must lie within that many seconds of `now` (default: the current time), in
    either direction. `tolerance_seconds=None` checks only the plain body signature, which
    does not protect against replays.
    """
    if not isinstance(body, bytes | bytearray | memoryview):
        raise TypeError("body must be the raw bytes received, not a decoded or parsed body")
    body = bytes(body)
    _check(_header(headers, SIGNATURE), sign(secret, body), SIGNATURE)
    if tolerance_seconds is None:
        return
    if tolerance_seconds < 0:
        raise ValueError("tolerance_seconds must be zero or more")
    timestamp = _header(headers, TIMESTAMP)
    # ASCII digits only: "²".isdigit() is true and int() would refuse it.
    if not (timestamp.isascii() and timestamp.isdigit()):
        raise SignatureMismatch(f"{TIMESTAMP} is missing or not Unix seconds")
    _check(_header(headers, TIMESTAMPED_SIGNATURE),
           sign(secret, timestamp.encode() + b"." + body), TIMESTAMPED_SIGNATURE)
    age = (time.time() if now is None else now) - int(timestamp)
    if abs(age) > tolerance_seconds:
        raise SignatureMismatch(f"{TIMESTAMP} is {age:.0f} s from now; at most "
                                f"{tolerance_seconds:g} s is accepted")


def _check(received: str, expected: str, name: str) -> None:
    # Constant time: the comparison must not reveal how much of a forged value was right.
    if not hmac.compare_digest(received.encode(), expected.encode()):
        raise SignatureMismatch(f"{name} does not match the body")


def _header(headers: Mapping[str, str], name: str) -> str:
    value = headers.get(name)
    if value is None:
        wanted = name.lower()
        value = next((found for key, found in headers.items() if key.lower() == wanted), "")
    return value.strip()
