"""Twilio's request signature (X-Twilio-Signature): base64 of HMAC-SHA1, keyed by the
auth token, over the full URL followed by each POST parameter's name and value, sorted
by name."""

import base64
import hashlib
import hmac
from collections.abc import Iterable

from homebase.kit.crypto import same_text


def signature(auth_token: str, url: str, params: Iterable[tuple[str, str]]) -> str:
    payload = url + "".join(name + value for name, value in sorted(params))
    digest = hmac.new(auth_token.encode(), payload.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def valid(auth_token: str, url: str, params: Iterable[tuple[str, str]], given: str | None) -> bool:
    if not auth_token or not given:
        return False
    return same_text(signature(auth_token, url, params), given)
