from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.o_auth_error_body import OAuthErrorBody
from ...models.revoke_oauth_token_revoke_request import RevokeOauthTokenRevokeRequest
from ...models.revoke_response import RevokeResponse
from ...types import Response


def _get_kwargs(
    *,
    body: RevokeOauthTokenRevokeRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/revoke",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | OAuthErrorBody | RevokeResponse | None:
    if response.status_code == 200:
        response_200 = RevokeResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = OAuthErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = OAuthErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = OAuthErrorBody.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | OAuthErrorBody | RevokeResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RevokeOauthTokenRevokeRequest,
) -> Response[ErrorEnvelope | OAuthErrorBody | RevokeResponse]:
    """Revoke an access or refresh token

     RFC 7009. Always 200 for a well-formed request, including for tokens that never existed. Revoking a
    refresh token ends its family (every token of the grant). Client authentication is optional; when
    sent it must be right, and then only that client's tokens are revoked. A failed client
    authentication (invalid_client) counts against the client address's budget of
    HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute, as at /oauth/token; past it, 429 rate_limited
    with Retry-After.

    Args:
        body (RevokeOauthTokenRevokeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | OAuthErrorBody | RevokeResponse]
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
    body: RevokeOauthTokenRevokeRequest,
) -> ErrorEnvelope | OAuthErrorBody | RevokeResponse | None:
    """Revoke an access or refresh token

     RFC 7009. Always 200 for a well-formed request, including for tokens that never existed. Revoking a
    refresh token ends its family (every token of the grant). Client authentication is optional; when
    sent it must be right, and then only that client's tokens are revoked. A failed client
    authentication (invalid_client) counts against the client address's budget of
    HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute, as at /oauth/token; past it, 429 rate_limited
    with Retry-After.

    Args:
        body (RevokeOauthTokenRevokeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | OAuthErrorBody | RevokeResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RevokeOauthTokenRevokeRequest,
) -> Response[ErrorEnvelope | OAuthErrorBody | RevokeResponse]:
    """Revoke an access or refresh token

     RFC 7009. Always 200 for a well-formed request, including for tokens that never existed. Revoking a
    refresh token ends its family (every token of the grant). Client authentication is optional; when
    sent it must be right, and then only that client's tokens are revoked. A failed client
    authentication (invalid_client) counts against the client address's budget of
    HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute, as at /oauth/token; past it, 429 rate_limited
    with Retry-After.

    Args:
        body (RevokeOauthTokenRevokeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | OAuthErrorBody | RevokeResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RevokeOauthTokenRevokeRequest,
) -> ErrorEnvelope | OAuthErrorBody | RevokeResponse | None:
    """Revoke an access or refresh token

     RFC 7009. Always 200 for a well-formed request, including for tokens that never existed. Revoking a
    refresh token ends its family (every token of the grant). Client authentication is optional; when
    sent it must be right, and then only that client's tokens are revoked. A failed client
    authentication (invalid_client) counts against the client address's budget of
    HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute, as at /oauth/token; past it, 429 rate_limited
    with Retry-After.

    Args:
        body (RevokeOauthTokenRevokeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | OAuthErrorBody | RevokeResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
