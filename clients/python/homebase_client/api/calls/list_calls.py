import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.call_direction import CallDirection
from ...models.error_envelope import ErrorEnvelope
from ...models.handled_by import HandledBy
from ...models.page_call import PageCall
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    contact_id: None | str | Unset = UNSET,
    direction: CallDirection | None | Unset = UNSET,
    handled_by: HandledBy | None | Unset = UNSET,
    disposition: None | str | Unset = UNSET,
    started_after: datetime.datetime | None | Unset = UNSET,
    started_before: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_contact_id: None | str | Unset
    if isinstance(contact_id, Unset):
        json_contact_id = UNSET
    else:
        json_contact_id = contact_id
    params["contact_id"] = json_contact_id

    json_direction: None | str | Unset
    if isinstance(direction, Unset):
        json_direction = UNSET
    elif isinstance(direction, CallDirection):
        json_direction = direction.value
    else:
        json_direction = direction
    params["direction"] = json_direction

    json_handled_by: None | str | Unset
    if isinstance(handled_by, Unset):
        json_handled_by = UNSET
    elif isinstance(handled_by, HandledBy):
        json_handled_by = handled_by.value
    else:
        json_handled_by = handled_by
    params["handled_by"] = json_handled_by

    json_disposition: None | str | Unset
    if isinstance(disposition, Unset):
        json_disposition = UNSET
    else:
        json_disposition = disposition
    params["disposition"] = json_disposition

    json_started_after: None | str | Unset
    if isinstance(started_after, Unset):
        json_started_after = UNSET
    elif isinstance(started_after, datetime.datetime):
        json_started_after = started_after.isoformat()
    else:
        json_started_after = started_after
    params["started_after"] = json_started_after

    json_started_before: None | str | Unset
    if isinstance(started_before, Unset):
        json_started_before = UNSET
    elif isinstance(started_before, datetime.datetime):
        json_started_before = started_before.isoformat()
    else:
        json_started_before = started_before
    params["started_before"] = json_started_before

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
        "url": "/v1/calls",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageCall | None:
    if response.status_code == 200:
        response_200 = PageCall.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageCall]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    contact_id: None | str | Unset = UNSET,
    direction: CallDirection | None | Unset = UNSET,
    handled_by: HandledBy | None | Unset = UNSET,
    disposition: None | str | Unset = UNSET,
    started_after: datetime.datetime | None | Unset = UNSET,
    started_before: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageCall]:
    """List calls

     Human and AI-handled calls, newest first; handled_by tells them apart. Each carries a fresh five-
    minute recording_url.

    Args:
        contact_id (None | str | Unset):
        direction (CallDirection | None | Unset):
        handled_by (HandledBy | None | Unset):
        disposition (None | str | Unset):
        started_after (datetime.datetime | None | Unset): Inclusive.
        started_before (datetime.datetime | None | Unset): Exclusive.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: contact_id, created_at, direction, disposition, duration_seconds,
            ended_at, from, handled_by, id, pii_masked, provider_call_id, recording_url,
            recording_url_expires_at, started_at, summary, to, transcript, user_id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageCall]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        direction=direction,
        handled_by=handled_by,
        disposition=disposition,
        started_after=started_after,
        started_before=started_before,
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
    contact_id: None | str | Unset = UNSET,
    direction: CallDirection | None | Unset = UNSET,
    handled_by: HandledBy | None | Unset = UNSET,
    disposition: None | str | Unset = UNSET,
    started_after: datetime.datetime | None | Unset = UNSET,
    started_before: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageCall | None:
    """List calls

     Human and AI-handled calls, newest first; handled_by tells them apart. Each carries a fresh five-
    minute recording_url.

    Args:
        contact_id (None | str | Unset):
        direction (CallDirection | None | Unset):
        handled_by (HandledBy | None | Unset):
        disposition (None | str | Unset):
        started_after (datetime.datetime | None | Unset): Inclusive.
        started_before (datetime.datetime | None | Unset): Exclusive.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: contact_id, created_at, direction, disposition, duration_seconds,
            ended_at, from, handled_by, id, pii_masked, provider_call_id, recording_url,
            recording_url_expires_at, started_at, summary, to, transcript, user_id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageCall
    """

    return sync_detailed(
        client=client,
        contact_id=contact_id,
        direction=direction,
        handled_by=handled_by,
        disposition=disposition,
        started_after=started_after,
        started_before=started_before,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    contact_id: None | str | Unset = UNSET,
    direction: CallDirection | None | Unset = UNSET,
    handled_by: HandledBy | None | Unset = UNSET,
    disposition: None | str | Unset = UNSET,
    started_after: datetime.datetime | None | Unset = UNSET,
    started_before: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageCall]:
    """List calls

     Human and AI-handled calls, newest first; handled_by tells them apart. Each carries a fresh five-
    minute recording_url.

    Args:
        contact_id (None | str | Unset):
        direction (CallDirection | None | Unset):
        handled_by (HandledBy | None | Unset):
        disposition (None | str | Unset):
        started_after (datetime.datetime | None | Unset): Inclusive.
        started_before (datetime.datetime | None | Unset): Exclusive.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: contact_id, created_at, direction, disposition, duration_seconds,
            ended_at, from, handled_by, id, pii_masked, provider_call_id, recording_url,
            recording_url_expires_at, started_at, summary, to, transcript, user_id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageCall]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        direction=direction,
        handled_by=handled_by,
        disposition=disposition,
        started_after=started_after,
        started_before=started_before,
        cursor=cursor,
        limit=limit,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    contact_id: None | str | Unset = UNSET,
    direction: CallDirection | None | Unset = UNSET,
    handled_by: HandledBy | None | Unset = UNSET,
    disposition: None | str | Unset = UNSET,
    started_after: datetime.datetime | None | Unset = UNSET,
    started_before: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageCall | None:
    """List calls

     Human and AI-handled calls, newest first; handled_by tells them apart. Each carries a fresh five-
    minute recording_url.

    Args:
        contact_id (None | str | Unset):
        direction (CallDirection | None | Unset):
        handled_by (HandledBy | None | Unset):
        disposition (None | str | Unset):
        started_after (datetime.datetime | None | Unset): Inclusive.
        started_before (datetime.datetime | None | Unset): Exclusive.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: contact_id, created_at, direction, disposition, duration_seconds,
            ended_at, from, handled_by, id, pii_masked, provider_call_id, recording_url,
            recording_url_expires_at, started_at, summary, to, transcript, user_id.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageCall
    """

    return (
        await asyncio_detailed(
            client=client,
            contact_id=contact_id,
            direction=direction,
            handled_by=handled_by,
            disposition=disposition,
            started_after=started_after,
            started_before=started_before,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
