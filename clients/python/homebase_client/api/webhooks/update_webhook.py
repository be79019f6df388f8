from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.webhook import Webhook
from ...models.webhook_narrowed import WebhookNarrowed
from ...models.webhook_update import WebhookUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: WebhookUpdate,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/webhooks/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | Webhook | WebhookNarrowed | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Webhook | WebhookNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Webhook.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = WebhookNarrowed.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | Webhook | WebhookNarrowed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookUpdate,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | Webhook | WebhookNarrowed]:
    """Update a webhook subscription

     Any of `status`, `url`, `event_types`; at least one. `status: active` re-enables a disabled
    subscription (one the service disabled because every attempt failed for
    HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS, or one paused) and clears its failure streak; `status:
    disabled` pauses it. `url` and `event_types` follow the creation rules. Deliveries cancelled by a
    disabling stay cancelled: catch up with GET /v1/events. See docs/webhooks.md.

    **Who may**: any webhooks:manage credential may pause (`status: disabled`). A body with `url` or
    `event_types`, or `status: active`, also needs every scope the subscription carries, both as it is
    and as it would be after the change. The scopes a subscription carries are those of its
    `event_types`, or, when it names none, the read scopes stored at its creation (what its creator
    could read). Implications count (contacts:write reads contact events). Otherwise: 403
    insufficient_scope naming the first missing scope. An API key holding them may re-point an app's
    subscription (it stays the app's: it ends with the app's grant); an OAuth app may change the `url`
    only of a subscription it created (403 not_the_apps_subscription).

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        body (WebhookUpdate): Any of status, url and event_types; at least one. The secret never
            changes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Webhook | WebhookNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookUpdate,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | Webhook | WebhookNarrowed | None:
    """Update a webhook subscription

     Any of `status`, `url`, `event_types`; at least one. `status: active` re-enables a disabled
    subscription (one the service disabled because every attempt failed for
    HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS, or one paused) and clears its failure streak; `status:
    disabled` pauses it. `url` and `event_types` follow the creation rules. Deliveries cancelled by a
    disabling stay cancelled: catch up with GET /v1/events. See docs/webhooks.md.

    **Who may**: any webhooks:manage credential may pause (`status: disabled`). A body with `url` or
    `event_types`, or `status: active`, also needs every scope the subscription carries, both as it is
    and as it would be after the change. The scopes a subscription carries are those of its
    `event_types`, or, when it names none, the read scopes stored at its creation (what its creator
    could read). Implications count (contacts:write reads contact events). Otherwise: 403
    insufficient_scope naming the first missing scope. An API key holding them may re-point an app's
    subscription (it stays the app's: it ends with the app's grant); an OAuth app may change the `url`
    only of a subscription it created (403 not_the_apps_subscription).

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        body (WebhookUpdate): Any of status, url and event_types; at least one. The secret never
            changes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Webhook | WebhookNarrowed
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookUpdate,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | Webhook | WebhookNarrowed]:
    """Update a webhook subscription

     Any of `status`, `url`, `event_types`; at least one. `status: active` re-enables a disabled
    subscription (one the service disabled because every attempt failed for
    HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS, or one paused) and clears its failure streak; `status:
    disabled` pauses it. `url` and `event_types` follow the creation rules. Deliveries cancelled by a
    disabling stay cancelled: catch up with GET /v1/events. See docs/webhooks.md.

    **Who may**: any webhooks:manage credential may pause (`status: disabled`). A body with `url` or
    `event_types`, or `status: active`, also needs every scope the subscription carries, both as it is
    and as it would be after the change. The scopes a subscription carries are those of its
    `event_types`, or, when it names none, the read scopes stored at its creation (what its creator
    could read). Implications count (contacts:write reads contact events). Otherwise: 403
    insufficient_scope naming the first missing scope. An API key holding them may re-point an app's
    subscription (it stays the app's: it ends with the app's grant); an OAuth app may change the `url`
    only of a subscription it created (403 not_the_apps_subscription).

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        body (WebhookUpdate): Any of status, url and event_types; at least one. The secret never
            changes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Webhook | WebhookNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: WebhookUpdate,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | Webhook | WebhookNarrowed | None:
    """Update a webhook subscription

     Any of `status`, `url`, `event_types`; at least one. `status: active` re-enables a disabled
    subscription (one the service disabled because every attempt failed for
    HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS, or one paused) and clears its failure streak; `status:
    disabled` pauses it. `url` and `event_types` follow the creation rules. Deliveries cancelled by a
    disabling stay cancelled: catch up with GET /v1/events. See docs/webhooks.md.

    **Who may**: any webhooks:manage credential may pause (`status: disabled`). A body with `url` or
    `event_types`, or `status: active`, also needs every scope the subscription carries, both as it is
    and as it would be after the change. The scopes a subscription carries are those of its
    `event_types`, or, when it names none, the read scopes stored at its creation (what its creator
    could read). Implications count (contacts:write reads contact events). Otherwise: 403
    insufficient_scope naming the first missing scope. An API key holding them may re-point an app's
    subscription (it stays the app's: it ends with the app's grant); an OAuth app may change the `url`
    only of a subscription it created (403 not_the_apps_subscription).

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        body (WebhookUpdate): Any of status, url and event_types; at least one. The secret never
            changes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Webhook | WebhookNarrowed
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            fields=fields,
        )
    ).parsed
