from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.event import Event
from ...models.event_narrowed import EventNarrowed
from ...models.note_create import NoteCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: NoteCreate,
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
        "url": "/v1/contacts/{id}/notes".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | Event | EventNarrowed | None:
    if response.status_code == 201:

        def _parse_response_201(data: object) -> Event | EventNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = Event.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = EventNarrowed.from_dict(data)

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
) -> Response[ErrorEnvelope | Event | EventNarrowed]:
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
    body: NoteCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Event | EventNarrowed]:
    """Add a note

     Also pauses the contact's AI auto-response (ai_auto_response_paused on the contact, reason note,
    unless already paused; POST .../ai/resume resumes it). 409 contact_erased once the contact's data
    was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actor, body, contact_id, data, id, occurred_at, title, type.
        idempotency_key (str | Unset):
        body (NoteCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Event | EventNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
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
    body: NoteCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Event | EventNarrowed | None:
    """Add a note

     Also pauses the contact's AI auto-response (ai_auto_response_paused on the contact, reason note,
    unless already paused; POST .../ai/resume resumes it). 409 contact_erased once the contact's data
    was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actor, body, contact_id, data, id, occurred_at, title, type.
        idempotency_key (str | Unset):
        body (NoteCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Event | EventNarrowed
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: NoteCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Event | EventNarrowed]:
    """Add a note

     Also pauses the contact's AI auto-response (ai_auto_response_paused on the contact, reason note,
    unless already paused; POST .../ai/resume resumes it). 409 contact_erased once the contact's data
    was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actor, body, contact_id, data, id, occurred_at, title, type.
        idempotency_key (str | Unset):
        body (NoteCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Event | EventNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: NoteCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Event | EventNarrowed | None:
    """Add a note

     Also pauses the contact's AI auto-response (ai_auto_response_paused on the contact, reason note,
    unless already paused; POST .../ai/resume resumes it). 409 contact_erased once the contact's data
    was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actor, body, contact_id, data, id, occurred_at, title, type.
        idempotency_key (str | Unset):
        body (NoteCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Event | EventNarrowed
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
