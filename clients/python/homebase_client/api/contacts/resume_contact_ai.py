from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.contact import Contact
from ...models.contact_narrowed import ContactNarrowed
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
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
        "url": "/v1/contacts/{id}/ai/resume".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Contact | ContactNarrowed | ErrorEnvelope | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Contact | ContactNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Contact.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = ContactNarrowed.from_dict(data)

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

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
) -> Response[Contact | ContactNarrowed | ErrorEnvelope]:
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
    idempotency_key: str | Unset = UNSET,
) -> Response[Contact | ContactNarrowed | ErrorEnvelope]:
    """Resume the contact's AI auto-response

     The AI stops answering a contact's texts when a person steps in, or stops itself;
    ai_auto_response_paused_reason says why: a note was added (`note`), a person sent the contact a
    message through POST /v1/messages (`human_message`), the AI handed the conversation to a person
    (`handoff`), the AI reached its cap of replies to the contact in 24 hours (`daily_limit`), POST
    .../ai/pause (`manual`), or the contact opted out by text (`opt_out`), which their START resumes.
    Resuming clears the pause, its time and its reason, whatever paused it. Idempotent: resuming a
    contact whose AI is not paused emits nothing; otherwise contact.updated names the three
    ai_auto_response_paused* members. Takes no body (one sent is ignored). 409 contact_erased once the
    contact's data was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Contact | ContactNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
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
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Contact | ContactNarrowed | ErrorEnvelope | None:
    """Resume the contact's AI auto-response

     The AI stops answering a contact's texts when a person steps in, or stops itself;
    ai_auto_response_paused_reason says why: a note was added (`note`), a person sent the contact a
    message through POST /v1/messages (`human_message`), the AI handed the conversation to a person
    (`handoff`), the AI reached its cap of replies to the contact in 24 hours (`daily_limit`), POST
    .../ai/pause (`manual`), or the contact opted out by text (`opt_out`), which their START resumes.
    Resuming clears the pause, its time and its reason, whatever paused it. Idempotent: resuming a
    contact whose AI is not paused emits nothing; otherwise contact.updated names the three
    ai_auto_response_paused* members. Takes no body (one sent is ignored). 409 contact_erased once the
    contact's data was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Contact | ContactNarrowed | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        fields=fields,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Contact | ContactNarrowed | ErrorEnvelope]:
    """Resume the contact's AI auto-response

     The AI stops answering a contact's texts when a person steps in, or stops itself;
    ai_auto_response_paused_reason says why: a note was added (`note`), a person sent the contact a
    message through POST /v1/messages (`human_message`), the AI handed the conversation to a person
    (`handoff`), the AI reached its cap of replies to the contact in 24 hours (`daily_limit`), POST
    .../ai/pause (`manual`), or the contact opted out by text (`opt_out`), which their START resumes.
    Resuming clears the pause, its time and its reason, whatever paused it. Idempotent: resuming a
    contact whose AI is not paused emits nothing; otherwise contact.updated names the three
    ai_auto_response_paused* members. Takes no body (one sent is ignored). 409 contact_erased once the
    contact's data was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Contact | ContactNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Contact | ContactNarrowed | ErrorEnvelope | None:
    """Resume the contact's AI auto-response

     The AI stops answering a contact's texts when a person steps in, or stops itself;
    ai_auto_response_paused_reason says why: a note was added (`note`), a person sent the contact a
    message through POST /v1/messages (`human_message`), the AI handed the conversation to a person
    (`handoff`), the AI reached its cap of replies to the contact in 24 hours (`daily_limit`), POST
    .../ai/pause (`manual`), or the contact opted out by text (`opt_out`), which their START resumes.
    Resuming clears the pause, its time and its reason, whatever paused it. Idempotent: resuming a
    contact whose AI is not paused emits nothing; otherwise contact.updated names the three
    ai_auto_response_paused* members. Takes no body (one sent is ignored). 409 contact_erased once the
    contact's data was erased (DELETE).

    Args:
        id (str): The contact's id. An unknown id and another workspace's id both answer 404.
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Contact | ContactNarrowed | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
