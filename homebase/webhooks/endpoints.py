from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.http.v1_route import before_transaction
from homebase.idempotency.store import not_replayed
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, ErrorEnvelope, error_responses
from homebase.kit.pagination import (
    Page,
    PageBody,
    PageRequest,
    decode_cursor,
    list_key,
    page_body,
    page_request,
)
from homebase.kit.responses import Sent, respond
from homebase.runtime import get_runtime
from homebase.webhooks import render, repository, service
from homebase.webhooks.safety import PreResolved, look_up_url
from homebase.webhooks.schemas import (
    Delivery,
    Webhook,
    WebhookCreate,
    WebhookCreated,
    WebhookDeleted,
    WebhookUpdate,
)

router = v1_router(prefix="/webhooks", tags=["webhooks"])

WebhooksManage = Annotated[Principal, require(Scope.webhooks_manage)]
WebhookFields = Annotated[Projection, Depends(field_selector(WebhookCreated))]
DeliveryFields = Annotated[Projection, Depends(field_selector(Delivery))]
Pages = Annotated[PageRequest, Depends(page_request)]

# Who may re-point, re-enable or replay a subscription (webhooks/access.py), in the words
# of the operations' descriptions and their 403 answers.
_CARRIED = (
    "The scopes a subscription carries are those of its `event_types`, or, when it names "
    "none, the read scopes stored at its creation (what its creator could read). "
    "Implications count (contacts:write reads contact events). Otherwise: 403 "
    "insufficient_scope naming the first missing scope."
)
_UPDATE_ACCESS = (
    "**Who may**: any webhooks:manage credential may pause (`status: disabled`). A body "
    "with `url` or `event_types`, or `status: active`, also needs every scope the "
    "subscription carries, both as it is and as it would be after the change. "
    + _CARRIED
    + " An API key holding them may re-point an app's subscription (it stays the app's: it "
    "ends with the app's grant); an OAuth app may change the `url` only of a subscription "
    "it created (403 not_the_apps_subscription)."
)
_REDELIVER_ACCESS = (
    "**Who may**: a webhooks:manage credential that also holds every scope the "
    "subscription carries. " + _CARRIED
)


# FastAPI's `responses`: OpenAPI's own JSON
def _forbidden(description: str) -> dict[int | str, dict[str, Any]]:
    return {403: {"model": ErrorEnvelope, "description": description}}


@router.get(
    "",
    response_model=Page[Webhook],
    summary="List webhook subscriptions",
    responses=error_responses(*READ_ERRORS),
)
async def list_webhooks(
    request: Request, principal: WebhooksManage, session: Tenant, page: Pages, fields: WebhookFields
) -> Sent[PageBody[Webhook]]:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session),
        filters=None,
        render=render.subscription,
        fields=fields,
    )


async def look_up_the_url(request: Request, principal: Principal) -> None:
    """Before the transaction: the URL host's DNS lookup, whose answer (or refusal) the
    creation (or update) check then reads from `request.state.url_answers`. Only a credential that
    may create webhooks makes us ask DNS anything; a body that is not an object with a
    string `url` is refused by validation, which needs no answer."""
    answers = PreResolved()
    body = await request.json() if await request.body() else None
    url = body.get("url") if isinstance(body, dict) else None
    if isinstance(url, str) and principal.has(Scope.webhooks_manage):
        runtime = get_runtime(request)
        answers = await look_up_url(url, runtime.settings, runtime.resolver)
    request.state.url_answers = answers


@router.post(
    "",
    status_code=201,
    response_model=WebhookCreated,
    summary="Subscribe to events",
    description="The response is the only time `secret` is shown (like `id`, it is "
    "kept whatever `fields` says). Deliveries are signed with it: see the "
    "`webhooks` section of this document and docs/webhooks.md.",
    responses=error_responses(*READ_ERRORS),
)
@before_transaction(look_up_the_url)
@not_replayed("secret")
async def create_webhook(
    request: Request,
    body: WebhookCreate,
    principal: WebhooksManage,
    session: Tenant,
    fields: WebhookFields,
) -> Sent[WebhookCreated]:
    settings = get_runtime(request).settings
    row, secret = await service.create_subscription(
        session, principal, body=body, settings=settings, answers=request.state.url_answers
    )
    # `fields` narrowing the secret away would lose it for good: it can't be read again.
    created: WebhookCreated = {**render.subscription(row), "secret": secret}
    return respond(created, lambda payload: {**fields(payload), "secret": secret}, 201)


