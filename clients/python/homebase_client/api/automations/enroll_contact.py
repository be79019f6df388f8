from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.enroll_request import EnrollRequest
from ...models.enroll_response import EnrollResponse
from ...models.enroll_response_narrowed import EnrollResponseNarrowed
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: EnrollRequest,
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
        "url": "/v1/automations/{id}/enroll".format(
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
) -> EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope | None:
    if response.status_code == 202:

        def _parse_response_202(
            data: object,
        ) -> EnrollResponse | EnrollResponseNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_202_type_0 = EnrollResponse.from_dict(data)

                return response_202_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_202_type_1 = EnrollResponseNarrowed.from_dict(data)

            return response_202_type_1

        response_202 = _parse_response_202(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

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
) -> Response[EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope]:
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
    body: EnrollRequest,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope]:
    """Start an automation for a contact

     Answers **202** once the enrolment is stored (with its `automation.run` event, in the same
    transaction); the engine runs its first step on the next tick of the worker, then each
    step in order (docs/automations.md).

    - A **disabled** automation is refused with **409** `automation_disabled`; nothing is
      enrolled.
    - A contact that already has an **active** enrolment in this automation is not enrolled
      twice: 202 with that enrolment and `created: false` (and no second event).
    - An unknown automation (or another workspace's) is 404; contact_id that is not a contact
      of this workspace, or an erased one, is 400.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: attempts, automation_id, contact_id, created_at, finished_at, id,
            last_error, next_run_at, status, step_index, updated_at.
        idempotency_key (str | Unset):
        body (EnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: EnrollRequest,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope | None:
    """Start an automation for a contact

     Answers **202** once the enrolment is stored (with its `automation.run` event, in the same
    transaction); the engine runs its first step on the next tick of the worker, then each
    step in order (docs/automations.md).

    - A **disabled** automation is refused with **409** `automation_disabled`; nothing is
      enrolled.
    - A contact that already has an **active** enrolment in this automation is not enrolled
      twice: 202 with that enrolment and `created: false` (and no second event).
    - An unknown automation (or another workspace's) is 404; contact_id that is not a contact
      of this workspace, or an erased one, is 400.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: attempts, automation_id, contact_id, created_at, finished_at, id,
            last_error, next_run_at, status, step_index, updated_at.
        idempotency_key (str | Unset):
        body (EnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: EnrollRequest,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope]:
    """Start an automation for a contact

     Answers **202** once the enrolment is stored (with its `automation.run` event, in the same
    transaction); the engine runs its first step on the next tick of the worker, then each
    step in order (docs/automations.md).

    - A **disabled** automation is refused with **409** `automation_disabled`; nothing is
      enrolled.
    - A contact that already has an **active** enrolment in this automation is not enrolled
      twice: 202 with that enrolment and `created: false` (and no second event).
    - An unknown automation (or another workspace's) is 404; contact_id that is not a contact
      of this workspace, or an erased one, is 400.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: attempts, automation_id, contact_id, created_at, finished_at, id,
            last_error, next_run_at, status, step_index, updated_at.
        idempotency_key (str | Unset):
        body (EnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        fields=fields,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: EnrollRequest,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope | None:
    """Start an automation for a contact

     Answers **202** once the enrolment is stored (with its `automation.run` event, in the same
    transaction); the engine runs its first step on the next tick of the worker, then each
    step in order (docs/automations.md).

    - A **disabled** automation is refused with **409** `automation_disabled`; nothing is
      enrolled.
    - A contact that already has an **active** enrolment in this automation is not enrolled
      twice: 202 with that enrolment and `created: false` (and no second event).
    - An unknown automation (or another workspace's) is 404; contact_id that is not a contact
      of this workspace, or an erased one, is 400.

    Args:
        id (str):
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: attempts, automation_id, contact_id, created_at, finished_at, id,
            last_error, next_run_at, status, step_index, updated_at.
        idempotency_key (str | Unset):
        body (EnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnrollResponse | EnrollResponseNarrowed | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
