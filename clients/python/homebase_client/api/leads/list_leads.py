import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_leads_unlinked_only_type_0 import ListLeadsUnlinkedOnlyType0
from ...models.page_lead import PageLead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    contact_id: None | str | Unset = UNSET,
    unlinked_only: ListLeadsUnlinkedOnlyType0 | None | Unset = UNSET,
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

    json_unlinked_only: None | str | Unset
    if isinstance(unlinked_only, Unset):
        json_unlinked_only = UNSET
    elif isinstance(unlinked_only, ListLeadsUnlinkedOnlyType0):
        json_unlinked_only = unlinked_only.value
    else:
        json_unlinked_only = unlinked_only
    params["unlinked_only"] = json_unlinked_only

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
        "url": "/v1/leads",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageLead | None:
    if response.status_code == 200:
        response_200 = PageLead.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageLead]:
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
    unlinked_only: ListLeadsUnlinkedOnlyType0 | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageLead]:
    """List leads

     Newest first. With `updated_after`: the records changed after that time instead, oldest change
    first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        unlinked_only (ListLeadsUnlinkedOnlyType0 | None | Unset): true: only leads not linked to
            any contact.
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
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageLead]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        unlinked_only=unlinked_only,
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
    unlinked_only: ListLeadsUnlinkedOnlyType0 | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageLead | None:
    """List leads

     Newest first. With `updated_after`: the records changed after that time instead, oldest change
    first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        unlinked_only (ListLeadsUnlinkedOnlyType0 | None | Unset): true: only leads not linked to
            any contact.
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
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageLead
    """

    return sync_detailed(
        client=client,
        contact_id=contact_id,
        unlinked_only=unlinked_only,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    contact_id: None | str | Unset = UNSET,
    unlinked_only: ListLeadsUnlinkedOnlyType0 | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageLead]:
    """List leads

     Newest first. With `updated_after`: the records changed after that time instead, oldest change
    first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        unlinked_only (ListLeadsUnlinkedOnlyType0 | None | Unset): true: only leads not linked to
            any contact.
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
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageLead]
    """

    kwargs = _get_kwargs(
        contact_id=contact_id,
        unlinked_only=unlinked_only,
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
    unlinked_only: ListLeadsUnlinkedOnlyType0 | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageLead | None:
    """List leads

     Newest first. With `updated_after`: the records changed after that time instead, oldest change
    first, by (updated_at, id), to keep a copy in step (docs/sync.md).

    Args:
        contact_id (None | str | Unset):
        unlinked_only (ListLeadsUnlinkedOnlyType0 | None | Unset): true: only leads not linked to
            any contact.
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
            included. One of: ai_outbound_allowed, assigned_at, assignee_id, consent_expires_at,
            consent_id, contact_id, context, created_at, email, first_name, id, last_name, phone,
            phone_e164, pii_masked, routing_method, routing_reason, routing_rule_id, routing_status,
            source, source_ref, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageLead
    """

    return (
        await asyncio_detailed(
            client=client,
            contact_id=contact_id,
            unlinked_only=unlinked_only,
            updated_after=updated_after,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
