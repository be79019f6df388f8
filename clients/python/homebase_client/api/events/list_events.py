import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.page_event_envelope import PageEventEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    type_: list[str] | None | Unset = UNSET,
    occurred_after: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_type_: list[str] | None | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    elif isinstance(type_, list):
        json_type_ = type_

    else:
        json_type_ = type_
    params["type"] = json_type_

    json_occurred_after: None | str | Unset
    if isinstance(occurred_after, Unset):
        json_occurred_after = UNSET
    elif isinstance(occurred_after, datetime.datetime):
        json_occurred_after = occurred_after.isoformat()
    else:
        json_occurred_after = occurred_after
    params["occurred_after"] = json_occurred_after

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageEventEnvelope | None:
    if response.status_code == 200:
        response_200 = PageEventEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageEventEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    type_: list[str] | None | Unset = UNSET,
    occurred_after: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | PageEventEnvelope]:
    """List events

     The workspace's stored events, each exactly as its webhook delivery carries it, for the
    retention period (HOMEBASE_RETENTION_EVENTS_DAYS, 30 days by default), in one total
    order: `occurredAt` ascending, then the event id. Filters combine with AND.

    **Any credential** may call it, and sees only the event types its scopes read (each
    type's scope is in this document's `webhooks` section: contact events need
    contacts:read, message events messages:read, ...). A `type` naming a type the credential
    may not read answers **403** `insufficient_scope` with the missing scope. Phone numbers
    and email addresses in `data` are masked unless the credential holds contacts:read:pii.

    **Settled events only**: an event is listed once it is HOMEBASE_SYNC_SETTLE_SECONDS old
    (5 s by default), when every transaction that could still commit an earlier one has
    ended, so a walk never passes a position that a late event then lands behind. Webhooks
    carry events at once; GET /v1/events/{id} serves one at once.

    **Paging and resuming**: follow `next_cursor` while `has_more` is true. The cursor holds a
    position past `after` and `occurred_after`, which only say where a walk starts: it goes on
    without them and wins over them; `type` binds it (with another `type` a cursor restarts
    that walk). When `has_more` is false, `next_cursor` is null: keep the last event's
    `data.event_id` and resume later with `after=<that id>`, which lists exactly the events
    after it, with no gap and no duplicate, whatever was written in between. `after` naming an
    event that is unknown or older than the retention period answers **400** naming `after`:
    events after it may have been pruned, so start again (without `after`, or with
    `occurred_after`).

    Args:
        type_ (list[str] | None | Unset): Only events of these types: repeat the parameter
            (`type=a&type=b`), separate names with commas (`type=a,b`), or both. Each must be a
            catalogue event name (400 naming `type` otherwise); naming a type this credential may not
            read answers 403 insufficient_scope with the missing scope.
        occurred_after (datetime.datetime | None | Unset): Only events that occurred strictly
            after this moment (ISO 8601 with an offset). A time filter: to resume a walk use `after`.
        after (None | str | Unset): An event id (data.event_id): only events after that event in
            the order (occurred_at, id). How a client that finished a walk resumes with no gap and no
            duplicate. An id that is not one of this workspace's stored events within the retention
            period answers 400 naming `after`.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageEventEnvelope]
    """

    kwargs = _get_kwargs(
        type_=type_,
        occurred_after=occurred_after,
        after=after,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    type_: list[str] | None | Unset = UNSET,
    occurred_after: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> ErrorEnvelope | PageEventEnvelope | None:
    """List events

     The workspace's stored events, each exactly as its webhook delivery carries it, for the
    retention period (HOMEBASE_RETENTION_EVENTS_DAYS, 30 days by default), in one total
    order: `occurredAt` ascending, then the event id. Filters combine with AND.

    **Any credential** may call it, and sees only the event types its scopes read (each
    type's scope is in this document's `webhooks` section: contact events need
    contacts:read, message events messages:read, ...). A `type` naming a type the credential
    may not read answers **403** `insufficient_scope` with the missing scope. Phone numbers
    and email addresses in `data` are masked unless the credential holds contacts:read:pii.

    **Settled events only**: an event is listed once it is HOMEBASE_SYNC_SETTLE_SECONDS old
    (5 s by default), when every transaction that could still commit an earlier one has
    ended, so a walk never passes a position that a late event then lands behind. Webhooks
    carry events at once; GET /v1/events/{id} serves one at once.

    **Paging and resuming**: follow `next_cursor` while `has_more` is true. The cursor holds a
    position past `after` and `occurred_after`, which only say where a walk starts: it goes on
    without them and wins over them; `type` binds it (with another `type` a cursor restarts
    that walk). When `has_more` is false, `next_cursor` is null: keep the last event's
    `data.event_id` and resume later with `after=<that id>`, which lists exactly the events
    after it, with no gap and no duplicate, whatever was written in between. `after` naming an
    event that is unknown or older than the retention period answers **400** naming `after`:
    events after it may have been pruned, so start again (without `after`, or with
    `occurred_after`).

    Args:
        type_ (list[str] | None | Unset): Only events of these types: repeat the parameter
            (`type=a&type=b`), separate names with commas (`type=a,b`), or both. Each must be a
            catalogue event name (400 naming `type` otherwise); naming a type this credential may not
            read answers 403 insufficient_scope with the missing scope.
        occurred_after (datetime.datetime | None | Unset): Only events that occurred strictly
            after this moment (ISO 8601 with an offset). A time filter: to resume a walk use `after`.
        after (None | str | Unset): An event id (data.event_id): only events after that event in
            the order (occurred_at, id). How a client that finished a walk resumes with no gap and no
            duplicate. An id that is not one of this workspace's stored events within the retention
            period answers 400 naming `after`.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageEventEnvelope
    """

    return sync_detailed(
        client=client,
        type_=type_,
        occurred_after=occurred_after,
        after=after,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    type_: list[str] | None | Unset = UNSET,
    occurred_after: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | PageEventEnvelope]:
    """List events

     The workspace's stored events, each exactly as its webhook delivery carries it, for the
    retention period (HOMEBASE_RETENTION_EVENTS_DAYS, 30 days by default), in one total
    order: `occurredAt` ascending, then the event id. Filters combine with AND.

    **Any credential** may call it, and sees only the event types its scopes read (each
    type's scope is in this document's `webhooks` section: contact events need
    contacts:read, message events messages:read, ...). A `type` naming a type the credential
    may not read answers **403** `insufficient_scope` with the missing scope. Phone numbers
    and email addresses in `data` are masked unless the credential holds contacts:read:pii.

    **Settled events only**: an event is listed once it is HOMEBASE_SYNC_SETTLE_SECONDS old
    (5 s by default), when every transaction that could still commit an earlier one has
    ended, so a walk never passes a position that a late event then lands behind. Webhooks
    carry events at once; GET /v1/events/{id} serves one at once.

    **Paging and resuming**: follow `next_cursor` while `has_more` is true. The cursor holds a
    position past `after` and `occurred_after`, which only say where a walk starts: it goes on
    without them and wins over them; `type` binds it (with another `type` a cursor restarts
    that walk). When `has_more` is false, `next_cursor` is null: keep the last event's
    `data.event_id` and resume later with `after=<that id>`, which lists exactly the events
    after it, with no gap and no duplicate, whatever was written in between. `after` naming an
    event that is unknown or older than the retention period answers **400** naming `after`:
    events after it may have been pruned, so start again (without `after`, or with
    `occurred_after`).

    Args:
        type_ (list[str] | None | Unset): Only events of these types: repeat the parameter
            (`type=a&type=b`), separate names with commas (`type=a,b`), or both. Each must be a
            catalogue event name (400 naming `type` otherwise); naming a type this credential may not
            read answers 403 insufficient_scope with the missing scope.
        occurred_after (datetime.datetime | None | Unset): Only events that occurred strictly
            after this moment (ISO 8601 with an offset). A time filter: to resume a walk use `after`.
        after (None | str | Unset): An event id (data.event_id): only events after that event in
            the order (occurred_at, id). How a client that finished a walk resumes with no gap and no
            duplicate. An id that is not one of this workspace's stored events within the retention
            period answers 400 naming `after`.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageEventEnvelope]
    """

    kwargs = _get_kwargs(
        type_=type_,
        occurred_after=occurred_after,
        after=after,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    type_: list[str] | None | Unset = UNSET,
    occurred_after: datetime.datetime | None | Unset = UNSET,
    after: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> ErrorEnvelope | PageEventEnvelope | None:
    """List events

     The workspace's stored events, each exactly as its webhook delivery carries it, for the
    retention period (HOMEBASE_RETENTION_EVENTS_DAYS, 30 days by default), in one total
    order: `occurredAt` ascending, then the event id. Filters combine with AND.

    **Any credential** may call it, and sees only the event types its scopes read (each
    type's scope is in this document's `webhooks` section: contact events need
    contacts:read, message events messages:read, ...). A `type` naming a type the credential
    may not read answers **403** `insufficient_scope` with the missing scope. Phone numbers
    and email addresses in `data` are masked unless the credential holds contacts:read:pii.

    **Settled events only**: an event is listed once it is HOMEBASE_SYNC_SETTLE_SECONDS old
    (5 s by default), when every transaction that could still commit an earlier one has
    ended, so a walk never passes a position that a late event then lands behind. Webhooks
    carry events at once; GET /v1/events/{id} serves one at once.

    **Paging and resuming**: follow `next_cursor` while `has_more` is true. The cursor holds a
    position past `after` and `occurred_after`, which only say where a walk starts: it goes on
    without them and wins over them; `type` binds it (with another `type` a cursor restarts
    that walk). When `has_more` is false, `next_cursor` is null: keep the last event's
    `data.event_id` and resume later with `after=<that id>`, which lists exactly the events
    after it, with no gap and no duplicate, whatever was written in between. `after` naming an
    event that is unknown or older than the retention period answers **400** naming `after`:
    events after it may have been pruned, so start again (without `after`, or with
    `occurred_after`).

    Args:
        type_ (list[str] | None | Unset): Only events of these types: repeat the parameter
            (`type=a&type=b`), separate names with commas (`type=a,b`), or both. Each must be a
            catalogue event name (400 naming `type` otherwise); naming a type this credential may not
            read answers 403 insufficient_scope with the missing scope.
        occurred_after (datetime.datetime | None | Unset): Only events that occurred strictly
            after this moment (ISO 8601 with an offset). A time filter: to resume a walk use `after`.
        after (None | str | Unset): An event id (data.event_id): only events after that event in
            the order (occurred_at, id). How a client that finished a walk resumes with no gap and no
            duplicate. An id that is not one of this workspace's stored events within the retention
            period answers 400 naming `after`.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageEventEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
            occurred_after=occurred_after,
            after=after,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
