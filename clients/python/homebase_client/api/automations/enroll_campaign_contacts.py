from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.campaign_enroll_request import CampaignEnrollRequest
from ...models.campaign_enroll_result import CampaignEnrollResult
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: CampaignEnrollRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/campaigns/{id}/enroll".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CampaignEnrollResult | ErrorEnvelope | None:
    if response.status_code == 202:
        response_202 = CampaignEnrollResult.from_dict(response.json())

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
) -> Response[CampaignEnrollResult | ErrorEnvelope]:
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
    body: CampaignEnrollRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CampaignEnrollResult | ErrorEnvelope]:
    """Enrol contacts in a campaign

     Enrols contacts in the campaign: `contact_ids` (1 to 1,000 of this workspace's contacts)
    or a `filter` (the query parameters of GET /v1/contacts, matched by the same listing; at
    most 1,000 contacts, erased ones left out). Answers **202** once every enrolment is stored;
    the campaign job reaches them at the campaign's `rate_per_hour` (docs/automations.md,
    "Campaigns").

    - A contact already enrolled keeps its one enrolment (`already_enrolled`); enrolling
      again changes nothing.
    - An unknown campaign (or another workspace's) is 404. A contact id that is not this
      workspace's, or an erased contact, is 400 naming each `contact_ids.<index>`; both or
      neither of `contact_ids` and `filter` is 400 naming both; a filter matching more than
      1,000 contacts is 400 on `filter`. A refused request enrols nobody.
    - With an `Idempotency-Key`, a retry answers the first answer.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CampaignEnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignEnrollResult | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: CampaignEnrollRequest,
    idempotency_key: str | Unset = UNSET,
) -> CampaignEnrollResult | ErrorEnvelope | None:
    """Enrol contacts in a campaign

     Enrols contacts in the campaign: `contact_ids` (1 to 1,000 of this workspace's contacts)
    or a `filter` (the query parameters of GET /v1/contacts, matched by the same listing; at
    most 1,000 contacts, erased ones left out). Answers **202** once every enrolment is stored;
    the campaign job reaches them at the campaign's `rate_per_hour` (docs/automations.md,
    "Campaigns").

    - A contact already enrolled keeps its one enrolment (`already_enrolled`); enrolling
      again changes nothing.
    - An unknown campaign (or another workspace's) is 404. A contact id that is not this
      workspace's, or an erased contact, is 400 naming each `contact_ids.<index>`; both or
      neither of `contact_ids` and `filter` is 400 naming both; a filter matching more than
      1,000 contacts is 400 on `filter`. A refused request enrols nobody.
    - With an `Idempotency-Key`, a retry answers the first answer.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CampaignEnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignEnrollResult | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: CampaignEnrollRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CampaignEnrollResult | ErrorEnvelope]:
    """Enrol contacts in a campaign

     Enrols contacts in the campaign: `contact_ids` (1 to 1,000 of this workspace's contacts)
    or a `filter` (the query parameters of GET /v1/contacts, matched by the same listing; at
    most 1,000 contacts, erased ones left out). Answers **202** once every enrolment is stored;
    the campaign job reaches them at the campaign's `rate_per_hour` (docs/automations.md,
    "Campaigns").

    - A contact already enrolled keeps its one enrolment (`already_enrolled`); enrolling
      again changes nothing.
    - An unknown campaign (or another workspace's) is 404. A contact id that is not this
      workspace's, or an erased contact, is 400 naming each `contact_ids.<index>`; both or
      neither of `contact_ids` and `filter` is 400 naming both; a filter matching more than
      1,000 contacts is 400 on `filter`. A refused request enrols nobody.
    - With an `Idempotency-Key`, a retry answers the first answer.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CampaignEnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignEnrollResult | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: CampaignEnrollRequest,
    idempotency_key: str | Unset = UNSET,
) -> CampaignEnrollResult | ErrorEnvelope | None:
    """Enrol contacts in a campaign

     Enrols contacts in the campaign: `contact_ids` (1 to 1,000 of this workspace's contacts)
    or a `filter` (the query parameters of GET /v1/contacts, matched by the same listing; at
    most 1,000 contacts, erased ones left out). Answers **202** once every enrolment is stored;
    the campaign job reaches them at the campaign's `rate_per_hour` (docs/automations.md,
    "Campaigns").

    - A contact already enrolled keeps its one enrolment (`already_enrolled`); enrolling
      again changes nothing.
    - An unknown campaign (or another workspace's) is 404. A contact id that is not this
      workspace's, or an erased contact, is 400 naming each `contact_ids.<index>`; both or
      neither of `contact_ids` and `filter` is 400 naming both; a filter matching more than
      1,000 contacts is 400 on `filter`. A refused request enrols nobody.
    - With an `Idempotency-Key`, a retry answers the first answer.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CampaignEnrollRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignEnrollResult | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
