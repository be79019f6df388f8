from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.lead_create import LeadCreate
from ...models.lead_written import LeadWritten
from ...models.lead_written_narrowed import LeadWrittenNarrowed
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: LeadCreate,
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
        "url": "/v1/leads",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | LeadWritten | LeadWrittenNarrowed | None:
    if response.status_code == 201:

        def _parse_response_201(data: object) -> LeadWritten | LeadWrittenNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = LeadWritten.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = LeadWrittenNarrowed.from_dict(data)

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
) -> Response[ErrorEnvelope | LeadWritten | LeadWrittenNarrowed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: LeadCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | LeadWritten | LeadWrittenNarrowed]:
    """Create and route a lead

     Links the lead to a contact (same phone, else same email, else a new contact), records its consent
    artifact, and routes it through the workspace's rules unless skip_routing is true. Emits
    lead.created, and lead.assigned when routed. A phone that is not a valid number is kept as sent and
    named in `warnings` (phone_not_valid), sent only then, whatever `fields` names. When the lead's
    consent allows AI outreach (ai_outbound_allowed) and the responder persona's first_touch is `text`,
    the AI's first text is queued for first_touch_delay_seconds later, inside the lawful hours of the
    lead's number.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.
        idempotency_key (str | Unset):
        body (LeadCreate): phone and source are required. context feeds routing: zip, city, price,
            tags,
            stage, office_id and team_id are read from it when present.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | LeadWritten | LeadWrittenNarrowed]
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
    body: LeadCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | LeadWritten | LeadWrittenNarrowed | None:
    """Create and route a lead

     Links the lead to a contact (same phone, else same email, else a new contact), records its consent
    artifact, and routes it through the workspace's rules unless skip_routing is true. Emits
    lead.created, and lead.assigned when routed. A phone that is not a valid number is kept as sent and
    named in `warnings` (phone_not_valid), sent only then, whatever `fields` names. When the lead's
    consent allows AI outreach (ai_outbound_allowed) and the responder persona's first_touch is `text`,
    the AI's first text is queued for first_touch_delay_seconds later, inside the lawful hours of the
    lead's number.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.
        idempotency_key (str | Unset):
        body (LeadCreate): phone and source are required. context feeds routing: zip, city, price,
            tags,
            stage, office_id and team_id are read from it when present.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | LeadWritten | LeadWrittenNarrowed
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
    body: LeadCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | LeadWritten | LeadWrittenNarrowed]:
    """Create and route a lead

     Links the lead to a contact (same phone, else same email, else a new contact), records its consent
    artifact, and routes it through the workspace's rules unless skip_routing is true. Emits
    lead.created, and lead.assigned when routed. A phone that is not a valid number is kept as sent and
    named in `warnings` (phone_not_valid), sent only then, whatever `fields` names. When the lead's
    consent allows AI outreach (ai_outbound_allowed) and the responder persona's first_touch is `text`,
    the AI's first text is queued for first_touch_delay_seconds later, inside the lawful hours of the
    lead's number.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.
        idempotency_key (str | Unset):
        body (LeadCreate): phone and source are required. context feeds routing: zip, city, price,
            tags,
            stage, office_id and team_id are read from it when present.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | LeadWritten | LeadWrittenNarrowed]
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
    body: LeadCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | LeadWritten | LeadWrittenNarrowed | None:
    """Create and route a lead

     Links the lead to a contact (same phone, else same email, else a new contact), records its consent
    artifact, and routes it through the workspace's rules unless skip_routing is true. Emits
    lead.created, and lead.assigned when routed. A phone that is not a valid number is kept as sent and
    named in `warnings` (phone_not_valid), sent only then, whatever `fields` names. When the lead's
    consent allows AI outreach (ai_outbound_allowed) and the responder persona's first_touch is `text`,
    the AI's first text is queued for first_touch_delay_seconds later, inside the lawful hours of the
    lead's number.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.
        idempotency_key (str | Unset):
        body (LeadCreate): phone and source are required. context feeds routing: zip, city, price,
            tags,
            stage, office_id and team_id are read from it when present.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | LeadWritten | LeadWrittenNarrowed
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
