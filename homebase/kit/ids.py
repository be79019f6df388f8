"""Opaque, time-ordered identifiers: a type prefix and a ULID-style body.

`con_01jd3v6k8h2k3m4n5p6q7r8s9t`: 48 bits of milliseconds then 80 random bits, in
Crockford base32 (lower case). Ids sort by creation time, which gives lists an
immutable total order, and never look numeric.
"""

import base64
import os
import threading
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
_lock = threading.Lock()
_last_ms = 0
_last_random = 0
ID_BODY_LENGTH = 26


# base32hex's digits are Crockford's in the same order, so the C encoder of base64 writes
# them; a lead writes eight ids, and encoding them in Python showed in its profile and an
# import's (docs/performance.md, "Ids, phones, the rate limiter").
_CROCKFORD = bytes.maketrans(b"0123456789ABCDEFGHIJKLMNOPQRSTUV", _ALPHABET.encode())


def _body(millis: int, random_part: int) -> str:
    """The 26 digits of the 130-bit number millis (50 bits) then random_part (80 bits),
    most significant first: shifted left 6 bits to fill 17 bytes, whose first 26 base32
    digits are exactly those 130 bits."""
    value = ((millis << 80) | random_part) << 6
    digits = base64.b32hexencode(value.to_bytes(17, "big"))[:ID_BODY_LENGTH]
    return digits.translate(_CROCKFORD).decode()


def _next_parts() -> tuple[int, int]:
    """Monotonic within a process: same-millisecond ids increment the random part."""
    global _last_ms, _last_random
    now_ms = time.time_ns() // 1_000_000
    with _lock:
        if now_ms <= _last_ms:
            now_ms = _last_ms
            _last_random = (_last_random + 1) & ((1 << 80) - 1)
        else:
            _last_ms = now_ms
            _last_random = int.from_bytes(os.urandom(10), "big")
        return now_ms, _last_random


def new_id(prefix: str) -> str:
    return f"{prefix}_{_body(*_next_parts())}"
