"""Apps (clients) and grants: registration, a workspace authorizing an app, and ending
that authorization. The console and `homebase admin` call these; tokens are in tokens.py."""

import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.scopes import parse_scopes
from homebase.db.tenancy import TenantSession, across_workspaces
from homebase.kit.clock import isoformat, system_clock
from homebase.kit.crypto import random_token, token_hash
from homebase.kit.ids import new_id
from homebase.models import OAuthClient, OAuthCode, OAuthGrant, OAuthToken
from homebase.oauth.redirects import InvalidRedirectUri, validate_for_registration
from homebase.webhooks.grants import end_for_grant

CLIENT_SECRET_PREFIX = "hbo_cs_"
MAX_REDIRECT_URIS = 10
clients = OAuthClient.__table__
grants = OAuthGrant.__table__
tokens = OAuthToken.__table__
codes = OAuthCode.__table__


class InvalidClient(ValueError):
    """A registration refused (name or redirect URIs); its text names the reason."""


@dataclass(frozen=True)
class CreatedClient:
    client_id: str
    client_secret: str  # shown once, stored only as a hash

    def as_json(self) -> dict[str, str]:
        return {"client_id": self.client_id, "client_secret": self.client_secret}


def validate_registration(name: str, redirect_uris: list[str]) -> tuple[str, list[str]]:
    name = name.strip()
    if not name or len(name) > 120:
        raise InvalidClient("the name must be 1 to 120 characters")
    if not redirect_uris or len(redirect_uris) > MAX_REDIRECT_URIS:
        raise InvalidClient(f"give 1 to {MAX_REDIRECT_URIS} redirect URIs")
    uris = []
    for number, uri in enumerate(redirect_uris, start=1):
        try:
            uris.append(validate_for_registration(uri))
        except InvalidRedirectUri as error:
            raise InvalidClient(f"redirect URI {number}: {error}") from error
    return name, list(dict.fromkeys(uris))


def _new_client(
    name: str, redirect_uris: list[str], now: datetime | None
) -> tuple[dict[str, Any], CreatedClient]:
    name, uris = validate_registration(name, redirect_uris)
    client_id = new_id("app")
    secret = random_token(CLIENT_SECRET_PREFIX, 48)
    row = {
        "id": client_id,
        "name": name,
        "secret_hash": token_hash(secret),
        "secret_hint": secret[:11],
        "redirect_uris": uris,
        "created_at": now or system_clock(),
        "revoked_at": None,
    }
    return row, CreatedClient(client_id=client_id, client_secret=secret)


async def create_client(
    connection: AsyncConnection, name: str, *, redirect_uris: list[str], now: datetime | None = None
) -> CreatedClient:
    """`homebase admin create-oauth-client`: an app belongs to no workspace."""
    row, created = _new_client(name, redirect_uris, now)
    await connection.execute(insert(clients), row)
    return created


# Apps are global: one a member registers in the console is written in that member's
# workspace transaction (beside the workspace's record of it, console_oauth_apps).
_REGISTER = across_workspaces(insert(clients))


async def register_client(
    session: TenantSession, name: str, *, redirect_uris: list[str]
) -> CreatedClient:
    row, created = _new_client(name, redirect_uris, session.now())
    await session.execute(_REGISTER, row)
    return created


def client_json(row: Any) -> dict[str, Any]:
    return {
        "client_id": row["id"],
        "name": row["name"],
        "redirect_uris": row["redirect_uris"],
        "secret_hint": row["secret_hint"],
        "created_at": isoformat(row["created_at"]),
    }


