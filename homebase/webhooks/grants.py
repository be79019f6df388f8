"""Subscriptions created by an OAuth app live within the app's grant (docs/webhooks.md,
"Who created a subscription").

An app-created subscription names the workspace's grant to the app. Revoking the grant
ends the subscription in the revocation's own transaction (end_for_grant, called by
oauth.service.revoke_grant, which every revocation path goes through), and cancels its
pending deliveries and retries. Fan-out and claims check the grant again (grant_limit):
it must be live, and its current scopes must read the event, so a narrowed grant
narrows the events and nothing queued before a change goes out after it. A grant
re-authorized later reuses its row but does not bring ended subscriptions back: they are
deleted, and fan-out only reads active ones.

Subscriptions created with an API key or in the console belong to the workspace: revoking
the key does not end them (docs/decisions.md, "API-key revocation and webhooks")."""

from typing import Any

from sqlalchemy import FromClause, Join

from homebase.auth.principal import Principal
from homebase.auth.scopes import expand
from homebase.db.tenancy import TenantSession
from homebase.models import (
    OAuthClient,
    OAuthGrant,
    OAuthToken,
    WebhookDelivery,
    WebhookSubscription,
)
from homebase.webhooks.records import Creator

APP_KIND = "oauth_token"  # Principal.credential_kind of an OAuth access token
NOT_COVERED = "not sent: the app's grant no longer covers this event"

subscriptions = WebhookSubscription.__table__
deliveries = WebhookDelivery.__table__
grants = OAuthGrant.__table__
clients = OAuthClient.__table__
tokens = OAuthToken.__table__

# What fan-out and claims read about a subscription's grant (outer joins: NULL when the
# subscription has no grant, or when its grant row is somehow gone).
GRANT_COLUMNS = (
    grants.c.revoked_at.label("grant_revoked_at"),
    grants.c.scopes.label("grant_scopes"),
    clients.c.revoked_at.label("client_revoked_at"),
)


def with_grant(from_clause: FromClause) -> Join:
    """`from_clause` (which includes webhook_subscriptions) joined to the grant and app."""
    return from_clause.outerjoin(grants, grants.c.id == subscriptions.c.grant_id).outerjoin(
        clients, clients.c.id == grants.c.client_id
    )


def grant_limit(row: Any) -> frozenset[str] | None:
    """The scopes (implications expanded) an app-created subscription may still read:
    empty when the grant or app is gone or revoked. None for any other subscription,
    which only its stored scopes limit."""
    if row["created_by_kind"] != APP_KIND:
        return None
    if (
        row["grant_scopes"] is None
        or row["grant_revoked_at"] is not None
        or row["client_revoked_at"] is not None
    ):
        return frozenset()
    return expand(row["grant_scopes"])


async def grant_of(session: TenantSession, principal: Principal) -> str | None:
    """The grant an OAuth access token was issued under; None for any other credential."""
    if principal.credential_kind != APP_KIND:
        return None
    row = await session.fetch_one(
        session.select(tokens, tokens.c.grant_id).where(tokens.c.id == principal.credential_id)
    )
    return row["grant_id"] if row else None


async def creator(session: TenantSession, principal: Principal) -> Creator:
    """The creating-credential columns of a new subscription."""
    return {
        "created_by": principal.credential_id,
        "created_by_kind": principal.credential_kind,
        "grant_id": await grant_of(session, principal),
    }


async def limit_of(session: TenantSession, subscription_id: str) -> frozenset[str] | None:
    """grant_limit of a stored subscription (what an update may name, service.py)."""
    row = await session.fetch_one(
        session.select(subscriptions, subscriptions.c.created_by_kind, *GRANT_COLUMNS)
        .select_from(with_grant(subscriptions))
        .where(subscriptions.c.id == subscription_id)
    )
    return grant_limit(row) if row is not None else frozenset()


async def end_for_grant(session: TenantSession, grant_id: str) -> int:
    """Ends every subscription the grant's app created in the session's workspace, and
    cancels their pending deliveries and retries. Clearing lease_attempt_id fences out an
    attempt in flight: it is logged but cannot move its delivery, so it is never retried."""
    now = session.now()
    ended = session.select(subscriptions, subscriptions.c.id).where(
        subscriptions.c.grant_id == grant_id,
        subscriptions.c.deleted_at.is_(None),
    )
    await session.execute(
        session.update(deliveries)
        .where(
            deliveries.c.subscription_id.in_(ended),
            deliveries.c.status == "pending",
        )
        .values(
            status="cancelled",
            completed_at=now,
            next_attempt_at=None,
            lease_expires_at=None,
            lease_attempt_id=None,
        )
    )
    return await session.execute(
        session.update(subscriptions)
        .where(
            subscriptions.c.grant_id == grant_id,
            subscriptions.c.deleted_at.is_(None),
        )
        .values(deleted_at=now)
    )
