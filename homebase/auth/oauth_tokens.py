"""The API side: `Authorization: Bearer <access token>` (or `token <access token>`)
resolves to the same Principal as an API key. The grant and the app are read on every
request, so revoking either applies on the next one."""

from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.credentials import unauthenticated
from homebase.auth.principal import Principal
from homebase.auth.scopes import expand
from homebase.config import Settings
from homebase.kit.crypto import token_hash
from homebase.models import OAuthClient, OAuthGrant, OAuthToken

CREDENTIAL_KIND = "oauth_token"
ACCESS_PREFIX = "hbo_at_"  # every access token starts with it (issued by oauth/tokens.py)
tokens = OAuthToken.__table__
grants = OAuthGrant.__table__
clients = OAuthClient.__table__

# Built once, like the API key lookup: one indexed statement per request.
_RESOLVE = (
    select(
        tokens.c.id,
        tokens.c.workspace_id,
        tokens.c.client_id,
        tokens.c.scopes,
        tokens.c.expires_at,
        tokens.c.revoked_at,
        grants.c.scopes.label("grant_scopes"),
        grants.c.revoked_at.label("grant_revoked_at"),
        clients.c.revoked_at.label("client_revoked_at"),
    )
    .join(grants, grants.c.id == tokens.c.grant_id)
    .join(clients, clients.c.id == tokens.c.client_id)
    .where(tokens.c.token_hash == bindparam("token_hash"), tokens.c.kind == "access")
)


def rate_limit_bucket(client_id: str, workspace_id: str) -> str:
    return f"app:{client_id}:{workspace_id}"


async def resolve_access_token(
    connection: AsyncConnection, token: str, now: datetime, settings: Settings
) -> Principal:
    row = (await connection.execute(_RESOLVE, {"token_hash": token_hash(token)})).first()
    if row is None:
        raise unauthenticated("Invalid access token.")
    if (
        row.revoked_at is not None
        or row.grant_revoked_at is not None
        or row.client_revoked_at is not None
    ):
        raise unauthenticated("This access token has been revoked.")
    if row.expires_at <= now:
        raise unauthenticated("This access token has expired.")
    # The grant as it stands now bounds what the token may do.
    granted = tuple(name for name in row.scopes if name in row.grant_scopes)
    return Principal(
        workspace_id=row.workspace_id,
        scopes=expand(granted),
        granted_scopes=granted,
        credential_kind=CREDENTIAL_KIND,
        credential_id=row.id,
        rate_limit_bucket=rate_limit_bucket(row.client_id, row.workspace_id),
        rate_limit_per_min=settings.rate_limit_app_per_min,
    )
