"""Codes and tokens: issuing, exchanging (the three grant types), rotating and revoking.

Every value is random, prefixed by its kind and stored only as its SHA-256. Lifetimes
are in docs/oauth.md. Each function runs inside the caller's transaction; an OAuthError
with `commit` carries writes (a revocation) that must stand although the request fails.
"""

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.auth.oauth_tokens import ACCESS_PREFIX
from homebase.auth.scopes import ALL_SCOPES
from homebase.kit.crypto import random_token, token_hash
from homebase.kit.ids import new_id
from homebase.models import OAuthCode, OAuthGrant, OAuthToken
from homebase.oauth.errors import invalid_grant, invalid_request, invalid_scope
from homebase.oauth.service import revoke_grant_tokens

REFRESH_PREFIX = "hbo_rt_"
CODE_PREFIX = "hbo_code_"
ACCESS_TOKEN_LIFETIME = timedelta(hours=1)
REFRESH_TOKEN_LIFETIME = timedelta(days=30)
CODE_LIFETIME = timedelta(minutes=5)
VERIFIER = re.compile(r"[A-Za-z0-9\-._~]{43,128}")
CHALLENGE = re.compile(r"[A-Za-z0-9\-_]{43}")

codes = OAuthCode.__table__
grants = OAuthGrant.__table__
tokens = OAuthToken.__table__


@dataclass(frozen=True)
class TokenSet:
    access_token: str
    refresh_token: str | None
    scopes: list[str]
    workspace_id: str

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "access_token": self.access_token,
            "token_type": "Bearer",
            "expires_in": int(ACCESS_TOKEN_LIFETIME.total_seconds()),
            "scope": " ".join(self.scopes),
            "tenant_id": self.workspace_id,
        }
        if self.refresh_token is not None:
            body["refresh_token"] = self.refresh_token
        return body


def pkce_challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def scope_list(text: str | None) -> list[str] | None:
    """A space-separated scope parameter as names in catalogue order; None when absent.
    Raises invalid_scope for unknown names."""
    if text is None:
        return None
    names = set(text.split(" ")) - {""}
    unknown = sorted(names - set(ALL_SCOPES))
    if unknown or not names:
        raise invalid_scope(
            f"unknown scope(s): {', '.join(unknown)}"
            if unknown
            else "scope must name at least one scope"
        )
    return [name for name in ALL_SCOPES if name in names]


def narrowed(requested: str | None, held: list[str]) -> list[str]:
    """The requested subset of `held`, or all of `held` when nothing was requested."""
    wanted = scope_list(requested)
    if wanted is None:
        return list(held)
    beyond = [name for name in wanted if name not in held]
    if beyond:
        raise invalid_scope(f"scope exceeds what was granted: {', '.join(beyond)}")
    return wanted


async def create_code(
    connection: AsyncConnection,
    *,
    client_id: str,
    grant: dict[str, Any],
    user_id: str | None,
    redirect_uri: str,
    code_challenge: str,
    scopes: list[str],
    now: datetime,
) -> str:
    code = random_token(CODE_PREFIX, 43)
    await connection.execute(
        insert(codes),
        {
            "id": new_id("cod"),
            "code_hash": token_hash(code),
            "client_id": client_id,
            "grant_id": grant["id"],
            "workspace_id": grant["workspace_id"],
            "user_id": user_id,
            "redirect_uri": redirect_uri,
            "code_challenge": code_challenge,
            "scopes": scopes,
            "created_at": now,
            "expires_at": now + CODE_LIFETIME,
            "used_at": None,
        },
    )
    return code


