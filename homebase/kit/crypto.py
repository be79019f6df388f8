"""Secrets, hashes and signatures."""

import base64
import hashlib
import hmac
import secrets
from functools import lru_cache

from homebase.kit.keys import Keyring

_TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def random_token(prefix: str, length: int = 40) -> str:
    """A high-entropy credential such as `hbk_...` (about 238 bits for 40 characters)."""
    body = "".join(secrets.choice(_TOKEN_ALPHABET) for _ in range(length))
    return f"{prefix}{body}"


def token_hash(token: str) -> str:
    """Credentials are high-entropy, so a fast hash is enough; only the hash is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@lru_cache(maxsize=64)
def _purpose_key(secret_key: str, purpose: str) -> bytes:
    return hmac.new(secret_key.encode(), purpose.encode(), hashlib.sha256).digest()


def sign(secret_key: str, purpose: str, payload: bytes) -> bytes:
    """HMAC keyed by the service secret, separated by purpose so signatures never cross uses
    (the per-purpose key is derived once: every list page with more signs a cursor)."""
    return hmac.digest(_purpose_key(secret_key, purpose), payload, "sha256")


def same_text(expected: str, given: str) -> bool:
    """Constant-time equality of two strings. hmac.compare_digest refuses str holding
    non-ASCII characters (TypeError), and a header value decoded from latin-1 bytes such as
    0xff is one: compared as UTF-8 bytes, hostile input is merely unequal."""
    return hmac.compare_digest(
        expected.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass")
    )


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed_blob(keys: Keyring, purpose: str, payload: bytes, mac_bytes: int = 12) -> str:
    mac = sign(keys.current, purpose, payload)[:mac_bytes]
    return b64url_encode(payload + mac)


def open_signed_blob(keys: Keyring, purpose: str, blob: str, mac_bytes: int = 12) -> bytes | None:
    """The payload of a blob made by signed_blob under the current or the previous key, or
    None when it is malformed or altered."""
    try:
        raw = b64url_decode(blob)
    except (ValueError, TypeError):
        return None
    # Only the canonical encoding is accepted: unpadded base64 leaves spare low bits in the
    # last character, and a token must not have several spellings that all verify.
    if len(raw) <= mac_bytes or b64url_encode(raw) != blob:
        return None
    payload, mac = raw[:-mac_bytes], raw[-mac_bytes:]
    if any(
        hmac.compare_digest(sign(key, purpose, payload)[:mac_bytes], mac) for key in keys.verifying
    ):
        return payload
    return None


def keyed_token(keys: Keyring, purpose: str, value: str) -> str:
    """A MAC of `value` under the current key (CSRF tokens), checked by keyed_token_matches."""
    return b64url_encode(sign(keys.current, purpose, value.encode()))


def keyed_token_matches(keys: Keyring, purpose: str, value: str, submitted: str) -> bool:
    # surrogatepass: a hostile form value is merely unequal, never an encoding error.
    given = submitted.encode("utf-8", "surrogatepass")
    message = value.encode("utf-8", "surrogatepass")
    return any(
        hmac.compare_digest(given, b64url_encode(sign(key, purpose, message)).encode())
        for key in keys.verifying
    )
