from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointments_export_create import AppointmentsExportCreate
from ...models.contacts_export_create import ContactsExportCreate
from ...models.deals_export_create import DealsExportCreate
from ...models.error_envelope import ErrorEnvelope
from ...models.export import Export
from ...models.leads_export_create import LeadsExportCreate
from ...models.messages_export_create import MessagesExportCreate
from ...models.tasks_export_create import TasksExportCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AppointmentsExportCreate
    | ContactsExportCreate
    | DealsExportCreate
    | LeadsExportCreate
    | MessagesExportCreate
    | TasksExportCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/exports",
    }

    if (
        isinstance(body, ContactsExportCreate)
        or isinstance(body, LeadsExportCreate)
        or isinstance(body, DealsExportCreate)
        or isinstance(body, MessagesExportCreate)
        or isinstance(body, TasksExportCreate)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | Export | None:
    if response.status_code == 202:
        response_202 = Export.from_dict(response.json())

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
) -> Response[ErrorEnvelope | Export]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentsExportCreate
    | ContactsExportCreate
    | DealsExportCreate
    | LeadsExportCreate
    | MessagesExportCreate
    | TasksExportCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Export]:
    """Start an export

     Exports every item of one list, as that list would show them to this credential (masking, filters
    and fields alike), to an NDJSON or CSV file written by the worker. The file is kept 7 days, and
    removed at once when a contact's data is erased (docs/imports-exports.md). Needs the read scope of
    the export's list: contacts:read, leads:read, deals:read, messages:read, or appointments:read (tasks
    and appointments); 403 insufficient_scope otherwise. An export made unmasked (for a credential
    holding contacts:read:pii), of any list, is shown only to credentials holding it too: 403
    insufficient_scope naming contacts:read:pii for the others (its download link is issued only to
    them).

    Args:
        idempotency_key (str | Unset):
        body (AppointmentsExportCreate | ContactsExportCreate | DealsExportCreate |
            LeadsExportCreate | MessagesExportCreate | TasksExportCreate): One variant per list,
            chosen by `object`: its `filters` are that list's filters and
            its `fields` name that list's item's members. The export needs the list's read
            scope: contacts:read, leads:read, deals:read, messages:read, appointments:read (tasks
            and appointments).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Export]
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
    body: AppointmentsExportCreate
    | ContactsExportCreate
    | DealsExportCreate
    | LeadsExportCreate
    | MessagesExportCreate
    | TasksExportCreate,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Export | None:
    """Start an export

     Exports every item of one list, as that list would show them to this credential (masking, filters
    and fields alike), to an NDJSON or CSV file written by the worker. The file is kept 7 days, and
    removed at once when a contact's data is erased (docs/imports-exports.md). Needs the read scope of
    the export's list: contacts:read, leads:read, deals:read, messages:read, or appointments:read (tasks
    and appointments); 403 insufficient_scope otherwise. An export made unmasked (for a credential
    holding contacts:read:pii), of any list, is shown only to credentials holding it too: 403
    insufficient_scope naming contacts:read:pii for the others (its download link is issued only to
    them).

    Args:
        idempotency_key (str | Unset):
        body (AppointmentsExportCreate | ContactsExportCreate | DealsExportCreate |
            LeadsExportCreate | MessagesExportCreate | TasksExportCreate): One variant per list,
            chosen by `object`: its `filters` are that list's filters and
            its `fields` name that list's item's members. The export needs the list's read
            scope: contacts:read, leads:read, deals:read, messages:read, appointments:read (tasks
            and appointments).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Export
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentsExportCreate
    | ContactsExportCreate
    | DealsExportCreate
    | LeadsExportCreate
    | MessagesExportCreate
    | TasksExportCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Export]:
    """Start an export

     Exports every item of one list, as that list would show them to this credential (masking, filters
    and fields alike), to an NDJSON or CSV file written by the worker. The file is kept 7 days, and
    removed at once when a contact's data is erased (docs/imports-exports.md). Needs the read scope of
    the export's list: contacts:read, leads:read, deals:read, messages:read, or appointments:read (tasks
    and appointments); 403 insufficient_scope otherwise. An export made unmasked (for a credential
    holding contacts:read:pii), of any list, is shown only to credentials holding it too: 403
    insufficient_scope naming contacts:read:pii for the others (its download link is issued only to
    them).

    Args:
        idempotency_key (str | Unset):
        body (AppointmentsExportCreate | ContactsExportCreate | DealsExportCreate |
            LeadsExportCreate | MessagesExportCreate | TasksExportCreate): One variant per list,
            chosen by `object`: its `filters` are that list's filters and
            its `fields` name that list's item's members. The export needs the list's read
            scope: contacts:read, leads:read, deals:read, messages:read, appointments:read (tasks
            and appointments).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Export]
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
    body: AppointmentsExportCreate
    | ContactsExportCreate
    | DealsExportCreate
    | LeadsExportCreate
    | MessagesExportCreate
    | TasksExportCreate,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Export | None:
    """Start an export

     Exports every item of one list, as that list would show them to this credential (masking, filters
    and fields alike), to an NDJSON or CSV file written by the worker. The file is kept 7 days, and
    removed at once when a contact's data is erased (docs/imports-exports.md). Needs the read scope of
    the export's list: contacts:read, leads:read, deals:read, messages:read, or appointments:read (tasks
    and appointments); 403 insufficient_scope otherwise. An export made unmasked (for a credential
    holding contacts:read:pii), of any list, is shown only to credentials holding it too: 403
    insufficient_scope naming contacts:read:pii for the others (its download link is issued only to
    them).

    Args:
        idempotency_key (str | Unset):
        body (AppointmentsExportCreate | ContactsExportCreate | DealsExportCreate |
            LeadsExportCreate | MessagesExportCreate | TasksExportCreate): One variant per list,
            chosen by `object`: its `filters` are that list's filters and
            its `fields` name that list's item's members. The export needs the list's read
            scope: contacts:read, leads:read, deals:read, messages:read, appointments:read (tasks
            and appointments).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Export
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