async def _issue(
    connection: AsyncConnection,
    *,
    client_id: str,
    grant: dict[str, Any],
    code_id: str | None,
    scopes: list[str],
    now: datetime,
    with_refresh: bool,
    refresh_scopes: list[str] | None = None,
) -> TokenSet:
    """An access token with `scopes`, and a refresh token with `refresh_scopes` (default
    the same): a narrowed refresh narrows only the access token (RFC 6749 6)."""
    common = {
        "client_id": client_id,
        "grant_id": grant["id"],
        "workspace_id": grant["workspace_id"],
        "code_id": code_id,
        "scopes": scopes,
        "created_at": now,
        "retired_at": None,
        "revoked_at": None,
    }
    access = random_token(ACCESS_PREFIX, 43)
    rows = [
        {
            **common,
            "id": new_id("tok"),
            "kind": "access",
            "token_hash": token_hash(access),
            "expires_at": now + ACCESS_TOKEN_LIFETIME,
        }
    ]
    refresh = None
    if with_refresh:
        refresh = random_token(REFRESH_PREFIX, 43)
        rows.append(
            {
                **common,
                "id": new_id("tok"),
                "kind": "refresh",
                "scopes": scopes if refresh_scopes is None else refresh_scopes,
                "token_hash": token_hash(refresh),
                "expires_at": now + REFRESH_TOKEN_LIFETIME,
            }
        )
    await connection.execute(insert(tokens), rows)
    return TokenSet(
        access_token=access,
        refresh_token=refresh,
        scopes=scopes,
        workspace_id=grant["workspace_id"],
    )


async def _active_grant_by_id(
    connection: AsyncConnection, grant_id: str, *, lock: bool = False
) -> dict[str, Any] | None:
    statement = select(grants).where(grants.c.id == grant_id, grants.c.revoked_at.is_(None))
    if lock:
        statement = statement.with_for_update()
    row = (await connection.execute(statement)).mappings().first()
    return dict(row) if row else None


def _within(scopes: list[str], grant: dict[str, Any]) -> list[str]:
    return [name for name in scopes if name in grant["scopes"]]


async def exchange_code(
    connection: AsyncConnection,
    *,
    client: dict[str, Any],
    code: str,
    redirect_uri: str,
    code_verifier: str,
    now: datetime,
) -> TokenSet:
    """authorization_code. The code is spent by its first presentation, whatever the
    outcome; a second presentation revokes every token the first one led to."""
    row = (
        (await connection.execute(select(codes).where(codes.c.code_hash == token_hash(code))))
        .mappings()
        .first()
    )
    if row is None or row["client_id"] != client["id"]:
        raise invalid_grant("The authorization code is invalid.")
    spent = await connection.execute(
        update(codes).where(codes.c.id == row["id"], codes.c.used_at.is_(None)).values(used_at=now)
    )
    if spent.rowcount != 1:
        await connection.execute(
            update(tokens)
            .where(tokens.c.code_id == row["id"], tokens.c.revoked_at.is_(None))
            .values(revoked_at=now)
        )
        raise invalid_grant(
            "The authorization code was already used; every token issued from it has been revoked.",
            commit=True,
        )
    if row["expires_at"] <= now:
        raise invalid_grant("The authorization code has expired.", commit=True)
    if row["redirect_uri"] != redirect_uri:
        raise invalid_grant(
            "redirect_uri differs from the one the code was issued for.", commit=True
        )
    if not hmac.compare_digest(pkce_challenge(code_verifier), row["code_challenge"]):
        raise invalid_grant("code_verifier does not match the code_challenge.", commit=True)
    grant = await _active_grant_by_id(connection, row["grant_id"])
    if grant is None:
        raise invalid_grant("The workspace has revoked this app.", commit=True)
    return await _issue(
        connection,
        client_id=client["id"],
        grant=grant,
        code_id=row["id"],
        scopes=_within(row["scopes"], grant),
        now=now,
        with_refresh=True,
    )


