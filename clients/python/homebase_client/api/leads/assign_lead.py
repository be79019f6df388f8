from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.assign_request import AssignRequest
from ...models.assign_result import AssignResult
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: AssignRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/leads/{id}/assign".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AssignResult | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = AssignResult.from_dict(response.json())

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
) -> Response[AssignResult | ErrorEnvelope]:
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
    body: AssignRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[AssignResult | ErrorEnvelope]:
    """Route or re-route a lead

     With assignee_id (a member of the workspace, else 400) the lead goes to that member by hand. Without
    it the lead is routed through the rules again (a round-robin rule takes a turn). The contact's owner
    follows the assignee; a change writes a timeline entry and emits lead.assigned.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AssignRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssignResult | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AssignRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> AssignResult | ErrorEnvelope | None:
    """Route or re-route a lead

     With assignee_id (a member of the workspace, else 400) the lead goes to that member by hand. Without
    it the lead is routed through the rules again (a round-robin rule takes a turn). The contact's owner
    follows the assignee; a change writes a timeline entry and emits lead.assigned.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AssignRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssignResult | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AssignRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[AssignResult | ErrorEnvelope]:
    """Route or re-route a lead

     With assignee_id (a member of the workspace, else 400) the lead goes to that member by hand. Without
    it the lead is routed through the rules again (a round-robin rule takes a turn). The contact's owner
    follows the assignee; a change writes a timeline entry and emits lead.assigned.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AssignRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssignResult | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: AssignRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> AssignResult | ErrorEnvelope | None:
    """Route or re-route a lead

     With assignee_id (a member of the workspace, else 400) the lead goes to that member by hand. Without
    it the lead is routed through the rules again (a round-robin rule takes a turn). The contact's owner
    follows the assignee; a change writes a timeline entry and emits lead.assigned.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (AssignRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssignResult | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
