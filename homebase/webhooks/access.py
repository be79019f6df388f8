"""Who may point a subscription somewhere (docs/webhooks.md, "Who may change where a
subscription sends").

`webhooks:manage` lets a credential create, list and delete subscriptions. Changing where
an existing one sends (its `url`), what it carries (`event_types`), turning it back on
(`status: active`) or replaying one of its deliveries sends events somewhere on the
subscription's authority, not the caller's. So each of them also needs every scope the
subscription carries: the catalogue scopes of its `event_types`, or, when it names none,
the read scopes stored with it (what its creator could read), both as it is and as it
would be after the change. Otherwise a `webhooks:manage` key could point an all-events
subscription at its own receiver and read what its scopes never allowed.

One more rule for OAuth apps: an app may change the `url` only of a subscription its own
grant created. Any other subscription outlives the app (revoking the app ends only what it
created), so re-pointed it would go on sending the workspace's events to the app's
receiver after the workspace revoked the app.

The API's PATCH and redeliver and the console's Enable and Redeliver all come here."""

from collections.abc import Iterable

from homebase.auth.principal import Principal
from homebase.auth.scopes import ALL_SCOPES
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ApiError, InsufficientScope
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.webhooks import grants
from homebase.webhooks.records import SubscriptionRecord


class NotTheAppsSubscription(ApiError):
    status = 403
    code = "not_the_apps_subscription"
    message = (
        "An OAuth app may change the url only of a webhook subscription it created; this "
        "one was created by another credential."
    )


def carried(event_types: Iterable[str], stored_scopes: Iterable[str]) -> set[str]:
    """The scopes a subscription carries: its event types' when it names types, else the
    read scopes stored at its creation (what `[]` delivers, at most)."""
    names = list(event_types)
    if names:
        return {EVENT_SCOPES[name].value for name in names}
    return set(stored_scopes)


def first_missing(principal: Principal, scopes: set[str]) -> str | None:
    """The first of `scopes`, in the scope catalogue's order, the credential does not hold
    (implications count: Principal.scopes is expanded)."""
    return next(
        (scope for scope in ALL_SCOPES if scope in scopes and not principal.has(scope)), None
    )


def check_carries(
    principal: Principal, current: SubscriptionRecord, event_types: list[str] | None = None
) -> None:
    """403 naming the first scope the subscription carries, as it is or with
    `event_types` instead of its own, that the credential lacks."""
    scopes = carried(current["event_types"], current["scopes"])
    if event_types is not None:
        scopes |= carried(event_types, current["scopes"])
    missing = first_missing(principal, scopes)
    if missing is not None:
        raise InsufficientScope(missing)


async def check_may_repoint(
    session: TenantSession, principal: Principal, current: SubscriptionRecord
) -> None:
    """An app changes the url of its own grant's subscriptions only."""
    if principal.credential_kind != grants.APP_KIND:
        return
    own = current["created_by_kind"] == grants.APP_KIND and current["grant_id"] is not None
    if not own or current["grant_id"] != await grants.grant_of(session, principal):
        raise NotTheAppsSubscription()