async def refresh(
    connection: AsyncConnection,
    *,
    client: dict[str, Any],
    refresh_token: str,
    scope: str | None,
    now: datetime,
) -> TokenSet:
    """refresh_token with rotation. A retired token presented again (a replay, or a second
    concurrent use: they cannot be told apart) revokes the whole family."""
    row = (
        (
            await connection.execute(
                select(tokens).where(
                    tokens.c.token_hash == token_hash(refresh_token), tokens.c.kind == "refresh"
                )
            )
        )
        .mappings()
        .first()
    )
    if row is None or row["client_id"] != client["id"] or row["revoked_at"] is not None:
        raise invalid_grant("The refresh token is invalid or revoked.")
    # The grant's row locked before any token row (PostgreSQL; SQLite's writers go one
    # at a time): two uses of one family take their locks in the same order, so the
    # second waits for the first instead of deadlocking against it over the family's
    # token rows (a 500 "deadlock detected" before, under load).
    grant = await _active_grant_by_id(connection, row["grant_id"], lock=True)
    if row["retired_at"] is not None:
        await _end_family(connection, row["grant_id"], now)
    if row["expires_at"] <= now:
        raise invalid_grant("The refresh token has expired.")
    if grant is None:
        raise invalid_grant("The workspace has revoked this app.")
    scopes = _within(narrowed(scope, row["scopes"]), grant)
    # RFC 6749 6: the new refresh token's scope is identical to the presented one's; a
    # `scope` parameter narrows only the access token.
    refresh_scopes = list(row["scopes"])
    # The one guard against two concurrent refreshes: only one UPDATE finds it unretired.
    retired = await connection.execute(
        update(tokens)
        .where(
            tokens.c.id == row["id"], tokens.c.retired_at.is_(None), tokens.c.revoked_at.is_(None)
        )
        .values(retired_at=now)
    )
    if retired.rowcount != 1:
        await _end_family(connection, row["grant_id"], now)
    return await _issue(
        connection,
        client_id=client["id"],
        grant=grant,
        code_id=row["code_id"],
        scopes=scopes,
        now=now,
        with_refresh=True,
        refresh_scopes=refresh_scopes,
    )


async def _end_family(connection: AsyncConnection, grant_id: str, now: datetime) -> None:
    await revoke_grant_tokens(connection, grant_id, now=now)
    raise invalid_grant(
        "The refresh token was already used; every token of this grant has been revoked.",
        commit=True,
    )


async def client_credentials(
    connection: AsyncConnection,
    *,
    client: dict[str, Any],
    tenant_id: str | None,
    scope: str | None,
    now: datetime,
) -> TokenSet:
    """Only for workspaces that authorized the app; an access token, no refresh token."""
    query = select(grants).where(grants.c.client_id == client["id"], grants.c.revoked_at.is_(None))
    if tenant_id is not None:
        query = query.where(grants.c.workspace_id == tenant_id)
    found = [dict(row) for row in (await connection.execute(query.limit(2))).mappings()]
    if not found:
        raise invalid_grant(
            "No such workspace has authorized this app."
            if tenant_id
            else "No workspace has authorized this app."
        )
    if len(found) > 1:
        raise invalid_request(
            "tenant_id is required: more than one workspace has authorized this app."
        )
    grant = found[0]
    scopes = narrowed(scope, list(grant["scopes"]))
    return await _issue(
        connection,
        client_id=client["id"],
        grant=grant,
        code_id=None,
        scopes=scopes,
        now=now,
        with_refresh=False,
    )


async def revoke_token(
    connection: AsyncConnection, token: str, client: dict[str, Any] | None, now: datetime
) -> None:
    """RFC 7009: an access token ends alone, a refresh token ends its family. Unknown
    tokens, and tokens of another client than the authenticated one, are left alone."""
    row = (
        await connection.execute(
            select(tokens.c.id, tokens.c.kind, tokens.c.client_id, tokens.c.grant_id).where(
                tokens.c.token_hash == token_hash(token)
            )
        )
    ).first()
    if row is None or (client is not None and row.client_id != client["id"]):
        return
    if row.kind == "refresh":
        await revoke_grant_tokens(connection, row.grant_id, now=now)
    else:
        await connection.execute(
            update(tokens)
            .where(tokens.c.id == row.id, tokens.c.revoked_at.is_(None))
            .values(revoked_at=now)
        )


def valid_verifier(verifier: str) -> bool:
    return VERIFIER.fullmatch(verifier) is not None


def valid_challenge(challenge: str) -> bool:
    return CHALLENGE.fullmatch(challenge) is not None
