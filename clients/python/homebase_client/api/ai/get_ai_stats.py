import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ai_stats import AiStats
from ...models.ai_stats_narrowed import AiStatsNarrowed
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    persona_id: None | str | Unset = UNSET,
    fields: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

    json_persona_id: None | str | Unset
    if isinstance(persona_id, Unset):
        json_persona_id = UNSET
    else:
        json_persona_id = persona_id
    params["persona_id"] = json_persona_id

    json_fields: None | str | Unset
    if isinstance(fields, Unset):
        json_fields = UNSET
    else:
        json_fields = fields
    params["fields"] = json_fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/ai/stats",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AiStats | AiStatsNarrowed | ErrorEnvelope | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> AiStats | AiStatsNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = AiStats.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = AiStatsNarrowed.from_dict(data)

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
) -> Response[AiStats | AiStatsNarrowed | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    persona_id: None | str | Unset = UNSET,
    fields: None | str | Unset = UNSET,
) -> Response[AiStats | AiStatsNarrowed | ErrorEnvelope]:
    """The AI responder's numbers

     What the AI responder did over a range: `from` (inclusive) to `to` (exclusive), at most
    92 days apart; by default the 30 days up to now. Every
    figure is about the range's conversations (the contacts with an inbound text in it) and
    counts what happened to them in the range; `persona_id` limits them to one persona's
    work. `from` not before `to`, a range over 92 days, a malformed time or a
    `persona_id` that names no persona of this workspace answers 400 naming each parameter.
    docs/ai.md, "Its numbers", defines each figure.

    Args:
        from_ (datetime.datetime | None | Unset): Inclusive; default: 30 days before to.
        to (datetime.datetime | None | Unset): Exclusive; default: now.
        persona_id (None | str | Unset): Only this persona's work (GET /v1/personas).
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: conversations, engaged, from, handoffs, opt_outs, persona_id,
            qualification_values_set, replies_sent, replies_withheld, reply_seconds_median,
            reply_seconds_p90, showings_booked, to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AiStats | AiStatsNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        persona_id=persona_id,
        fields=fields,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    persona_id: None | str | Unset = UNSET,
    fields: None | str | Unset = UNSET,
) -> AiStats | AiStatsNarrowed | ErrorEnvelope | None:
    """The AI responder's numbers

     What the AI responder did over a range: `from` (inclusive) to `to` (exclusive), at most
    92 days apart; by default the 30 days up to now. Every
    figure is about the range's conversations (the contacts with an inbound text in it) and
    counts what happened to them in the range; `persona_id` limits them to one persona's
    work. `from` not before `to`, a range over 92 days, a malformed time or a
    `persona_id` that names no persona of this workspace answers 400 naming each parameter.
    docs/ai.md, "Its numbers", defines each figure.

    Args:
        from_ (datetime.datetime | None | Unset): Inclusive; default: 30 days before to.
        to (datetime.datetime | None | Unset): Exclusive; default: now.
        persona_id (None | str | Unset): Only this persona's work (GET /v1/personas).
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: conversations, engaged, from, handoffs, opt_outs, persona_id,
            qualification_values_set, replies_sent, replies_withheld, reply_seconds_median,
            reply_seconds_p90, showings_booked, to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AiStats | AiStatsNarrowed | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        persona_id=persona_id,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    persona_id: None | str | Unset = UNSET,
    fields: None | str | Unset = UNSET,
) -> Response[AiStats | AiStatsNarrowed | ErrorEnvelope]:
    """The AI responder's numbers

     What the AI responder did over a range: `from` (inclusive) to `to` (exclusive), at most
    92 days apart; by default the 30 days up to now. Every
    figure is about the range's conversations (the contacts with an inbound text in it) and
    counts what happened to them in the range; `persona_id` limits them to one persona's
    work. `from` not before `to`, a range over 92 days, a malformed time or a
    `persona_id` that names no persona of this workspace answers 400 naming each parameter.
    docs/ai.md, "Its numbers", defines each figure.

    Args:
        from_ (datetime.datetime | None | Unset): Inclusive; default: 30 days before to.
        to (datetime.datetime | None | Unset): Exclusive; default: now.
        persona_id (None | str | Unset): Only this persona's work (GET /v1/personas).
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: conversations, engaged, from, handoffs, opt_outs, persona_id,
            qualification_values_set, replies_sent, replies_withheld, reply_seconds_median,
            reply_seconds_p90, showings_booked, to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AiStats | AiStatsNarrowed | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        persona_id=persona_id,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    persona_id: None | str | Unset = UNSET,
    fields: None | str | Unset = UNSET,
) -> AiStats | AiStatsNarrowed | ErrorEnvelope | None:
    """The AI responder's numbers

     What the AI responder did over a range: `from` (inclusive) to `to` (exclusive), at most
    92 days apart; by default the 30 days up to now. Every
    figure is about the range's conversations (the contacts with an inbound text in it) and
    counts what happened to them in the range; `persona_id` limits them to one persona's
    work. `from` not before `to`, a range over 92 days, a malformed time or a
    `persona_id` that names no persona of this workspace answers 400 naming each parameter.
    docs/ai.md, "Its numbers", defines each figure.

    Args:
        from_ (datetime.datetime | None | Unset): Inclusive; default: 30 days before to.
        to (datetime.datetime | None | Unset): Exclusive; default: now.
        persona_id (None | str | Unset): Only this persona's work (GET /v1/personas).
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: conversations, engaged, from, handoffs, opt_outs, persona_id,
            qualification_values_set, replies_sent, replies_withheld, reply_seconds_median,
            reply_seconds_p90, showings_booked, to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AiStats | AiStatsNarrowed | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            persona_id=persona_id,
            fields=fields,
        )
    ).parsed
