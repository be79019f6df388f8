from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.webhook_create import WebhookCreate
from ...models.webhook_created import WebhookCreated
from ...models.webhook_created_narrowed import WebhookCreatedNarrowed
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: WebhookCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed | None:
    if response.status_code == 201:

        def _parse_response_201(
            data: object,
        ) -> WebhookCreated | WebhookCreatedNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = WebhookCreated.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = WebhookCreatedNarrowed.from_dict(data)

            return response_201_type_1

        response_201 = _parse_response_201(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorEnvelope.from_dict(response.json())

        return response_422

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
) -> Response[ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed]:
    """Subscribe to events

     The response is the only time `secret` is shown (like `id`, it is kept whatever `fields` says).
    Deliveries are signed with it: see the `webhooks` section of this document and docs/webhooks.md.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        idempotency_key (str | Unset):
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed]
    """

    kwargs = _get_kwargs(
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed | None:
    """Subscribe to events

     The response is the only time `secret` is shown (like `id`, it is kept whatever `fields` says).
    Deliveries are signed with it: see the `webhooks` section of this document and docs/webhooks.md.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        idempotency_key (str | Unset):
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed
    """

    return sync_detailed(
        client=client,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed]:
    """Subscribe to events

     The response is the only time `secret` is shown (like `id`, it is kept whatever `fields` says).
    Deliveries are signed with it: see the `webhooks` section of this document and docs/webhooks.md.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        idempotency_key (str | Unset):
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed]
    """

    kwargs = _get_kwargs(
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed | None:
    """Subscribe to events

     The response is the only time `secret` is shown (like `id`, it is kept whatever `fields` says).
    Deliveries are signed with it: see the `webhooks` section of this document and docs/webhooks.md.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: created_at, disabled_at, disabled_reason, event_types, failing_since,
            id, secret, secret_hint, status, url.
        idempotency_key (str | Unset):
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookCreated | WebhookCreatedNarrowed
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
