import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.page_task import PageTask
from ...models.task_status import TaskStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    contact_id: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    status: None | TaskStatus | Unset = UNSET,
    due_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
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

    json_assignee_id: None | str | Unset
    if isinstance(assignee_id, Unset):
        json_assignee_id = UNSET
    else:
        json_assignee_id = assignee_id
    params["assignee_id"] = json_assignee_id

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, TaskStatus):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_due_before: None | str | Unset
    if isinstance(due_before, Unset):
        json_due_before = UNSET
    elif isinstance(due_before, datetime.datetime):
        json_due_before = due_before.isoformat()
    else:
        json_due_before = due_before
    params["due_before"] = json_due_before

    json_updated_after: None | str | Unset
    if isinstance(updated_after, Unset):
        json_updated_after = UNSET
    elif isinstance(updated_after, datetime.datetime):
        json_updated_after = updated_after.isoformat()
    else:
        json_updated_after = updated_after
    params["updated_after"] = json_updated_after

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
        "url": "/v1/tasks",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageTask | None:
    if response.status_code == 200:
        response_200 = PageTask.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageTask]:
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
    assignee_id: None | str | Unset = UNSET,
    status: None | TaskStatus | Unset = UNSET,
    due_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageTask]:
    """List tasks

     Newest first. Filters combine with AND. With `updated_after`: the records changed after that time
    instead, oldest change first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        assignee_id (None | str | Unset):
        status (None | TaskStatus | Unset):
        due_before (datetime.datetime | None | Unset): Tasks due strictly before this moment (ISO
            8601).
        updated_after (datetime.datetime | None | Unset): Only records changed after this time
            (updated_at strictly greater), oldest change first, ordered by (updated_at, id); an ISO
            8601 time with a zone offset or Z. A change is listed once it is a few seconds old (the
            settle delay, 5 s by default), and then never behind a position a walk has passed. To
            resume, pass the last record's updated_at: records stamped in that same millisecond may
            come again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking
            are as usual. The next pages need only the cursor: it holds the walk's position and wins
            over updated_after.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageTask]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        assignee_id=assignee_id,
        status=status,
        due_before=due_before,
        updated_after=updated_after,
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
    assignee_id: None | str | Unset = UNSET,
    status: None | TaskStatus | Unset = UNSET,
    due_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageTask | None:
    """List tasks

     Newest first. Filters combine with AND. With `updated_after`: the records changed after that time
    instead, oldest change first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        assignee_id (None | str | Unset):
        status (None | TaskStatus | Unset):
        due_before (datetime.datetime | None | Unset): Tasks due strictly before this moment (ISO
            8601).
        updated_after (datetime.datetime | None | Unset): Only records changed after this time
            (updated_at strictly greater), oldest change first, ordered by (updated_at, id); an ISO
            8601 time with a zone offset or Z. A change is listed once it is a few seconds old (the
            settle delay, 5 s by default), and then never behind a position a walk has passed. To
            resume, pass the last record's updated_at: records stamped in that same millisecond may
            come again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking
            are as usual. The next pages need only the cursor: it holds the walk's position and wins
            over updated_after.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageTask
    """

    return sync_detailed(
        client=client,
        contact_id=contact_id,
        assignee_id=assignee_id,
        status=status,
        due_before=due_before,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    contact_id: None | str | Unset = UNSET,
    assignee_id: None | str | Unset = UNSET,
    status: None | TaskStatus | Unset = UNSET,
    due_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageTask]:
    """List tasks

     Newest first. Filters combine with AND. With `updated_after`: the records changed after that time
    instead, oldest change first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        assignee_id (None | str | Unset):
        status (None | TaskStatus | Unset):
        due_before (datetime.datetime | None | Unset): Tasks due strictly before this moment (ISO
            8601).
        updated_after (datetime.datetime | None | Unset): Only records changed after this time
            (updated_at strictly greater), oldest change first, ordered by (updated_at, id); an ISO
            8601 time with a zone offset or Z. A change is listed once it is a few seconds old (the
            settle delay, 5 s by default), and then never behind a position a walk has passed. To
            resume, pass the last record's updated_at: records stamped in that same millisecond may
            come again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking
            are as usual. The next pages need only the cursor: it holds the walk's position and wins
            over updated_after.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageTask]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        assignee_id=assignee_id,
        status=status,
        due_before=due_before,
        updated_after=updated_after,
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
    assignee_id: None | str | Unset = UNSET,
    status: None | TaskStatus | Unset = UNSET,
    due_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageTask | None:
    """List tasks

     Newest first. Filters combine with AND. With `updated_after`: the records changed after that time
    instead, oldest change first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        assignee_id (None | str | Unset):
        status (None | TaskStatus | Unset):
        due_before (datetime.datetime | None | Unset): Tasks due strictly before this moment (ISO
            8601).
        updated_after (datetime.datetime | None | Unset): Only records changed after this time
            (updated_at strictly greater), oldest change first, ordered by (updated_at, id); an ISO
            8601 time with a zone offset or Z. A change is listed once it is a few seconds old (the
            settle delay, 5 s by default), and then never behind a position a walk has passed. To
            resume, pass the last record's updated_at: records stamped in that same millisecond may
            come again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking
            are as usual. The next pages need only the cursor: it holds the walk's position and wins
            over updated_after.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageTask
    """

    return (
        await asyncio_detailed(
            client=client,
            contact_id=contact_id,
            assignee_id=assignee_id,
            status=status,
            due_before=due_before,
            updated_after=updated_after,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
