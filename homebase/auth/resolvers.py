"""Every kind of credential the API accepts, by the prefix its tokens start with: the one
list `resolve` reads. Nothing registers itself by being imported; a new kind of token is a
resolver (credentials.Resolver) in its own module and a line here. No prefix starts
another (tests/test_registries.py), so the order decides nothing.
"""

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.api_keys import KEY_PREFIX, resolve_api_key
from homebase.auth.credentials import (
    BEARER_INVALID_TOKEN,
    Resolver,
    parse_authorization,
    unauthenticated,
)
from homebase.auth.oauth_tokens import ACCESS_PREFIX, resolve_access_token
from homebase.auth.principal import Principal
from homebase.config import Settings
from homebase.kit.errors import Unauthenticated

RESOLVERS: tuple[tuple[str, Resolver], ...] = (
    (KEY_PREFIX, resolve_api_key),  # API keys (auth/api_keys.py)
    (ACCESS_PREFIX, resolve_access_token),  # OAuth access tokens (auth/oauth_tokens.py)
)


async def resolve(
    connection: AsyncConnection, header: str | None, now: datetime, settings: Settings
) -> Principal:
    scheme, token = parse_authorization(header)
    try:
        for prefix, resolver in RESOLVERS:
            if token.startswith(prefix):
                return await resolver(connection, token, now, settings)
        raise unauthenticated("Invalid credential.")
    except Unauthenticated as error:
        if scheme == "bearer":
            error.headers = BEARER_INVALID_TOKEN
        raise
