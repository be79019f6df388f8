from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.custom_field_deleted import CustomFieldDeleted
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/custom-fields/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CustomFieldDeleted | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CustomFieldDeleted.from_dict(response.json())

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
) -> Response[CustomFieldDeleted | ErrorEnvelope]:
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
) -> Response[CustomFieldDeleted | ErrorEnvelope]:
    """Delete a custom field

     Changing a field needs contacts:write for object contacts and deals:write for object deals (403
    otherwise). The field goes at once: no record renders its values from now on, filters no longer know
    its key, and the key is free for a new field (which starts with no values). The stored values are
    removed in the background.

    Args:
        id (str): The custom field's id. An unknown id, a deleted field's and another workspace's
            all answer 404.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomFieldDeleted | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> CustomFieldDeleted | ErrorEnvelope | None:
    """Delete a custom field

     Changing a field needs contacts:write for object contacts and deals:write for object deals (403
    otherwise). The field goes at once: no record renders its values from now on, filters no longer know
    its key, and the key is free for a new field (which starts with no values). The stored values are
    removed in the background.

    Args:
        id (str): The custom field's id. An unknown id, a deleted field's and another workspace's
            all answer 404.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomFieldDeleted | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[CustomFieldDeleted | ErrorEnvelope]:
    """Delete a custom field

     Changing a field needs contacts:write for object contacts and deals:write for object deals (403
    otherwise). The field goes at once: no record renders its values from now on, filters no longer know
    its key, and the key is free for a new field (which starts with no values). The stored values are
    removed in the background.

    Args:
        id (str): The custom field's id. An unknown id, a deleted field's and another workspace's
            all answer 404.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomFieldDeleted | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> CustomFieldDeleted | ErrorEnvelope | None:
    """Delete a custom field

     Changing a field needs contacts:write for object contacts and deals:write for object deals (403
    otherwise). The field goes at once: no record renders its values from now on, filters no longer know
    its key, and the key is free for a new field (which starts with no values). The stored values are
    removed in the background.

    Args:
        id (str): The custom field's id. An unknown id, a deleted field's and another workspace's
            all answer 404.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomFieldDeleted | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
