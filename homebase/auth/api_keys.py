"""API keys: `hbk_` + 40 random characters, shown once, stored as a SHA-256 hash,
expiring after `HOMEBASE_API_KEY_DEFAULT_TTL_DAYS` (90) unless told otherwise."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.credentials import unauthenticated
from homebase.auth.principal import Principal
from homebase.auth.scopes import expand, parse_scopes
from homebase.config import Settings
from homebase.db import driver
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import isoformat
from homebase.kit.crypto import random_token, token_hash
from homebase.kit.ids import new_id
from homebase.models import ApiKey

KEY_PREFIX = "hbk_"
CREDENTIAL_KIND = "api_key"
api_keys = ApiKey.__table__


@dataclass(frozen=True)
class CreatedKey:
    id: str
    key: str
    scopes: list[str]
    expires_at: datetime | None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "key": self.key,
            "scopes": self.scopes,
            "expires_at": isoformat(self.expires_at),
        }


async def create_api_key(
    session: TenantSession,
    *,
    scopes: list[str],
    name: str,
    expires_in_days: int | None,
) -> CreatedKey:
    """A key of the session's workspace. expires_in_days None means no expiry; 0 makes a
    key that has already expired."""
    scopes = parse_scopes(scopes)
    key = random_token(KEY_PREFIX)
    now = session.now()
    expires_at = None if expires_in_days is None else now + timedelta(days=expires_in_days)
    key_id = new_id("key")
    await session.insert(
        api_keys,
        {
            "id": key_id,
            "name": name,
            "key_hash": token_hash(key),
            "key_hint": key[:8],
            "scopes": scopes,
            "created_at": now,
            "expires_at": expires_at,
            "revoked_at": None,
        },
    )
    return CreatedKey(id=key_id, key=key, scopes=scopes, expires_at=expires_at)


async def revoke_api_key(connection: AsyncConnection, key_id: str, now: datetime) -> bool:
    """`homebase admin revoke-api-key`: the key of any workspace, named by its id. The
    console revokes through the member's TenantSession instead (console/keys.py)."""
    result = await connection.execute(
        update(api_keys)
        .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    if result.rowcount:
        return True
    exists = await connection.execute(select(api_keys.c.id).where(api_keys.c.id == key_id))
    return exists.first() is not None


# Built once: constructing the WHERE clause per request cost more than running it.
_RESOLVE = select(
    api_keys.c.id,
    api_keys.c.workspace_id,
    api_keys.c.scopes,
    api_keys.c.expires_at,
    api_keys.c.revoked_at,
).where(api_keys.c.key_hash == bindparam("key_hash"))


@lru_cache(maxsize=256)
def _expanded(granted: tuple[str, ...]) -> frozenset[str]:
    return expand(granted)


async def _lookup(connection: AsyncConnection, key_hash: str) -> dict[str, Any] | None:
    """One statement. Nothing is cached: a revoked key fails on its next request."""
    rows, _ = await driver.execute(connection, _RESOLVE, {"key_hash": key_hash}, one=True)
    return rows[0] if rows else None


async def resolve_api_key(
    connection: AsyncConnection, key: str, now: datetime, settings: Settings
) -> Principal:
    row = await _lookup(connection, token_hash(key))
    if row is None:
        raise unauthenticated("Invalid API key.")
    if row["revoked_at"] is not None:
        raise unauthenticated("This API key has been revoked.")
    if row["expires_at"] is not None and row["expires_at"] <= now:
        raise unauthenticated("This API key has expired.")
    granted = tuple(row["scopes"])
    return Principal(
        workspace_id=row["workspace_id"],
        scopes=_expanded(granted),
        granted_scopes=granted,
        credential_kind=CREDENTIAL_KIND,
        credential_id=row["id"],
        rate_limit_bucket=f"key:{row['id']}",
        rate_limit_per_min=settings.rate_limit_api_key_per_min,
    )
