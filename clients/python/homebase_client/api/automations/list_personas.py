from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.page_persona import PagePersona
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

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
        "url": "/v1/personas",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PagePersona | None:
    if response.status_code == 200:
        response_200 = PagePersona.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PagePersona]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PagePersona]:
    """List AI personas

     Created through `homebase admin load-fixtures` (docs/fixtures.md). Newest first.

    Args:
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actions, call_after_text_minutes, channels, created_at, disclosure,
            first_touch, first_touch_delay_seconds, follow_ups, handoff_assignee, handoff_minutes,
            handoff_reply, id, instructions, languages, links, name, phone, qualification_fields,
            responder, showing_hours, showing_minutes, signature, tags, tone, translations,
            updated_at, voice, voicemail, voicemail_text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PagePersona]
    """

    kwargs = _get_kwargs(
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
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PagePersona | None:
    """List AI personas

     Created through `homebase admin load-fixtures` (docs/fixtures.md). Newest first.

    Args:
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actions, call_after_text_minutes, channels, created_at, disclosure,
            first_touch, first_touch_delay_seconds, follow_ups, handoff_assignee, handoff_minutes,
            handoff_reply, id, instructions, languages, links, name, phone, qualification_fields,
            responder, showing_hours, showing_minutes, signature, tags, tone, translations,
            updated_at, voice, voicemail, voicemail_text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PagePersona
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PagePersona]:
    """List AI personas

     Created through `homebase admin load-fixtures` (docs/fixtures.md). Newest first.

    Args:
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actions, call_after_text_minutes, channels, created_at, disclosure,
            first_touch, first_touch_delay_seconds, follow_ups, handoff_assignee, handoff_minutes,
            handoff_reply, id, instructions, languages, links, name, phone, qualification_fields,
            responder, showing_hours, showing_minutes, signature, tags, tone, translations,
            updated_at, voice, voicemail, voicemail_text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PagePersona]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PagePersona | None:
    """List AI personas

     Created through `homebase admin load-fixtures` (docs/fixtures.md). Newest first.

    Args:
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: actions, call_after_text_minutes, channels, created_at, disclosure,
            first_touch, first_touch_delay_seconds, follow_ups, handoff_assignee, handoff_minutes,
            handoff_reply, id, instructions, languages, links, name, phone, qualification_fields,
            responder, showing_hours, showing_minutes, signature, tags, tone, translations,
            updated_at, voice, voicemail, voicemail_text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PagePersona
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
