from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.task_create import TaskCreate
from ...models.task_created import TaskCreated
from ...models.task_created_narrowed import TaskCreatedNarrowed
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: TaskCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | TaskCreated | TaskCreatedNarrowed | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> TaskCreated | TaskCreatedNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = TaskCreated.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = TaskCreatedNarrowed.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 201:

        def _parse_response_201(data: object) -> TaskCreated | TaskCreatedNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = TaskCreated.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = TaskCreatedNarrowed.from_dict(data)

            return response_201_type_1

        response_201 = _parse_response_201(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

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
) -> Response[ErrorEnvelope | TaskCreated | TaskCreatedNarrowed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | TaskCreated | TaskCreatedNarrowed]:
    """Create a follow-up task

     Deduplicated within 60 seconds: the same title (whitespace collapsed), contact_id,
    assignee_id and due_at (to the second) sent again while the first task's window is open
    answers **200** with `created: false` and that task, instead of creating a second one
    (the first create answers **201** with `created: true`). The window runs 60 seconds from
    the first task's creation and is enforced atomically in the database, so identical
    requests arriving together on several instances still make one task. status and notes
    are not part of the comparison.

    400 names contact_id or assignee_id when it is not this workspace's contact or member.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.
        idempotency_key (str | Unset):
        body (TaskCreate): title is required. The same title, contact_id, assignee_id and due_at
            sent again
            within 60 seconds returns the existing task (created false) instead of a second one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | TaskCreated | TaskCreatedNarrowed]
    """

    kwargs = _get_kwargs(
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | TaskCreated | TaskCreatedNarrowed | None:
    """Create a follow-up task

     Deduplicated within 60 seconds: the same title (whitespace collapsed), contact_id,
    assignee_id and due_at (to the second) sent again while the first task's window is open
    answers **200** with `created: false` and that task, instead of creating a second one
    (the first create answers **201** with `created: true`). The window runs 60 seconds from
    the first task's creation and is enforced atomically in the database, so identical
    requests arriving together on several instances still make one task. status and notes
    are not part of the comparison.

    400 names contact_id or assignee_id when it is not this workspace's contact or member.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.
        idempotency_key (str | Unset):
        body (TaskCreate): title is required. The same title, contact_id, assignee_id and due_at
            sent again
            within 60 seconds returns the existing task (created false) instead of a second one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | TaskCreated | TaskCreatedNarrowed
    """

    return sync_detailed(
        client=client,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | TaskCreated | TaskCreatedNarrowed]:
    """Create a follow-up task

     Deduplicated within 60 seconds: the same title (whitespace collapsed), contact_id,
    assignee_id and due_at (to the second) sent again while the first task's window is open
    answers **200** with `created: false` and that task, instead of creating a second one
    (the first create answers **201** with `created: true`). The window runs 60 seconds from
    the first task's creation and is enforced atomically in the database, so identical
    requests arriving together on several instances still make one task. status and notes
    are not part of the comparison.

    400 names contact_id or assignee_id when it is not this workspace's contact or member.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.
        idempotency_key (str | Unset):
        body (TaskCreate): title is required. The same title, contact_id, assignee_id and due_at
            sent again
            within 60 seconds returns the existing task (created false) instead of a second one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | TaskCreated | TaskCreatedNarrowed]
    """

    kwargs = _get_kwargs(
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | TaskCreated | TaskCreatedNarrowed | None:
    """Create a follow-up task

     Deduplicated within 60 seconds: the same title (whitespace collapsed), contact_id,
    assignee_id and due_at (to the second) sent again while the first task's window is open
    answers **200** with `created: false` and that task, instead of creating a second one
    (the first create answers **201** with `created: true`). The window runs 60 seconds from
    the first task's creation and is enforced atomically in the database, so identical
    requests arriving together on several instances still make one task. status and notes
    are not part of the comparison.

    400 names contact_id or assignee_id when it is not this workspace's contact or member.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, due_at, id, notes, priority,
            source, status, title, updated_at.
        idempotency_key (str | Unset):
        body (TaskCreate): title is required. The same title, contact_id, assignee_id and due_at
            sent again
            within 60 seconds returns the existing task (created false) instead of a second one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | TaskCreated | TaskCreatedNarrowed
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
