"""Member passwords: argon2id with OWASP's parameters (19 MiB, t=2, p=1); the scrypt hashes
stored before it are still verified and replaced at the member's next sign-in.

One email may hold a password in several workspaces, and a sign-in checks all of them. To
keep that at one hash per attempt, the memberships of one email share one argon2 salt
(`shared_salt`): hashing the attempt once with that salt answers for every membership,
each of which still stores an ordinary, self-contained `$argon2id$` string. A membership
with another salt or older parameters costs its own hash until it is rehashed.
"""

import base64
import hashlib
import hmac
from collections.abc import Sequence

from argon2 import PasswordHasher, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
_ARGON2 = "$argon2"
_SCRYPT = "scrypt$"
_N, _R, _P = 2**14, 8, 1  # the parameters scrypt hashes were made with


def hash_password(password: str, salt: bytes | None = None) -> str:
    """An argon2id hash; `salt` is the email's shared salt when it already has one."""
    return HASHER.hash(password, salt=salt)


def verify_all(password: str, stored: Sequence[str | None]) -> list[bool]:
    """Which of `stored` (one email's hashes) `password` matches. Hashes sharing a salt and
    parameters cost one hash together; when there is nothing to check (an unknown email,
    no passwords) one hash is still spent, so the answer takes as long."""
    results = [False] * len(stored)
    groups: dict[str, list[tuple[int, str]]] = {}
    spent = False
    for index, value in enumerate(stored):
        if value and value.startswith(_ARGON2):
            groups.setdefault(_salted_prefix(value), []).append((index, value))
        elif value and value.startswith(_SCRYPT):
            results[index], spent = _verify_scrypt(password, value), True
    for prefix, members in groups.items():
        candidate = _argon2_like(password, members[0][1])
        spent = spent or candidate is not None
        for index, value in members:
            if candidate is not None and _salted_prefix(candidate) == prefix:
                results[index] = hmac.compare_digest(candidate.encode(), value.encode())
            else:  # an encoding we would not produce: the library's own check
                results[index], spent = _argon2_verify(password, value), True
    if not spent:
        HASHER.hash(password)
    return results


def shared_salt(stored: Sequence[str | None]) -> bytes | None:
    """The salt new hashes of this email use: that of the first current argon2id hash."""
    for value in stored:
        if value and value.startswith(_ARGON2) and not _outdated(value):
            return _salt(value)
    return None


def needs_rehash(stored: str, salt: bytes | None) -> bool:
    """Scrypt, older argon2 parameters, or not the email's shared salt."""
    return not stored.startswith(_ARGON2) or _outdated(stored) or _salt(stored) != salt


def _outdated(value: str) -> bool:
    try:
        return HASHER.check_needs_rehash(value)
    except (InvalidHashError, ValueError):
        return True


def _salted_prefix(value: str) -> str:
    """`$argon2id$v=19$m=...,t=...,p=...$<salt>`: equal prefixes hash a password alike."""
    return value.rpartition("$")[0]


def _salt(value: str) -> bytes | None:
    encoded = _salted_prefix(value).rpartition("$")[2]
    try:
        return base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except ValueError:
        return None


def _argon2_like(password: str, value: str) -> str | None:
    """`password` hashed with `value`'s parameters and salt, or None if it does not parse."""
    salt = _salt(value)
    try:
        hasher = PasswordHasher.from_parameters(extract_parameters(value))
    except (InvalidHashError, ValueError):
        return None
    return None if not salt else hasher.hash(password, salt=salt)


def _argon2_verify(password: str, value: str) -> bool:
    try:
        return HASHER.verify(value, password)
    except (VerificationError, InvalidHashError):
        return False


def _verify_scrypt(password: str, value: str) -> bool:
    try:
        _, n, r, p, salt, digest = value.split("$")
        params = int(n), int(r), int(p)
        salt_bytes, expected = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        params, salt_bytes, expected = (_N, _R, _P), b"\0" * 16, b""
    actual = hashlib.scrypt(
        password.encode(), salt=salt_bytes, n=params[0], r=params[1], p=params[2]
    )
    return bool(expected) and hmac.compare_digest(actual, expected)
