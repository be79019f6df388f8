"""Webhook signatures, and the helper receivers use to check them.

Two signatures travel with every delivery, both HMAC-SHA256 keyed by the subscription
secret and hex-encoded:

- `X-Webhook-Signature: sha256=<hex>` over the exact raw body (the spec's; the same
  format as GitHub's X-Hub-Signature-256).
- `X-Webhook-Signature-Timestamped: sha256=<hex>` over `<timestamp>.<raw body>`, where
  the timestamp is `X-Webhook-Timestamp` (Unix seconds of this attempt). It lets a
  receiver refuse a captured delivery replayed later: check it and the timestamp's age.

This module needs nothing but the standard library, so receivers may copy it.
"""

import hashlib
import hmac
import time
from collections.abc import Mapping

PREFIX = "sha256="
DEFAULT_TOLERANCE_SECONDS = 300


class SignatureMismatch(ValueError):
    """The delivery is not authentic, or (timestamped check) too old or too new."""


def signature(secret: str, body: bytes) -> str:
    return PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def timestamped_signature(secret: str, timestamp: int | str, body: bytes) -> str:
    return signature(secret, str(timestamp).encode() + b"." + body)


def signature_headers(secret: str, body: bytes, timestamp: int) -> dict[str, str]:
    return {
        "X-Webhook-Signature": signature(secret, body),
        "X-Webhook-Timestamp": str(timestamp),
        "X-Webhook-Signature-Timestamped": timestamped_signature(secret, timestamp, body),
    }


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    return None


def verify(
    secret: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    tolerance_seconds: float | None = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> None:
    """Raise SignatureMismatch unless `body` (the raw bytes received) is authentic.

    With a tolerance (the default, five minutes) the timestamped signature is checked
    and a delivery whose timestamp is further than that from `now` is refused; with
    `tolerance_seconds=None` only the spec's plain body signature is checked.
    """
    plain = _header(headers, "X-Webhook-Signature") or ""
    if not hmac.compare_digest(plain.encode(), signature(secret, body).encode()):
        raise SignatureMismatch("X-Webhook-Signature does not match the body")
    if tolerance_seconds is None:
        return
    timestamp = _header(headers, "X-Webhook-Timestamp") or ""
    stamped = _header(headers, "X-Webhook-Signature-Timestamped") or ""
    if not (timestamp.isascii() and timestamp.isdigit()):  # "²".isdigit(), int("²") fails
        raise SignatureMismatch("X-Webhook-Timestamp is missing or malformed")
    expected = timestamped_signature(secret, timestamp, body)
    if not hmac.compare_digest(stamped.encode(), expected.encode()):
        raise SignatureMismatch("X-Webhook-Signature-Timestamped does not match")
    age = (time.time() if now is None else now) - int(timestamp)
    if abs(age) > tolerance_seconds:
        raise SignatureMismatch(
            f"the delivery is {age:.0f} s old; the limit is {tolerance_seconds:.0f} s"
        )
