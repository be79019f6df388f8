"""What every credential shares: the Authorization header's schemes, the 401 and its
challenge, and the signature of a resolver. The resolvers themselves, one per kind of
token, are the list in auth/resolvers.py; each produces the same Principal.
"""

from collections.abc import Awaitable, Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.principal import Principal
from homebase.config import Settings
from homebase.kit.errors import Unauthenticated

Resolver = Callable[[AsyncConnection, str, datetime, Settings], Awaitable[Principal]]
SCHEMES = ("token", "bearer")
# RFC 7235: a 401 offers every scheme the client may use; RFC 6750 §3.1: a Bearer token that
# was refused is answered with a Bearer challenge naming invalid_token.
WWW_AUTHENTICATE = {"WWW-Authenticate": 'Token realm="homebase", Bearer realm="homebase"'}
BEARER_INVALID_TOKEN = {"WWW-Authenticate": 'Bearer realm="homebase", error="invalid_token"'}


def unauthenticated(message: str) -> Unauthenticated:
    return Unauthenticated(message, headers=WWW_AUTHENTICATE)


def parse_authorization(header: str | None) -> tuple[str, str]:
    """(scheme in lower case, credential)."""
    if not header:
        raise unauthenticated("Missing credential: send Authorization: token <API_KEY>.")
    scheme, _, value = header.strip().partition(" ")
    scheme, value = scheme.lower(), value.strip()
    if scheme not in SCHEMES or not value:
        raise unauthenticated("Malformed Authorization header: use 'token <API_KEY>'.")
    return scheme, value
