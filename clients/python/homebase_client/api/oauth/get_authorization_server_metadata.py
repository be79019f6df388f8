from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.authorization_server_metadata import AuthorizationServerMetadata
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/oauth-authorization-server",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthorizationServerMetadata | None:
    if response.status_code == 200:
        response_200 = AuthorizationServerMetadata.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AuthorizationServerMetadata]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthorizationServerMetadata]:
    """OAuth 2.0 authorization server metadata (RFC 8414)

     The authorization, token and revocation endpoints and what each accepts: the code flow with PKCE
    (S256 only), the grant types, scopes and client authentication methods. Unauthenticated; cacheable
    for an hour.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> AuthorizationServerMetadata | None:
    """OAuth 2.0 authorization server metadata (RFC 8414)

     The authorization, token and revocation endpoints and what each accepts: the code flow with PKCE
    (S256 only), the grant types, scopes and client authentication methods. Unauthenticated; cacheable
    for an hour.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthorizationServerMetadata]:
    """OAuth 2.0 authorization server metadata (RFC 8414)

     The authorization, token and revocation endpoints and what each accepts: the code flow with PKCE
    (S256 only), the grant types, scopes and client authentication methods. Unauthenticated; cacheable
    for an hour.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> AuthorizationServerMetadata | None:
    """OAuth 2.0 authorization server metadata (RFC 8414)

     The authorization, token and revocation endpoints and what each accepts: the code flow with PKCE
    (S256 only), the grant types, scopes and client authentication methods. Unauthenticated; cacheable
    for an hour.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
