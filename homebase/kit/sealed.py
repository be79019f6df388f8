"""Secrets the service must read back (webhook signing secrets), encrypted at rest.

AES-256-GCM under a key derived from HOMEBASE_SECRET_KEY for one purpose. The row id
is bound in as associated data, so a ciphertext copied onto another row won't open.
Stored as `v1.<base64url(nonce + ciphertext)>`; the version leaves room for rotation.
"""

import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from homebase.kit.crypto import b64url_decode, b64url_encode

_VERSION = "v1"
_NONCE_BYTES = 12


class SealBroken(ValueError):
    """The ciphertext was altered, belongs to another row, or the secret key changed."""


def _key(secret_key: str, purpose: str) -> bytes:
    return hmac.new(secret_key.encode(), f"seal:{purpose}".encode(), hashlib.sha256).digest()


def seal(secret_key: str, purpose: str, plaintext: str, bound_to: str) -> str:
    nonce = os.urandom(_NONCE_BYTES)
    ciphertext = AESGCM(_key(secret_key, purpose)).encrypt(nonce, plaintext.encode(),
                                                           bound_to.encode())
    return f"{_VERSION}.{b64url_encode(nonce + ciphertext)}"


def unseal(secret_key: str, purpose: str, sealed: str, bound_to: str) -> str:
    version, _, body = sealed.partition(".")
    if version != _VERSION:
        raise SealBroken(f"unknown seal version {version!r}")
    try:
        raw = b64url_decode(body)
        plaintext = AESGCM(_key(secret_key, purpose)).decrypt(
            raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], bound_to.encode())
    except (InvalidTag, ValueError) as error:
        raise SealBroken("the sealed value does not open") from error
    return plaintext.decode()
