import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.contact_stage import ContactStage
from ...models.error_envelope import ErrorEnvelope
from ...models.page_contact import PageContact
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    stage: ContactStage | None | Unset = UNSET,
    source: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
    owner_id: None | str | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_stage: None | str | Unset
    if isinstance(stage, Unset):
        json_stage = UNSET
    elif isinstance(stage, ContactStage):
        json_stage = stage.value
    else:
        json_stage = stage
    params["stage"] = json_stage

    json_source: None | str | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    else:
        json_source = source
    params["source"] = json_source

    json_tag: None | str | Unset
    if isinstance(tag, Unset):
        json_tag = UNSET
    else:
        json_tag = tag
    params["tag"] = json_tag

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_owner_id: None | str | Unset
    if isinstance(owner_id, Unset):
        json_owner_id = UNSET
    else:
        json_owner_id = owner_id
    params["owner_id"] = json_owner_id

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
        "url": "/v1/contacts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageContact | None:
    if response.status_code == 200:
        response_200 = PageContact.from_dict(response.json())

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
) -> Response[ErrorEnvelope | PageContact]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    stage: ContactStage | None | Unset = UNSET,
    source: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
    owner_id: None | str | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageContact]:
    """List contacts

     Newest first. Filters combine with AND. **Custom field filters**: `custom.<key>=<value>` keeps the
    records whose custom field `<key>` (GET /v1/custom-fields) holds the value, for example
    `custom.price_max=1450000`, `custom.move_in=2027-03-01`, `custom.pre_approved=true`,
    `custom.financing=conventional`; for a multi_select field, the records whose value includes that
    choice. The value is read by the field's type: a number (`2.5`, `250000`), a date (YYYY-MM-DD),
    `true` or `false`, one of a select's choices, or a text (trimmed, matched exactly). Up to 5 of them,
    combined with AND and with the other filters. An unknown key or a value the type refuses is 400
    naming `custom.<key>`. With `updated_after`: the records changed after that time instead, oldest
    change first, by (updated_at, id), to keep a copy in step (docs/sync.md). With `q` too, the changed
    contacts that match it (the search's rule), tested one by one along the walk.

    Args:
        stage (ContactStage | None | Unset): Only contacts in this stage.
        source (None | str | Unset): Only contacts with exactly this source.
        tag (None | str | Unset): Only contacts carrying this tag.
        q (None | str | Unset): Search: first, last or full name by substring (any case). Email
            and phone by substring for credentials holding contacts:read:pii; for others only an exact
            email address or phone number matches.
        owner_id (None | str | Unset): Only contacts owned by this member.
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
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageContact]
    """

    kwargs = _get_kwargs(
        stage=stage,
        source=source,
        tag=tag,
        q=q,
        owner_id=owner_id,
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
    stage: ContactStage | None | Unset = UNSET,
    source: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
    owner_id: None | str | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageContact | None:
    """List contacts

     Newest first. Filters combine with AND. **Custom field filters**: `custom.<key>=<value>` keeps the
    records whose custom field `<key>` (GET /v1/custom-fields) holds the value, for example
    `custom.price_max=1450000`, `custom.move_in=2027-03-01`, `custom.pre_approved=true`,
    `custom.financing=conventional`; for a multi_select field, the records whose value includes that
    choice. The value is read by the field's type: a number (`2.5`, `250000`), a date (YYYY-MM-DD),
    `true` or `false`, one of a select's choices, or a text (trimmed, matched exactly). Up to 5 of them,
    combined with AND and with the other filters. An unknown key or a value the type refuses is 400
    naming `custom.<key>`. With `updated_after`: the records changed after that time instead, oldest
    change first, by (updated_at, id), to keep a copy in step (docs/sync.md). With `q` too, the changed
    contacts that match it (the search's rule), tested one by one along the walk.

    Args:
        stage (ContactStage | None | Unset): Only contacts in this stage.
        source (None | str | Unset): Only contacts with exactly this source.
        tag (None | str | Unset): Only contacts carrying this tag.
        q (None | str | Unset): Search: first, last or full name by substring (any case). Email
            and phone by substring for credentials holding contacts:read:pii; for others only an exact
            email address or phone number matches.
        owner_id (None | str | Unset): Only contacts owned by this member.
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
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageContact
    """

    return sync_detailed(
        client=client,
        stage=stage,
        source=source,
        tag=tag,
        q=q,
        owner_id=owner_id,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    stage: ContactStage | None | Unset = UNSET,
    source: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
    owner_id: None | str | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | PageContact]:
    """List contacts

     Newest first. Filters combine with AND. **Custom field filters**: `custom.<key>=<value>` keeps the
    records whose custom field `<key>` (GET /v1/custom-fields) holds the value, for example
    `custom.price_max=1450000`, `custom.move_in=2027-03-01`, `custom.pre_approved=true`,
    `custom.financing=conventional`; for a multi_select field, the records whose value includes that
    choice. The value is read by the field's type: a number (`2.5`, `250000`), a date (YYYY-MM-DD),
    `true` or `false`, one of a select's choices, or a text (trimmed, matched exactly). Up to 5 of them,
    combined with AND and with the other filters. An unknown key or a value the type refuses is 400
    naming `custom.<key>`. With `updated_after`: the records changed after that time instead, oldest
    change first, by (updated_at, id), to keep a copy in step (docs/sync.md). With `q` too, the changed
    contacts that match it (the search's rule), tested one by one along the walk.

    Args:
        stage (ContactStage | None | Unset): Only contacts in this stage.
        source (None | str | Unset): Only contacts with exactly this source.
        tag (None | str | Unset): Only contacts carrying this tag.
        q (None | str | Unset): Search: first, last or full name by substring (any case). Email
            and phone by substring for credentials holding contacts:read:pii; for others only an exact
            email address or phone number matches.
        owner_id (None | str | Unset): Only contacts owned by this member.
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
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageContact]
    """

    kwargs = _get_kwargs(
        stage=stage,
        source=source,
        tag=tag,
        q=q,
        owner_id=owner_id,
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
    stage: ContactStage | None | Unset = UNSET,
    source: None | str | Unset = UNSET,
    tag: None | str | Unset = UNSET,
    q: None | str | Unset = UNSET,
    owner_id: None | str | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    fields: None | str | Unset = UNSET,
) -> ErrorEnvelope | PageContact | None:
    """List contacts

     Newest first. Filters combine with AND. **Custom field filters**: `custom.<key>=<value>` keeps the
    records whose custom field `<key>` (GET /v1/custom-fields) holds the value, for example
    `custom.price_max=1450000`, `custom.move_in=2027-03-01`, `custom.pre_approved=true`,
    `custom.financing=conventional`; for a multi_select field, the records whose value includes that
    choice. The value is read by the field's type: a number (`2.5`, `250000`), a date (YYYY-MM-DD),
    `true` or `false`, one of a select's choices, or a text (trimmed, matched exactly). Up to 5 of them,
    combined with AND and with the other filters. An unknown key or a value the type refuses is 400
    naming `custom.<key>`. With `updated_after`: the records changed after that time instead, oldest
    change first, by (updated_at, id), to keep a copy in step (docs/sync.md). With `q` too, the changed
    contacts that match it (the search's rule), tested one by one along the walk.

    Args:
        stage (ContactStage | None | Unset): Only contacts in this stage.
        source (None | str | Unset): Only contacts with exactly this source.
        tag (None | str | Unset): Only contacts carrying this tag.
        q (None | str | Unset): Search: first, last or full name by substring (any case). Email
            and phone by substring for credentials holding contacts:read:pii; for others only an exact
            email address or phone number matches.
        owner_id (None | str | Unset): Only contacts owned by this member.
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
            included. One of: ai_auto_response_paused, ai_auto_response_paused_at,
            ai_auto_response_paused_reason, anonymized_at, created_at, custom_fields, email,
            first_name, id, last_name, notes, owner_id, phone, phone_e164, pii_masked, source, stage,
            tags, updated_at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageContact
    """

    return (
        await asyncio_detailed(
            client=client,
            stage=stage,
            source=source,
            tag=tag,
            q=q,
            owner_id=owner_id,
            updated_after=updated_after,
            cursor=cursor,
            limit=limit,
            fields=fields,
        )
    ).parsed
