"""Password hashing with the standard library's scrypt (no extra dependency)."""

import hashlib
import hmac
import os

_N, _R, _P = 2**14, 8, 1


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str | None) -> bool:
    """Constant-time; a missing hash still costs one scrypt so timing reveals nothing."""
    try:
        _, n, r, p, salt, digest = (stored or "").split("$")
        params = int(n), int(r), int(p)
        salt_bytes, expected = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        params, salt_bytes, expected = (_N, _R, _P), b"\0" * 16, b""
    actual = hashlib.scrypt(password.encode(), salt=salt_bytes, n=params[0], r=params[1],
                            p=params[2])
    return bool(expected) and hmac.compare_digest(actual, expected)
