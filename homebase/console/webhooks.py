"""Webhook subscriptions in the console: list (with each one's status: a disabled one
says why and since when, and can be enabled again), create (the secret shown once),
delete (a confirmation page, then the POST), and each one's delivery log with redeliver.

The rules (URL safety, event catalogue, sealed secrets, cancelling pending deliveries,
redelivery, and who may re-enable or replay a subscription: webhooks/access.py) are
homebase/webhooks/service.py's, called with a member principal; an ApiError it raises is
shown on the page, with the transaction rolled back. A member holds every scope of the
workspace, so today every member may enable and redeliver every subscription; the check
runs all the same, so a member role with fewer scopes would be bound by it."""

from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.principal import Principal
from homebase.auth.scopes import ALL_SCOPES, expand
from homebase.console.common import (
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.sessions import Member
from homebase.console.webhook_creators import MEMBER_KIND, describe
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError, NotFound
from homebase.kit.validation import field_errors
from homebase.outbox.catalogue import EVENT_TYPES
from homebase.runtime import get_runtime
from homebase.webhooks import repository, service
from homebase.webhooks.dispatcher import MAX_ATTEMPTS
from homebase.webhooks.safety import PreResolved, look_up_url
from homebase.webhooks.schemas import WebhookCreate, WebhookUpdate

router = APIRouter(include_in_schema=False)
PATH = "/console/webhooks"
CREDENTIAL_KIND = MEMBER_KIND


def member_principal(member: Member) -> Principal:
    """Members hold every scope in their own workspace (v1 has no roles)."""
    return Principal(
        workspace_id=member.workspace_id,
        scopes=expand(ALL_SCOPES),
        granted_scopes=ALL_SCOPES,
        credential_kind=CREDENTIAL_KIND,
        credential_id=member.user_id,
        rate_limit_bucket=f"console:{member.user_id}",
        rate_limit_per_min=0,
    )


def _not_found(error: ApiError) -> ConsolePageError:
    return ConsolePageError(
        error.status, "Not found" if error.status == 404 else "Refused", error.message
    )


async def _list_page(
    request: Request,
    member: Member,
    *,
    url: str = "",
    chosen: list[str] | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request,
            session,
            repository.listing(session).page,
        )
        creators = await describe(session, rows)
    return member_page(
        request,
        member,
        "console/webhooks.html",
        status,
        notice=notice,
        subscriptions=rows,
        creators=creators,
        older=older,
        url=url,
        chosen=chosen or [],
        errors=errors or [],
        event_types=EVENT_TYPES,
    )


@router.get(PATH)
async def list_webhooks(
    request: Request, deleted: str | None = None, enabled: str | None = None
) -> Response:
    member = await signed_in(request)
    notice = "The subscription was deleted." if deleted else None
    if enabled:
        notice = "The subscription is enabled again: new events are delivered to it."
    return await _list_page(request, member, notice=notice)


@router.post(PATH)
async def create_webhook(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    url = field(form, "url")
    chosen = [value for value in form.getlist("event_types") if isinstance(value, str)]
    try:
        body = WebhookCreate(url=url, event_types=chosen)
    except ValidationError as invalid:
        errors = [f"{item['field']}: {item['message']}" for item in field_errors(invalid.errors())]
        return await _list_page(request, member, url=url, chosen=chosen, errors=errors, status=400)
    runtime = get_runtime(request)
    # Resolved before the transaction opens, as on the API (docs/webhooks.md).
    answers = await look_up_url(body.url, runtime.settings, runtime.resolver)
    try:
        async with member_session(request, member, write=True) as session:
            row, secret = await service.create_subscription(
                session,
                member_principal(member),
                body=body,
                settings=runtime.settings,
                answers=answers,
            )
    except ApiError as refused:
        return await _list_page(
            request, member, url=url, chosen=chosen, errors=[refused.message], status=refused.status
        )
    return member_page(
        request,
        member,
        "console/webhook_created.html",
        no_store=True,
        secret=secret,
        url=row["url"],
    )


@router.get(PATH + "/{subscription_id}/delete")
async def confirm_delete_webhook(request: Request, subscription_id: str) -> Response:
    """What deleting the subscription does, and the form that does it."""
    member = await signed_in(request)
    async with member_session(request, member) as session:
        subscription = await repository.get_active(session, subscription_id)
        if subscription is None:
            raise ConsolePageError(404, "Not found", "No such webhook subscription.")
        creator = (await describe(session, [subscription]))[subscription_id]
    return member_page(
        request,
        member,
        "console/confirm_delete_webhook.html",
        subscription=subscription,
        creator=creator,
    )


@router.post(PATH + "/{subscription_id}/delete")
async def delete_webhook(request: Request, subscription_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.delete_subscription(session, subscription_id)
    except NotFound as missing:
        raise _not_found(missing) from None
    return see_other(f"{PATH}?deleted=1")


@router.post(PATH + "/{subscription_id}/enable")
async def enable_webhook(request: Request, subscription_id: str) -> Response:
    """As PATCH /v1/webhooks/{id} with status active: clears the failure streak too."""
    member = await signed_in(request)
    await posted_form(request, member)
    runtime = get_runtime(request)
    try:
        async with member_session(request, member, write=True) as session:
            await service.update_subscription(
                session,
                member_principal(member),
                subscription_id=subscription_id,
                body=WebhookUpdate(status="active"),
                settings=runtime.settings,
                answers=PreResolved(),  # no URL changes: nothing to look up
            )
    except ApiError as refused:
        raise _not_found(refused) from None
    return see_other(f"{PATH}?enabled=1")


def _schedule(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Where each pending delivery stands in its schedule of MAX_ATTEMPTS attempts: the
    attempt a worker is making now (a claim counts it in `attempts`), or the next one and
    when it is due."""
    shown = {}
    for row in rows:
        if row["status"] != "pending":
            continue
        under_way = row["lease_attempt_id"] is not None
        shown[row["id"]] = {
            "number": row["attempts"] if under_way else row["attempts"] + 1,
            "under_way": under_way,
            "at": None if under_way else row["next_attempt_at"],
        }
    return shown


@router.get(PATH + "/{subscription_id}")
async def delivery_log(
    request: Request, subscription_id: str, redelivered: str | None = None
) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        subscription = await repository.get_active(session, subscription_id)
        if subscription is None:
            raise ConsolePageError(404, "Not found", "No such webhook subscription.")
        rows, older = await keyset_page(
            request,
            session,
            lambda after, limit: repository.deliveries_statement(
                session, subscription_id, after_id=after, limit=limit
            ),
        )
        attempts = await repository.attempts_of(session, [row["id"] for row in rows])
        creator = (await describe(session, [subscription]))[subscription_id]
    return member_page(
        request,
        member,
        "console/webhook_deliveries.html",
        subscription=subscription,
        subscription_id=subscription_id,
        creator=creator,
        deliveries=rows,
        attempts=attempts,
        schedule=_schedule(rows),
        max_attempts=MAX_ATTEMPTS,
        older=older,
        redelivered=bool(redelivered),
    )


@router.post(PATH + "/{subscription_id}/deliveries/{delivery_id}/redeliver")
async def redeliver(request: Request, subscription_id: str, delivery_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.redeliver(
                session,
                member_principal(member),
                subscription_id=subscription_id,
                delivery_id=delivery_id,
            )
    except ApiError as refused:
        raise _not_found(refused) from None
    return see_other(f"{PATH}/{subscription_id}?redelivered=1")
