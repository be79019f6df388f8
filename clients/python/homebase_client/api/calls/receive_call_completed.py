from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.call_recorded import CallRecorded
from ...models.error_envelope import ErrorEnvelope
from ...models.receive_call_completed_call_completed import (
    ReceiveCallCompletedCallCompleted,
)
from ...types import Response


def _get_kwargs(
    *,
    body: ReceiveCallCompletedCallCompleted,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/providers/calls/completed",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CallRecorded | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CallRecorded.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CallRecorded.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CallRecorded | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveCallCompletedCallCompleted,
) -> Response[CallRecorded | ErrorEnvelope]:
    """Provider callback: a call finished

     For the telephony provider, not API clients. Sign the exact raw body: `X-Homebase-Signature:
    sha256=<hex HMAC-SHA256 keyed by HOMEBASE_CALLS_PROVIDER_SECRET>`. Records the call (201), or
    answers 200 with created false when provider_call_id was already recorded; matches the contact by
    the other party's number, adds a call entry to its timeline and emits call.completed.

    Args:
        body (ReceiveCallCompletedCallCompleted): The provider callback body. The workspace is
            workspace_id when given, else the
            workspace that owns the receiving number (to for inbound, from for outbound).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallRecorded | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveCallCompletedCallCompleted,
) -> CallRecorded | ErrorEnvelope | None:
    """Provider callback: a call finished

     For the telephony provider, not API clients. Sign the exact raw body: `X-Homebase-Signature:
    sha256=<hex HMAC-SHA256 keyed by HOMEBASE_CALLS_PROVIDER_SECRET>`. Records the call (201), or
    answers 200 with created false when provider_call_id was already recorded; matches the contact by
    the other party's number, adds a call entry to its timeline and emits call.completed.

    Args:
        body (ReceiveCallCompletedCallCompleted): The provider callback body. The workspace is
            workspace_id when given, else the
            workspace that owns the receiving number (to for inbound, from for outbound).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallRecorded | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveCallCompletedCallCompleted,
) -> Response[CallRecorded | ErrorEnvelope]:
    """Provider callback: a call finished

     For the telephony provider, not API clients. Sign the exact raw body: `X-Homebase-Signature:
    sha256=<hex HMAC-SHA256 keyed by HOMEBASE_CALLS_PROVIDER_SECRET>`. Records the call (201), or
    answers 200 with created false when provider_call_id was already recorded; matches the contact by
    the other party's number, adds a call entry to its timeline and emits call.completed.

    Args:
        body (ReceiveCallCompletedCallCompleted): The provider callback body. The workspace is
            workspace_id when given, else the
            workspace that owns the receiving number (to for inbound, from for outbound).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallRecorded | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveCallCompletedCallCompleted,
) -> CallRecorded | ErrorEnvelope | None:
    """Provider callback: a call finished

     For the telephony provider, not API clients. Sign the exact raw body: `X-Homebase-Signature:
    sha256=<hex HMAC-SHA256 keyed by HOMEBASE_CALLS_PROVIDER_SECRET>`. Records the call (201), or
    answers 200 with created false when provider_call_id was already recorded; matches the contact by
    the other party's number, adds a call entry to its timeline and emits call.completed.

    Args:
        body (ReceiveCallCompletedCallCompleted): The provider callback body. The workspace is
            workspace_id when given, else the
            workspace that owns the receiving number (to for inbound, from for outbound).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallRecorded | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