async def get_client(connection: AsyncConnection, client_id: str | None) -> dict[str, Any] | None:
    """An active app, or None (unknown and retired apps look the same)."""
    if not client_id or len(client_id) > 40:
        return None
    row = (
        (
            await connection.execute(
                select(clients).where(clients.c.id == client_id, clients.c.revoked_at.is_(None))
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row else None


def secret_matches(client: dict[str, Any], secret: str) -> bool:
    return hmac.compare_digest(client["secret_hash"], token_hash(secret))


# Grants


def grant_json(row: Any, client_name: str | None = None) -> dict[str, Any]:
    result = {
        "id": row["id"],
        "workspace_id": row["workspace_id"],
        "client_id": row["client_id"],
        "scopes": list(row["scopes"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
    if client_name is not None:
        result["client_name"] = client_name
    return result


async def active_grant(
    connection: AsyncConnection, workspace_id: str, *, client_id: str
) -> dict[str, Any] | None:
    row = (
        (
            await connection.execute(
                select(grants).where(
                    grants.c.workspace_id == workspace_id,
                    grants.c.client_id == client_id,
                    grants.c.revoked_at.is_(None),
                )
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row else None


async def authorize_app(
    connection: AsyncConnection,
    *,
    workspace_id: str,
    client_id: str,
    scopes: list[str],
    now: datetime,
    authorized_by: str | None,
) -> dict[str, Any]:
    """The workspace authorizes the app for these scopes: a new grant, or the existing one
    extended (its scopes become the union). A grant revoked earlier starts over with just
    these scopes; the tokens it had stay revoked. Raises UnknownScope."""
    scopes = parse_scopes(scopes)
    dialect_insert = postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert
    # Two approvals at once must both land on the one grant row.
    await connection.execute(
        dialect_insert(grants)
        .values(
            id=new_id("grt"),
            workspace_id=workspace_id,
            client_id=client_id,
            scopes=[],
            authorized_by=authorized_by,
            created_at=now,
            updated_at=now,
            revoked_at=now,
        )
        .on_conflict_do_nothing(index_elements=["workspace_id", "client_id"])
    )
    row = (
        (
            await connection.execute(
                select(grants)
                .where(grants.c.workspace_id == workspace_id, grants.c.client_id == client_id)
                .with_for_update()
            )
        )
        .mappings()
        .one()
    )
    held = [] if row["revoked_at"] is not None else list(row["scopes"])
    merged = parse_scopes([*held, *scopes])
    values = {
        "scopes": merged,
        "updated_at": now,
        "revoked_at": None,
        "authorized_by": authorized_by,
    }
    await connection.execute(update(grants).where(grants.c.id == row["id"]).values(**values))
    return grant_json({**row, **values})


async def list_workspace_grants(session: TenantSession) -> list[dict[str, Any]]:
    """The apps the session's workspace has authorized (active grants), with their names
    and who authorized each (`authorized_by`: a member's user id, or "admin" for the
    operator's `homebase admin authorize-app`)."""
    rows = await session.fetch_all(
        session.select(grants, *grants.c, clients.c.name.label("client_name"))
        .join(clients, clients.c.id == grants.c.client_id)
        .where(grants.c.revoked_at.is_(None))
        .order_by(grants.c.created_at, grants.c.id)
    )
    return [
        {**grant_json(row, row["client_name"]), "authorized_by": row["authorized_by"]}
        for row in rows
    ]


async def revoke_grant_tokens(connection: AsyncConnection, grant_id: str, *, now: datetime) -> None:
    """Ends the family: every access and refresh token of the grant."""
    await connection.execute(
        update(tokens)
        .where(tokens.c.grant_id == grant_id, tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


async def revoke_grant(session: TenantSession, client_id: str) -> bool:
    """The session's workspace's grant to the app ends, with every token of it and every
    webhook subscription the app created in the workspace (their pending deliveries
    cancelled), all in the caller's transaction. False when the workspace never
    authorized the app; True when it is (now or already) revoked. Every revocation path
    calls this."""
    row = await session.fetch_one(
        session.select(grants, grants.c.id).where(grants.c.client_id == client_id)
    )
    if row is None:
        return False
    now = session.now()
    await session.execute(
        session.update(grants)
        .where(grants.c.id == row["id"], grants.c.revoked_at.is_(None))
        .values(revoked_at=now, updated_at=now)
    )
    await session.execute(
        session.update(tokens)
        .where(tokens.c.grant_id == row["id"], tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    # Codes not yet redeemed are spent too: a later approval reactivates this grant row,
    # and a code from before the revocation must not come back to life with it.
    await session.execute(
        session.update(codes)
        .where(codes.c.grant_id == row["id"], codes.c.used_at.is_(None))
        .values(used_at=now)
    )
    await end_for_grant(session, row["id"])
    return True