@router.get(
    "/{id}",
    response_model=Webhook,
    summary="Retrieve a webhook subscription",
    responses=error_responses(*ONE_ERRORS),
)
async def get_webhook(
    id: str, principal: WebhooksManage, session: Tenant, fields: WebhookFields
) -> Sent[Webhook]:
    return respond(render.subscription(await service.get_or_404(session, id)), fields)


@router.patch(
    "/{id}",
    response_model=Webhook,
    summary="Update a webhook subscription",
    response_description="The subscription as updated (never the secret, which stays).",
    description="Any of `status`, `url`, `event_types`; at least one. `status: active` "
    "re-enables a disabled subscription (one the service disabled because every attempt "
    "failed for HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS, or one paused) and clears its failure "
    "streak; `status: disabled` pauses it. `url` and `event_types` follow the creation "
    "rules. Deliveries cancelled by a disabling stay cancelled: catch up with GET "
    "/v1/events. See docs/webhooks.md.\n\n" + _UPDATE_ACCESS,
    responses={
        **error_responses(*ONE_ERRORS),
        **_forbidden(
            "insufficient_scope: the credential lacks webhooks:manage, or (for `url`, "
            "`event_types` or `status: active`) a scope the subscription carries before or "
            "after the change; details.missing_scope names the first, in the order of the "
            "scope list. not_the_apps_subscription: an OAuth app sent `url` for a "
            "subscription it did not create."
        ),
    },
)
@before_transaction(look_up_the_url)
async def update_webhook(
    request: Request,
    id: str,
    body: WebhookUpdate,
    principal: WebhooksManage,
    session: Tenant,
    fields: WebhookFields,
) -> Sent[Webhook]:
    row = await service.update_subscription(
        session,
        principal,
        subscription_id=id,
        body=body,
        settings=get_runtime(request).settings,
        answers=request.state.url_answers,
    )
    return respond(render.subscription(row), fields)


@router.delete(
    "/{id}",
    response_model=WebhookDeleted,
    summary="Unsubscribe",
    description="Answers 200 with `{id, deleted: true}`. Deliveries not yet made "
    "are cancelled; the subscription is then unknown (404).",
    responses=error_responses(*ONE_ERRORS),
)
async def delete_webhook(
    id: str, principal: WebhooksManage, session: Tenant
) -> Sent[WebhookDeleted]:
    await service.delete_subscription(session, id)
    return respond(WebhookDeleted(id=id, deleted=True))


@router.get(
    "/{id}/deliveries",
    response_model=Page[Delivery],
    summary="List a subscription's deliveries with their attempts",
    responses=error_responses(*ONE_ERRORS),
)
async def list_webhook_deliveries(
    request: Request,
    id: str,
    principal: WebhooksManage,
    session: Tenant,
    page: Pages,
    fields: DeliveryFields,
) -> Sent[PageBody[Delivery]]:
    await service.get_or_404(session, id)
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, request.url.path, {})
    after_id = decode_cursor(keys, key, page.cursor)
    rows = await repository.deliveries_page(session, id, after_id=after_id, limit=page.limit)
    attempts = await repository.attempts_of(session, [row["id"] for row in rows[: page.limit]])
    return respond(
        page_body(
            rows, page.limit, lambda row: render.delivery(row, attempts[row["id"]]), keys, key
        ),
        lambda body: {**body, "data": [fields(item) for item in body["data"]]},
    )


@router.post(
    "/{id}/deliveries/{delivery_id}/redeliver",
    status_code=202,
    response_model=Delivery,
    summary="Redeliver an event now",
    description="Makes the delivery due now with a fresh schedule of six attempts. "
    "The delivery id and the event_id stay the same, so receivers "
    "deduplicate as usual. 409 while an attempt is in flight, or while the subscription "
    "is disabled.\n\n" + _REDELIVER_ACCESS,
    responses={
        **error_responses(*ONE_ERRORS, 409),
        **_forbidden(
            "insufficient_scope: the credential lacks webhooks:manage, or a scope the "
            "subscription carries; details.missing_scope names the first, in the order of "
            "the scope list."
        ),
    },
)
async def redeliver_webhook_delivery(
    id: str, delivery_id: str, principal: WebhooksManage, session: Tenant
) -> Sent[Delivery]:
    delivery = await service.redeliver(
        session, principal, subscription_id=id, delivery_id=delivery_id
    )
    attempts = await repository.attempts_of(session, [delivery_id])
    return respond(render.delivery(delivery, attempts[delivery_id]), status_code=202)
