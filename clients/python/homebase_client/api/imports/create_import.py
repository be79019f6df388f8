from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.contacts_import_create import ContactsImportCreate
from ...models.error_envelope import ErrorEnvelope
from ...models.import_job import ImportJob
from ...models.leads_import_create import LeadsImportCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ContactsImportCreate | LeadsImportCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/imports",
    }

    if isinstance(body, ContactsImportCreate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | ImportJob | None:
    if response.status_code == 202:
        response_202 = ImportJob.from_dict(response.json())

        return response_202

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
) -> Response[ErrorEnvelope | ImportJob]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ContactsImportCreate | LeadsImportCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | ImportJob]:
    """Import contacts or leads in bulk

     Answers **202** with the import job, queued; the worker writes its rows in batches and
    `GET /v1/imports/{id}` shows its progress and counts. Needs contacts:write for
    `contacts`, leads:write for `leads`. The whole import counts as one request against the
    rate limit.

    - The envelope is checked at once: `object`, `match_on`, `skip_routing`, and `rows` (1 to
      5000 objects; more is 400 naming `rows`), and the body stays within
      HOMEBASE_MAX_BODY_BYTES (413).
    - Each row is checked as POST /v1/contacts or POST /v1/leads checks its body. A refused
      row is counted `failed` and listed by `GET /v1/imports/{id}/errors` with the same
      field and message that create would answer 400 with; the other rows are written.
    - A contacts row that matches a contact (`match_on`) updates it as PATCH would with the
      members the row gives (`updated`, or `unchanged` when it already holds them); else it
      creates one (`created`). Each row emits the events the single create or update emits.
    - A leads row is POST /v1/leads: consent recorded, linked to a contact, routed unless
      skip_routing; lead.created and lead.assigned per row.
    - A workspace runs one import at a time, oldest first; the next waits, queued.
    - `value_map` replaces found values before a row is checked (a CRM's `Prospect` as
      `LEAD`); an `owner_id` that is no member's id is read as a member's email or full name.
    - `on_invalid_cell`: `refuse` (the default) refuses a row with any invalid value; `skip`
      leaves out a custom field's invalid value, a stage that is not one and an owner who is
      no member, and reports them as the row's warning. A phone that is no valid number is
      kept as sent and reported as a warning in both.
    - `dry_run`: the same counts and refused rows, from the whole import, with no record
      written; a dry run does not wait for the workspace's running import, nor hold it up.

    Args:
        idempotency_key (str | Unset):
        body (ContactsImportCreate | LeadsImportCreate): The import's envelope, one variant by
            `object` (`match_on` for contacts,
            `skip_routing` for leads), is checked at once (400 naming its members); each row is
            checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
            refused row is a result (GET /v1/imports/{id}/errors), not a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ImportJob]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ContactsImportCreate | LeadsImportCreate,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | ImportJob | None:
    """Import contacts or leads in bulk

     Answers **202** with the import job, queued; the worker writes its rows in batches and
    `GET /v1/imports/{id}` shows its progress and counts. Needs contacts:write for
    `contacts`, leads:write for `leads`. The whole import counts as one request against the
    rate limit.

    - The envelope is checked at once: `object`, `match_on`, `skip_routing`, and `rows` (1 to
      5000 objects; more is 400 naming `rows`), and the body stays within
      HOMEBASE_MAX_BODY_BYTES (413).
    - Each row is checked as POST /v1/contacts or POST /v1/leads checks its body. A refused
      row is counted `failed` and listed by `GET /v1/imports/{id}/errors` with the same
      field and message that create would answer 400 with; the other rows are written.
    - A contacts row that matches a contact (`match_on`) updates it as PATCH would with the
      members the row gives (`updated`, or `unchanged` when it already holds them); else it
      creates one (`created`). Each row emits the events the single create or update emits.
    - A leads row is POST /v1/leads: consent recorded, linked to a contact, routed unless
      skip_routing; lead.created and lead.assigned per row.
    - A workspace runs one import at a time, oldest first; the next waits, queued.
    - `value_map` replaces found values before a row is checked (a CRM's `Prospect` as
      `LEAD`); an `owner_id` that is no member's id is read as a member's email or full name.
    - `on_invalid_cell`: `refuse` (the default) refuses a row with any invalid value; `skip`
      leaves out a custom field's invalid value, a stage that is not one and an owner who is
      no member, and reports them as the row's warning. A phone that is no valid number is
      kept as sent and reported as a warning in both.
    - `dry_run`: the same counts and refused rows, from the whole import, with no record
      written; a dry run does not wait for the workspace's running import, nor hold it up.

    Args:
        idempotency_key (str | Unset):
        body (ContactsImportCreate | LeadsImportCreate): The import's envelope, one variant by
            `object` (`match_on` for contacts,
            `skip_routing` for leads), is checked at once (400 naming its members); each row is
            checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
            refused row is a result (GET /v1/imports/{id}/errors), not a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ImportJob
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ContactsImportCreate | LeadsImportCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | ImportJob]:
    """Import contacts or leads in bulk

     Answers **202** with the import job, queued; the worker writes its rows in batches and
    `GET /v1/imports/{id}` shows its progress and counts. Needs contacts:write for
    `contacts`, leads:write for `leads`. The whole import counts as one request against the
    rate limit.

    - The envelope is checked at once: `object`, `match_on`, `skip_routing`, and `rows` (1 to
      5000 objects; more is 400 naming `rows`), and the body stays within
      HOMEBASE_MAX_BODY_BYTES (413).
    - Each row is checked as POST /v1/contacts or POST /v1/leads checks its body. A refused
      row is counted `failed` and listed by `GET /v1/imports/{id}/errors` with the same
      field and message that create would answer 400 with; the other rows are written.
    - A contacts row that matches a contact (`match_on`) updates it as PATCH would with the
      members the row gives (`updated`, or `unchanged` when it already holds them); else it
      creates one (`created`). Each row emits the events the single create or update emits.
    - A leads row is POST /v1/leads: consent recorded, linked to a contact, routed unless
      skip_routing; lead.created and lead.assigned per row.
    - A workspace runs one import at a time, oldest first; the next waits, queued.
    - `value_map` replaces found values before a row is checked (a CRM's `Prospect` as
      `LEAD`); an `owner_id` that is no member's id is read as a member's email or full name.
    - `on_invalid_cell`: `refuse` (the default) refuses a row with any invalid value; `skip`
      leaves out a custom field's invalid value, a stage that is not one and an owner who is
      no member, and reports them as the row's warning. A phone that is no valid number is
      kept as sent and reported as a warning in both.
    - `dry_run`: the same counts and refused rows, from the whole import, with no record
      written; a dry run does not wait for the workspace's running import, nor hold it up.

    Args:
        idempotency_key (str | Unset):
        body (ContactsImportCreate | LeadsImportCreate): The import's envelope, one variant by
            `object` (`match_on` for contacts,
            `skip_routing` for leads), is checked at once (400 naming its members); each row is
            checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
            refused row is a result (GET /v1/imports/{id}/errors), not a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ImportJob]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ContactsImportCreate | LeadsImportCreate,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | ImportJob | None:
    """Import contacts or leads in bulk

     Answers **202** with the import job, queued; the worker writes its rows in batches and
    `GET /v1/imports/{id}` shows its progress and counts. Needs contacts:write for
    `contacts`, leads:write for `leads`. The whole import counts as one request against the
    rate limit.

    - The envelope is checked at once: `object`, `match_on`, `skip_routing`, and `rows` (1 to
      5000 objects; more is 400 naming `rows`), and the body stays within
      HOMEBASE_MAX_BODY_BYTES (413).
    - Each row is checked as POST /v1/contacts or POST /v1/leads checks its body. A refused
      row is counted `failed` and listed by `GET /v1/imports/{id}/errors` with the same
      field and message that create would answer 400 with; the other rows are written.
    - A contacts row that matches a contact (`match_on`) updates it as PATCH would with the
      members the row gives (`updated`, or `unchanged` when it already holds them); else it
      creates one (`created`). Each row emits the events the single create or update emits.
    - A leads row is POST /v1/leads: consent recorded, linked to a contact, routed unless
      skip_routing; lead.created and lead.assigned per row.
    - A workspace runs one import at a time, oldest first; the next waits, queued.
    - `value_map` replaces found values before a row is checked (a CRM's `Prospect` as
      `LEAD`); an `owner_id` that is no member's id is read as a member's email or full name.
    - `on_invalid_cell`: `refuse` (the default) refuses a row with any invalid value; `skip`
      leaves out a custom field's invalid value, a stage that is not one and an owner who is
      no member, and reports them as the row's warning. A phone that is no valid number is
      kept as sent and reported as a warning in both.
    - `dry_run`: the same counts and refused rows, from the whole import, with no record
      written; a dry run does not wait for the workspace's running import, nor hold it up.

    Args:
        idempotency_key (str | Unset):
        body (ContactsImportCreate | LeadsImportCreate): The import's envelope, one variant by
            `object` (`match_on` for contacts,
            `skip_routing` for leads), is checked at once (400 naming its members); each row is
            checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
            refused row is a result (GET /v1/imports/{id}/errors), not a 400.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ImportJob
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
