from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.deal import Deal
from ...models.deal_narrowed import DealNarrowed
from ...models.deal_update import DealUpdate
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: DealUpdate,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/deals/{id}".format(
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
) -> Deal | DealNarrowed | ErrorEnvelope | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Deal | DealNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Deal.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = DealNarrowed.from_dict(data)

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

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

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
) -> Response[Deal | DealNarrowed | ErrorEnvelope]:
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
    body: DealUpdate,
    fields: None | str | Unset = UNSET,
) -> Response[Deal | DealNarrowed | ErrorEnvelope]:
    """Update a deal

     Moving the deal to another stage (stage_id, or pipeline_id) emits deal.stage_changed and adds a
    deal_stage_changed entry to the contact's timeline. status won or lost sets closed_at; open clears
    it.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: closed_at, commission_amount, commission_rate, contact_id, created_at,
            currency, custom_fields, expected_close_date, id, owner_id, pipeline_id, stage_changed_at,
            stage_id, status, title, updated_at, value.
        body (DealUpdate): Any subset. pipeline_id, stage_id, title, currency and status may not
            be null; the
            rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
            the new pipeline's first stage. custom_fields may not be null either: it merges into
            the deal's (null for a key removes its value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deal | DealNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: DealUpdate,
    fields: None | str | Unset = UNSET,
) -> Deal | DealNarrowed | ErrorEnvelope | None:
    """Update a deal

     Moving the deal to another stage (stage_id, or pipeline_id) emits deal.stage_changed and adds a
    deal_stage_changed entry to the contact's timeline. status won or lost sets closed_at; open clears
    it.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: closed_at, commission_amount, commission_rate, contact_id, created_at,
            currency, custom_fields, expected_close_date, id, owner_id, pipeline_id, stage_changed_at,
            stage_id, status, title, updated_at, value.
        body (DealUpdate): Any subset. pipeline_id, stage_id, title, currency and status may not
            be null; the
            rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
            the new pipeline's first stage. custom_fields may not be null either: it merges into
            the deal's (null for a key removes its value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deal | DealNarrowed | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: DealUpdate,
    fields: None | str | Unset = UNSET,
) -> Response[Deal | DealNarrowed | ErrorEnvelope]:
    """Update a deal

     Moving the deal to another stage (stage_id, or pipeline_id) emits deal.stage_changed and adds a
    deal_stage_changed entry to the contact's timeline. status won or lost sets closed_at; open clears
    it.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: closed_at, commission_amount, commission_rate, contact_id, created_at,
            currency, custom_fields, expected_close_date, id, owner_id, pipeline_id, stage_changed_at,
            stage_id, status, title, updated_at, value.
        body (DealUpdate): Any subset. pipeline_id, stage_id, title, currency and status may not
            be null; the
            rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
            the new pipeline's first stage. custom_fields may not be null either: it merges into
            the deal's (null for a key removes its value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Deal | DealNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: DealUpdate,
    fields: None | str | Unset = UNSET,
) -> Deal | DealNarrowed | ErrorEnvelope | None:
    """Update a deal

     Moving the deal to another stage (stage_id, or pipeline_id) emits deal.stage_changed and adds a
    deal_stage_changed entry to the contact's timeline. status won or lost sets closed_at; open clears
    it.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: closed_at, commission_amount, commission_rate, contact_id, created_at,
            currency, custom_fields, expected_close_date, id, owner_id, pipeline_id, stage_changed_at,
            stage_id, status, title, updated_at, value.
        body (DealUpdate): Any subset. pipeline_id, stage_id, title, currency and status may not
            be null; the
            rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
            the new pipeline's first stage. custom_fields may not be null either: it merges into
            the deal's (null for a key removes its value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Deal | DealNarrowed | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            fields=fields,
        )
    ).parsed
