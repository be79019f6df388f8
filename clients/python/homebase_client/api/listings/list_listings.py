from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.listing_status import ListingStatus
from ...models.page_listing import PageListing
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListingStatus | None | Unset = UNSET,
    city: None | str | Unset = UNSET,
    state: None | str | Unset = UNSET,
    zip_: None | str | Unset = UNSET,
    min_price: float | None | Unset = UNSET,
    max_price: float | None | Unset = UNSET,
    min_beds: int | None | Unset = UNSET,
    min_baths: float | None | str | Unset = UNSET,
    property_type: None | str | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, ListingStatus):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_city: None | str | Unset
    if isinstance(city, Unset):
        json_city = UNSET
    else:
        json_city = city
    params["city"] = json_city

    json_state: None | str | Unset
    if isinstance(state, Unset):
        json_state = UNSET
    else:
        json_state = state
    params["state"] = json_state

    json_zip_: None | str | Unset
    if isinstance(zip_, Unset):
        json_zip_ = UNSET
    else:
        json_zip_ = zip_
    params["zip"] = json_zip_

    json_min_price: float | None | Unset
    if isinstance(min_price, Unset):
        json_min_price = UNSET
    else:
        json_min_price = min_price
    params["min_price"] = json_min_price

    json_max_price: float | None | Unset
    if isinstance(max_price, Unset):
        json_max_price = UNSET
    else:
        json_max_price = max_price
    params["max_price"] = json_max_price

    json_min_beds: int | None | Unset
    if isinstance(min_beds, Unset):
        json_min_beds = UNSET
    else:
        json_min_beds = min_beds
    params["min_beds"] = json_min_beds

    json_min_baths: float | None | str | Unset
    if isinstance(min_baths, Unset):
        json_min_baths = UNSET
    else:
        json_min_baths = min_baths
    params["min_baths"] = json_min_baths

    json_property_type: None | str | Unset
    if isinstance(property_type, Unset):
        json_property_type = UNSET
    else:
        json_property_type = property_type
    params["property_type"] = json_property_type

    json_agent_id: None | str | Unset
    if isinstance(agent_id, Unset):
        json_agent_id = UNSET
    else:
        json_agent_id = agent_id
    params["agent_id"] = json_agent_id

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/listings",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageListing | None:
    if response.status_code == 200:
        response_200 = PageListing.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageListing]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListingStatus | None | Unset = UNSET,
    city: None | str | Unset = UNSET,
    state: None | str | Unset = UNSET,
    zip_: None | str | Unset = UNSET,
    min_price: float | None | Unset = UNSET,
    max_price: float | None | Unset = UNSET,
    min_beds: int | None | Unset = UNSET,
    min_baths: float | None | str | Unset = UNSET,
    property_type: None | str | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageListing]:
    """List the workspace's own listings

     Only listings the workspace authored (never MLS inventory), newest first. Filters combine with AND;
    price and bath bounds are inclusive.

    Args:
        status (ListingStatus | None | Unset):
        city (None | str | Unset): Exact, case-insensitive.
        state (None | str | Unset):
        zip_ (None | str | Unset):
        min_price (float | None | Unset):
        max_price (float | None | Unset):
        min_beds (int | None | Unset):
        min_baths (float | None | str | Unset):
        property_type (None | str | Unset):
        agent_id (None | str | Unset):
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: address, agent_id, baths, beds, city, created_at, currency, description,
            id, photos, price, property_type, square_feet, state, status, unit, updated_at, url, zip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageListing]
    """

    kwargs = _get_kwargs(
        status=status,
        city=city,
        state=state,
        zip_=zip_,
        min_price=min_price,
        max_price=max_price,
        min_beds=min_beds,
        min_baths=min_baths,
        property_type=property_type,
        agent_id=agent_id,
        cursor=cursor,
        limit=limit,
        fields=fields,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: ListingStatus | None | Unset = UNSET,
    city: None | str | Unset = UNSET,
    state: None | str | Unset = UNSET,
    zip_: None | str | Unset = UNSET,
    min_price: float | None | Unset = UNSET,
    max_price: float | None | Unset = UNSET,
    min_beds: int | None | Unset = UNSET,
    min_baths: float | None | str | Unset = UNSET,
    property_type: None | str | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageListing | None:
    """List the workspace's own listings

     Only listings the workspace authored (never MLS inventory), newest first. Filters combine with AND;
    price and bath bounds are inclusive.

    Args:
        status (ListingStatus | None | Unset):
        city (None | str | Unset): Exact, case-insensitive.
        state (None | str | Unset):
        zip_ (None | str | Unset):
        min_price (float | None | Unset):
        max_price (float | None | Unset):
        min_beds (int | None | Unset):
        min_baths (float | None | str | Unset):
        property_type (None | str | Unset):
        agent_id (None | str | Unset):
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: address, agent_id, baths, beds, city, created_at, currency, description,
            id, photos, price, property_type, square_feet, state, status, unit, updated_at, url, zip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageListing
    """

    return sync_detailed(
        client=client,
        status=status,
        city=city,
        state=state,
        zip_=zip_,
        min_price=min_price,
        max_price=max_price,
        min_beds=min_beds,
        min_baths=min_baths,
        property_type=property_type,
        agent_id=agent_id,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListingStatus | None | Unset = UNSET,
    city: None | str | Unset = UNSET,
    state: None | str | Unset = UNSET,
    zip_: None | str | Unset = UNSET,
    min_price: float | None | Unset = UNSET,
    max_price: float | None | Unset = UNSET,
    min_beds: int | None | Unset = UNSET,
    min_baths: float | None | str | Unset = UNSET,
    property_type: None | str | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageListing]:
    """List the workspace's own listings

     Only listings the workspace authored (never MLS inventory), newest first. Filters combine with AND;
    price and bath bounds are inclusive.

    Args:
        status (ListingStatus | None | Unset):
        city (None | str | Unset): Exact, case-insensitive.
        state (None | str | Unset):
        zip_ (None | str | Unset):
        min_price (float | None | Unset):
        max_price (float | None | Unset):
        min_beds (int | None | Unset):
        min_baths (float | None | str | Unset):
        property_type (None | str | Unset):
        agent_id (None | str | Unset):
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: address, agent_id, baths, beds, city, created_at, currency, description,
            id, photos, price, property_type, square_feet, state, status, unit, updated_at, url, zip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageListing]
    """

    kwargs = _get_kwargs(
        status=status,
        city=city,
        state=state,
        zip_=zip_,
        min_price=min_price,
        max_price=max_price,
        min_beds=min_beds,
        min_baths=min_baths,
        property_type=property_type,
        agent_id=agent_id,
        cursor=cursor,
        limit=limit,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListingStatus | None | Unset = UNSET,
    city: None | str | Unset = UNSET,
    state: None | str | Unset = UNSET,
    zip_: None | str | Unset = UNSET,
    min_price: float | None | Unset = UNSET,
    max_price: float | None | Unset = UNSET,
    min_beds: int | None | Unset = UNSET,
    min_baths: float | None | str | Unset = UNSET,
    property_type: None | str | Unset = UNSET,
    agent_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageListing | None:
    """List the workspace's own listings

     Only listings the workspace authored (never MLS inventory), newest first. Filters combine with AND;
    price and bath bounds are inclusive.

    Args:
        status (ListingStatus | None | Unset):
        city (None | str | Unset): Exact, case-insensitive.
        state (None | str | Unset):
        zip_ (None | str | Unset):
        min_price (float | None | Unset):
        max_price (float | None | Unset):
        min_beds (int | None | Unset):
        min_baths (float | None | str | Unset):
        property_type (None | str | Unset):
        agent_id (None | str | Unset):
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: address, agent_id, baths, beds, city, created_at, currency, description,
            id, photos, price, property_type, square_feet, state, status, unit, updated_at, url, zip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageListing
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            city=city,
            state=state,
            zip_=zip_,
            min_price=min_price,
            max_price=max_price,
            min_beds=min_beds,
            min_baths=min_baths,
            property_type=property_type,
            agent_id=agent_id,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
