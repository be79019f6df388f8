"""Which credential created each webhook subscription, and what revoking it does, for the
console's webhook pages. The rule itself is homebase/webhooks/grants.py's: an app's
subscriptions end with the app's access; the others belong to the workspace
(docs/webhooks.md, "Who created a subscription")."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.models import ApiKey, OAuthClient, OAuthGrant, User
from homebase.webhooks.grants import APP_KIND

api_keys = ApiKey.__table__
grants = OAuthGrant.__table__
clients = OAuthClient.__table__
users = User.__table__

KEY_KIND = "api_key"
MEMBER_KIND = "console_member"
APP_EFFECT = "Ends when the app's access is revoked (Connected apps)."
KEY_EFFECT = "Revoking the key does not stop it; delete it here to stop it."
WORKSPACE_EFFECT = "Stays until deleted here."


@dataclass(frozen=True)
class Creator:
    """What the "Created by" cell shows (templates/console/webhook_macros.html): a label,
    the credential's id or hint in code type, whether it is revoked, and the effect."""

    label: str
    effect: str
    code: str | None = None
    revoked: bool = False


def _ids(rows: Sequence[Mapping[str, Any]], kind: str, column: str) -> list[str]:
    return sorted(
        {row[column] for row in rows if row["created_by_kind"] == kind and row[column] is not None}
    )


async def describe(session: TenantSession, rows: Sequence[Mapping[str, Any]]) -> dict[str, Creator]:
    """Subscription id -> the creating credential and what revoking it does. `rows`:
    subscriptions (webhooks/records.SubscriptionRecord)."""
    keys = {
        row["id"]: row
        for row in await session.fetch_all(
            session.select(
                api_keys, api_keys.c.id, api_keys.c.name, api_keys.c.key_hint, api_keys.c.revoked_at
            ).where(api_keys.c.id.in_(_ids(rows, KEY_KIND, "created_by")))
        )
    }
    apps = {
        row["id"]: row
        for row in await session.fetch_all(
            session.select(grants, grants.c.id, clients.c.id.label("client_id"), clients.c.name)
            .join_from(grants, clients, clients.c.id == grants.c.client_id)
            .where(grants.c.id.in_(_ids(rows, APP_KIND, "grant_id")))
        )
    }
    members = {
        row["id"]: row
        for row in await session.fetch_all(
            session.select(users, users.c.id, users.c.name, users.c.email).where(
                users.c.id.in_(_ids(rows, MEMBER_KIND, "created_by"))
            )
        )
    }
    return {row["id"]: _cell(row, keys, apps, members) for row in rows}


def _cell(
    row: Mapping[str, Any],
    keys: dict[str, dict[str, Any]],
    apps: dict[str, dict[str, Any]],
    members: dict[str, dict[str, Any]],
) -> Creator:
    kind = row["created_by_kind"]
    if kind == APP_KIND:
        app = apps.get(row["grant_id"])
        if app is None:
            return Creator("An OAuth app", APP_EFFECT)
        return Creator(f"App {app['name']}", APP_EFFECT, code=app["client_id"])
    if kind == KEY_KIND:
        key = keys.get(row["created_by"])
        if key is None:
            return Creator("An API key", KEY_EFFECT)
        return Creator(
            f"API key {key['name']}",
            KEY_EFFECT,
            code=f"{key['key_hint']}…",
            revoked=key["revoked_at"] is not None,
        )
    if kind == MEMBER_KIND:
        member = members.get(row["created_by"])
        return Creator(f"Console: {member['name']}" if member else "Console", WORKSPACE_EFFECT)
    return Creator("Not recorded (created before this was kept)", WORKSPACE_EFFECT)
