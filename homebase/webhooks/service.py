"""Subscription rules: creation (URL policy, scope check, a sealed secret), deletion,
and manual redelivery. Services never commit."""

from typing import Any

from homebase.auth.principal import Principal
from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit.crypto import random_token
from homebase.kit.errors import Conflict, InsufficientScope, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.sealed import seal
from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.webhooks import grants, repository
from homebase.webhooks.safety import Lookup, UnsafeUrl, check_url
from homebase.webhooks.schemas import WebhookCreate

SECRET_PREFIX = "whsec_"
SEAL_PURPOSE = "webhook-secret"


def readable_scopes(principal: Principal) -> list[str]:
    """The catalogue scopes this credential may read; fan-out filters events by them."""
    return sorted({scope.value for scope in EVENT_SCOPES.values() if principal.has(scope)})


def _check_readable(principal: Principal, event_types: list[str]) -> None:
    """Naming an event the credential may not read is refused rather than silently
    filtered: the integrator learns now, not from deliveries that never come."""
    for name in event_types:
        if not principal.has(EVENT_SCOPES[name]):
            raise InsufficientScope(EVENT_SCOPES[name].value)


async def create_subscription(
    session: TenantSession,
    principal: Principal,
    body: WebhookCreate,
    settings: Settings,
    answers: Lookup,
) -> tuple[dict[str, Any], str]:
    """`answers` holds the URL's host lookup, made before the transaction opened
    (safety.look_up_url): inside it, nothing waits on DNS."""
    _check_readable(principal, body.event_types)
    try:
        await check_url(body.url, settings, answers)
    except UnsafeUrl as refused:
        raise ValidationFailed.for_field("url", str(refused)) from refused
    subscription_id = new_id("whk")
    secret = random_token(SECRET_PREFIX)
    row = {
        "id": subscription_id,
        "url": body.url,
        "event_types": body.event_types,
        "secret_encrypted": seal(settings.keys, SEAL_PURPOSE, secret, subscription_id),
        "secret_hint": secret[:8],
        "scopes": readable_scopes(principal),
        **await grants.creator(session, principal),
        "created_at": session.now(),
        "deleted_at": None,
    }
    await repository.insert(session, row)
    return row, secret


async def get_or_404(session: TenantSession, subscription_id: str) -> dict[str, Any]:
    row = await repository.get_active(session, subscription_id)
    if row is None:
        raise NotFound("No such webhook subscription.")
    return row


async def delete_subscription(session: TenantSession, subscription_id: str) -> None:
    """Deliveries not yet made are cancelled with it; the log stays readable until then."""
    await get_or_404(session, subscription_id)
    now = session.now()
    await repository.mark_deleted(session, subscription_id, now)
    await repository.cancel_pending(session, subscription_id, now)


async def redeliver(
    session: TenantSession, subscription_id: str, delivery_id: str
) -> dict[str, Any]:
    """Due now, with a fresh schedule of six attempts; same delivery id and event_id."""
    await get_or_404(session, subscription_id)
    delivery = await repository.get_delivery(session, subscription_id, delivery_id)
    if delivery is None:
        raise NotFound("No such delivery.")
    values = {
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
