"""Secrets the service must read back (webhook signing secrets), encrypted at rest.

AES-256-GCM under a key derived from HOMEBASE_SECRET_KEY for one purpose. The row id
is bound in as associated data, so a ciphertext copied onto another row won't open.
Stored as `v1.<base64url(nonce + ciphertext)>`. Sealing uses the current key; opening
tries the current key, then HOMEBASE_SECRET_KEY_PREVIOUS (kit/keys.py); `reseal` moves a
value onto the current key (`homebase admin rotate-secrets`).
"""

import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from homebase.kit.crypto import b64url_decode, b64url_encode
from homebase.kit.keys import Keyring

_VERSION = "v1"
_NONCE_BYTES = 12


class SealBroken(ValueError):
    """The ciphertext was altered, belongs to another row, or the secret key changed."""


def _key(secret_key: str, purpose: str) -> bytes:
    return hmac.new(secret_key.encode(), f"seal:{purpose}".encode(), hashlib.sha256).digest()


def seal(keys: Keyring, purpose: str, plaintext: str, bound_to: str) -> str:
    nonce = os.urandom(_NONCE_BYTES)
    ciphertext = AESGCM(_key(keys.current, purpose)).encrypt(
        nonce, plaintext.encode(), bound_to.encode()
    )
    return f"{_VERSION}.{b64url_encode(nonce + ciphertext)}"


def unseal(keys: Keyring, purpose: str, sealed: str, bound_to: str) -> str:
    return _open(keys, purpose, sealed, bound_to)[0]


def reseal(keys: Keyring, purpose: str, sealed: str, bound_to: str) -> str | None:
    """`sealed` sealed again under the current key, or None when it already is."""
    plaintext, key = _open(keys, purpose, sealed, bound_to)
    return None if key == keys.current else seal(keys, purpose, plaintext, bound_to)


def _open(keys: Keyring, purpose: str, sealed: str, bound_to: str) -> tuple[str, str]:
    """The plaintext and the key that opened it."""
    version, _, body = sealed.partition(".")
    if version != _VERSION:
        raise SealBroken(f"unknown seal version {version!r}")
    try:
        raw = b64url_decode(body)
    except ValueError as error:
        raise SealBroken("the sealed value does not open") from error
    for key in keys.verifying:
        try:
            plaintext = AESGCM(_key(key, purpose)).decrypt(
                raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], bound_to.encode()
            )
        except (InvalidTag, ValueError):
            continue
        return plaintext.decode(), key
    raise SealBroken("the sealed value does not open")
