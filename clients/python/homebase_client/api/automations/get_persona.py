from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.persona import Persona
from ...models.persona_narrowed import PersonaNarrowed
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/personas/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | Persona | PersonaNarrowed | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Persona | PersonaNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Persona.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = PersonaNarrowed.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

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
) -> Response[ErrorEnvelope | Persona | PersonaNarrowed]:
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
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | Persona | PersonaNarrowed]:
    """Retrieve a persona

    Args:
        id (str):
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
        Response[ErrorEnvelope | Persona | PersonaNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        fields=fields,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | Persona | PersonaNarrowed | None:
    """Retrieve a persona

    Args:
        id (str):
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
        ErrorEnvelope | Persona | PersonaNarrowed
    """

    return sync_detailed(
        id=id,
        client=client,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | Persona | PersonaNarrowed]:
    """Retrieve a persona

    Args:
        id (str):
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
        Response[ErrorEnvelope | Persona | PersonaNarrowed]
    """

    kwargs = _get_kwargs(
        id=id,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | Persona | PersonaNarrowed | None:
    """Retrieve a persona

    Args:
        id (str):
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
        ErrorEnvelope | Persona | PersonaNarrowed
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            fields=fields,
        )
    ).parsed
