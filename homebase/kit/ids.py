"""Opaque, time-ordered identifiers: a type prefix and a ULID-style body.

`con_01jd3v6k8h2k3m4n5p6q7r8s9t`: 48 bits of milliseconds then 80 random bits, in
Crockford base32 (lower case). Ids sort by creation time, which gives lists an
immutable total order, and never look numeric.
"""

import os
import threading
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
_lock = threading.Lock()
_last_ms = 0
_last_random = 0


# Two base32 digits per step: a lead writes eight ids, and digit by digit showed in its
# profile (docs/performance.md, "Ids, phones, the rate limiter").
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)


def _encode(value: int, length: int) -> str:
    """`length` (even) base32 digits of `value`, most significant first."""
    pairs = _PAIRS
    return "".join([pairs[(value >> shift) & 1023] for shift in range(length * 5 - 10, -1, -10)])


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
    millis, random_part = _next_parts()
    return f"{prefix}_{_encode(millis, 10)}{_encode(random_part, 16)}"


ID_BODY_LENGTH = 26
