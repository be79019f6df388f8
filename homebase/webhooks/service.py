"""Subscription rules: creation (URL policy, scope check, a sealed secret), updates
(status, url, event_types), deletion, and manual redelivery. Who may re-point, re-enable
or replay a subscription is access.py's. Services never commit."""

from homebase.auth.principal import Principal
from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit.crypto import random_token
from homebase.kit.errors import Conflict, InsufficientScope, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.sealed import seal
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.webhooks import access, grants, repository, streaks
from homebase.webhooks.records import (
    DeliveryChanges,
    DeliveryRecord,
    SubscriptionChanges,
    SubscriptionRecord,
)
from homebase.webhooks.safety import Lookup, UnsafeUrl, check_url
from homebase.webhooks.schemas import WebhookCreate, WebhookUpdate

SECRET_PREFIX = "whsec_"
SEAL_PURPOSE = "webhook-secret"


def readable_scopes(principal: Principal) -> list[str]:
    """The catalogue scopes this credential may read; fan-out filters events by them."""
    return sorted({scope.value for scope in EVENT_SCOPES.values() if principal.has(scope)})


def _check_readable(principal: Principal, event_types: list[str]) -> None:
    """Naming an event the credential may not read is refused rather than silently
    filtered: the integrator learns now, not from deliveries that never come. The 403
    names the first missing scope in the scope catalogue's order, as a PATCH's does."""
    missing = access.first_missing(principal, access.carried(event_types, ()))
    if missing is not None:
        raise InsufficientScope(missing)


async def create_subscription(
    session: TenantSession,
    principal: Principal,
    *,
    body: WebhookCreate,
    settings: Settings,
    answers: Lookup,
) -> tuple[SubscriptionRecord, str]:
    """`answers` holds the URL's host lookup, made before the transaction opened
    (safety.look_up_url): inside it, nothing waits on DNS."""
    _check_readable(principal, body.event_types)
    try:
        await check_url(body.url, settings, answers)
    except UnsafeUrl as refused:
        raise ValidationFailed.for_field("url", str(refused)) from refused
    subscription_id = new_id("whk")
    secret = random_token(SECRET_PREFIX)
    row: SubscriptionRecord = {
        "id": subscription_id,
        "url": body.url,
        "event_types": body.event_types,
        "secret_encrypted": seal(settings.keys, SEAL_PURPOSE, secret, subscription_id),
        "secret_hint": secret[:8],
        "scopes": readable_scopes(principal),
        **await grants.creator(session, principal),
        "created_at": session.now(),
        "deleted_at": None,
        "failing_since": None,
        "disabled_at": None,
        "disabled_reason": None,
    }
    await repository.insert(session, row)
    return row, secret


async def get_or_404(session: TenantSession, subscription_id: str) -> SubscriptionRecord:
    row = await repository.get_active(session, subscription_id)
    if row is None:
        raise NotFound("No such webhook subscription.")
    return row


async def _unreadable(
    session: TenantSession, current: SubscriptionRecord, event_types: list[str]
) -> str | None:
    """Why the subscription itself may not receive one of `event_types`, if it may not:
    its stored scopes (its creator's) and, for an app's, its grant's scopes now, as
    fan-out filters them. Naming such an event would subscribe to deliveries that never
    come, so it is refused, as naming one the credential may not read is."""
    limit = await grants.limit_of(session, current["id"])
    for name in event_types:
        scope = EVENT_SCOPES[name].value
        if scope not in current["scopes"] or (limit is not None and scope not in limit):
            return (
                f"this subscription may not receive {name} (it needs {scope}, which its "
                "creator's access does not include); create another subscription for it"
            )
    return None


async def update_subscription(
    session: TenantSession,
    principal: Principal,
    *,
    subscription_id: str,
    body: WebhookUpdate,
    settings: Settings,
    answers: Lookup,
) -> SubscriptionRecord:
    """`answers`: the new URL's host lookup, made before the transaction opened, as at
    creation. A body that could send the subscription's events somewhere new (`url`,
    `event_types`, `status: active`) needs every scope it carries, before and after
    (access.py): 403 before any 400. Every 400 at once; the secret, scopes and creator
    never change."""
    current = await get_or_404(session, subscription_id)
    sent = body.model_fields_set
    if sent & {"url", "event_types"} or body.status == "active":
        access.check_carries(
            principal, current, body.event_types if "event_types" in sent else None
        )
    if "url" in sent:
        await access.check_may_repoint(session, principal, current)
    now = session.now()
    values: SubscriptionChanges = {}
    failures: list[tuple[str, str]] = []
    if "event_types" in sent:
        problem = await _unreadable(session, current, body.event_types)
        if problem:
            failures.append(("event_types", problem))
        values["event_types"] = body.event_types
    if "url" in sent:
        try:
            await check_url(body.url, settings, answers)
        except UnsafeUrl as refused:
            failures.append(("url", str(refused)))
        if body.url != current["url"]:
            # Another receiver: the old one's failures say nothing about it.
            values |= {"url": body.url, "failing_since": None}
    if failures:
        raise ValidationFailed.for_fields(failures)
    disabled = current["disabled_at"] is not None
    if body.status == "active" and disabled:
        values |= {"disabled_at": None, "disabled_reason": None, "failing_since": None}
    elif body.status == "disabled" and not disabled:
        values |= {"disabled_at": now, "disabled_reason": streaks.PAUSED}
    if values:
        await repository.update(session, subscription_id, values)
    if values.get("disabled_reason") == streaks.PAUSED:
        # After the subscription's row: the order the worker and DELETE lock them in.
        await repository.cancel_pending(session, subscription_id, now, reason=streaks.CANCELLED)
    return {**current, **values}


async def delete_subscription(session: TenantSession, subscription_id: str) -> None:
    """Deliveries not yet made are cancelled with it; the log stays readable until then."""
    await get_or_404(session, subscription_id)
    now = session.now()
    await repository.mark_deleted(session, subscription_id, now)
    await repository.cancel_pending(session, subscription_id, now)


async def redeliver(
    session: TenantSession, principal: Principal, *, subscription_id: str, delivery_id: str
) -> DeliveryRecord:
    """Due now, with a fresh schedule of six attempts; same delivery id and event_id.
    Needs every scope the subscription carries (access.py), checked before the delivery is
    looked up. Refused while the subscription is disabled: nothing is sent to it until
    re-enabled."""
    subscription = await get_or_404(session, subscription_id)
    access.check_carries(principal, subscription)
    delivery = await repository.get_delivery(session, subscription_id, delivery_id)
    if delivery is None:
        raise NotFound("No such delivery.")
    if subscription["disabled_at"] is not None:
        raise Conflict(
            "The subscription is disabled; re-enable it (PATCH status active) to redeliver."
        )
    values: DeliveryChanges = {
        "status": "pending",
        "attempts": 0,
        "next_attempt_at": session.now(),
        "completed_at": None,
    }
    if not await repository.reschedule(session, delivery_id, values):
        # Retention may have deleted it since it was read (docs/operations.md): a pruned
        # delivery is not redeliverable, and says so as an unknown one does.
        if await repository.get_delivery(session, subscription_id, delivery_id) is None:
            raise NotFound("No such delivery.")
        raise Conflict("An attempt of this delivery is in progress; try again when it ends.")
    return {**delivery, **values}
