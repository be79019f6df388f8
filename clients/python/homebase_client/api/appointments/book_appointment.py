from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointment import Appointment
from ...models.appointment_create import AppointmentCreate
from ...models.appointment_narrowed import AppointmentNarrowed
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AppointmentCreate,
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
        "url": "/v1/appointments",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Appointment | AppointmentNarrowed | ErrorEnvelope | None:
    if response.status_code == 201:

        def _parse_response_201(data: object) -> Appointment | AppointmentNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = Appointment.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = AppointmentNarrowed.from_dict(data)

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
) -> Response[Appointment | AppointmentNarrowed | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Appointment | AppointmentNarrowed | ErrorEnvelope]:
    """Book an appointment

     400 names contact_id, created_by or assignee_id when it is not one of this workspace's, and ends_at
    when it is not after starts_at. Emits appointment.booked, adds an appointment_booked entry to the
    contact's timeline, and queues a push to created_by's connected calendar; the push happens after the
    response, so a calendar that is down never fails or slows the booking.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, created_by, ends_at, id, location,
            notes, outcome, outcome_recorded_at, starts_at, status, title, updated_at.
        idempotency_key (str | Unset):
        body (AppointmentCreate): contact_id, title, starts_at and ends_at are required; ends_at
            must be after
            starts_at. created_by is the member whose connected calendar receives the event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appointment | AppointmentNarrowed | ErrorEnvelope]
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
    body: AppointmentCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Appointment | AppointmentNarrowed | ErrorEnvelope | None:
    """Book an appointment

     400 names contact_id, created_by or assignee_id when it is not one of this workspace's, and ends_at
    when it is not after starts_at. Emits appointment.booked, adds an appointment_booked entry to the
    contact's timeline, and queues a push to created_by's connected calendar; the push happens after the
    response, so a calendar that is down never fails or slows the booking.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, created_by, ends_at, id, location,
            notes, outcome, outcome_recorded_at, starts_at, status, title, updated_at.
        idempotency_key (str | Unset):
        body (AppointmentCreate): contact_id, title, starts_at and ends_at are required; ends_at
            must be after
            starts_at. created_by is the member whose connected calendar receives the event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appointment | AppointmentNarrowed | ErrorEnvelope
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
    body: AppointmentCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Appointment | AppointmentNarrowed | ErrorEnvelope]:
    """Book an appointment

     400 names contact_id, created_by or assignee_id when it is not one of this workspace's, and ends_at
    when it is not after starts_at. Emits appointment.booked, adds an appointment_booked entry to the
    contact's timeline, and queues a push to created_by's connected calendar; the push happens after the
    response, so a calendar that is down never fails or slows the booking.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, created_by, ends_at, id, location,
            notes, outcome, outcome_recorded_at, starts_at, status, title, updated_at.
        idempotency_key (str | Unset):
        body (AppointmentCreate): contact_id, title, starts_at and ends_at are required; ends_at
            must be after
            starts_at. created_by is the member whose connected calendar receives the event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appointment | AppointmentNarrowed | ErrorEnvelope]
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
    body: AppointmentCreate,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Appointment | AppointmentNarrowed | ErrorEnvelope | None:
    """Book an appointment

     400 names contact_id, created_by or assignee_id when it is not one of this workspace's, and ends_at
    when it is not after starts_at. Emits appointment.booked, adds an appointment_booked entry to the
    contact's timeline, and queues a push to created_by's connected calendar; the push happens after the
    response, so a calendar that is down never fails or slows the booking.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: assignee_id, contact_id, created_at, created_by, ends_at, id, location,
            notes, outcome, outcome_recorded_at, starts_at, status, title, updated_at.
        idempotency_key (str | Unset):
        body (AppointmentCreate): contact_id, title, starts_at and ends_at are required; ends_at
            must be after
            starts_at. created_by is the member whose connected calendar receives the event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appointment | AppointmentNarrowed | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
