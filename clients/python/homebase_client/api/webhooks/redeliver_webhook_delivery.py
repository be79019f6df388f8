from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery import Delivery
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    delivery_id: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver".format(
            id=quote(str(id), safe=""),
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Delivery | ErrorEnvelope | None:
    if response.status_code == 202:
        response_202 = Delivery.from_dict(response.json())

        return response_202

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

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
) -> Response[Delivery | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Delivery | ErrorEnvelope]:
    """Redeliver an event now

     Makes the delivery due now with a fresh schedule of six attempts. The delivery id and the event_id
    stay the same, so receivers deduplicate as usual. 409 while an attempt is in flight, or while the
    subscription is disabled.

    **Who may**: a webhooks:manage credential that also holds every scope the subscription carries. The
    scopes a subscription carries are those of its `event_types`, or, when it names none, the read
    scopes stored at its creation (what its creator could read). Implications count (contacts:write
    reads contact events). Otherwise: 403 insufficient_scope naming the first missing scope.

    Args:
        id (str):
        delivery_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        delivery_id=delivery_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Delivery | ErrorEnvelope | None:
    """Redeliver an event now

     Makes the delivery due now with a fresh schedule of six attempts. The delivery id and the event_id
    stay the same, so receivers deduplicate as usual. 409 while an attempt is in flight, or while the
    subscription is disabled.

    **Who may**: a webhooks:manage credential that also holds every scope the subscription carries. The
    scopes a subscription carries are those of its `event_types`, or, when it names none, the read
    scopes stored at its creation (what its creator could read). Implications count (contacts:write
    reads contact events). Otherwise: 403 insufficient_scope naming the first missing scope.

    Args:
        id (str):
        delivery_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        delivery_id=delivery_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[Delivery | ErrorEnvelope]:
    """Redeliver an event now

     Makes the delivery due now with a fresh schedule of six attempts. The delivery id and the event_id
    stay the same, so receivers deduplicate as usual. 409 while an attempt is in flight, or while the
    subscription is disabled.

    **Who may**: a webhooks:manage credential that also holds every scope the subscription carries. The
    scopes a subscription carries are those of its `event_types`, or, when it names none, the read
    scopes stored at its creation (what its creator could read). Implications count (contacts:write
    reads contact events). Otherwise: 403 insufficient_scope naming the first missing scope.

    Args:
        id (str):
        delivery_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        delivery_id=delivery_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Delivery | ErrorEnvelope | None:
    """Redeliver an event now

     Makes the delivery due now with a fresh schedule of six attempts. The delivery id and the event_id
    stay the same, so receivers deduplicate as usual. 409 while an attempt is in flight, or while the
    subscription is disabled.

    **Who may**: a webhooks:manage credential that also holds every scope the subscription carries. The
    scopes a subscription carries are those of its `event_types`, or, when it names none, the read
    scopes stored at its creation (what its creator could read). Implications count (contacts:write
    reads contact events). Otherwise: 403 insufficient_scope naming the first missing scope.

    Args:
        id (str):
        delivery_id (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            delivery_id=delivery_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
