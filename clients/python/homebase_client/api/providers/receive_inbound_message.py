from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.receive_inbound_message_body import ReceiveInboundMessageBody
from ...types import Response


def _get_kwargs(
    *,
    body: ReceiveInboundMessageBody,
    x_twilio_signature: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Twilio-Signature"] = x_twilio_signature

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/providers/sms/inbound",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveInboundMessageBody,
    x_twilio_signature: str,
) -> Response[ErrorEnvelope | str]:
    """Receive an inbound text (provider callback)

     Records the text (message.received, on the contact's timeline), links it to the contact with that
    number and honours opt-outs (STOP, STOP ALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPT OUT alone;
    a text of at most six words holding stop, unsubscribe, revoke, opt out or quit, not negated; a first
    word STOP, STOPALL, UNSUBSCRIBE, QUIT, REVOKE or OPTOUT; a phrase of revocation at any length such
    as 'please stop texting me' or 'remove me', in English or Spanish; docs/messaging.md has the rule),
    requests not to be called, START, UNSTOP and HELP. Answers TwiML, with the keyword reply if any: an
    opt-out's one confirmation, or the START or HELP reply.

    Args:
        x_twilio_signature (str):
        body (ReceiveInboundMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        body=body,
        x_twilio_signature=x_twilio_signature,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveInboundMessageBody,
    x_twilio_signature: str,
) -> ErrorEnvelope | str | None:
    """Receive an inbound text (provider callback)

     Records the text (message.received, on the contact's timeline), links it to the contact with that
    number and honours opt-outs (STOP, STOP ALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPT OUT alone;
    a text of at most six words holding stop, unsubscribe, revoke, opt out or quit, not negated; a first
    word STOP, STOPALL, UNSUBSCRIBE, QUIT, REVOKE or OPTOUT; a phrase of revocation at any length such
    as 'please stop texting me' or 'remove me', in English or Spanish; docs/messaging.md has the rule),
    requests not to be called, START, UNSTOP and HELP. Answers TwiML, with the keyword reply if any: an
    opt-out's one confirmation, or the START or HELP reply.

    Args:
        x_twilio_signature (str):
        body (ReceiveInboundMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | str
    """

    return sync_detailed(
        client=client,
        body=body,
        x_twilio_signature=x_twilio_signature,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveInboundMessageBody,
    x_twilio_signature: str,
) -> Response[ErrorEnvelope | str]:
    """Receive an inbound text (provider callback)

     Records the text (message.received, on the contact's timeline), links it to the contact with that
    number and honours opt-outs (STOP, STOP ALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPT OUT alone;
    a text of at most six words holding stop, unsubscribe, revoke, opt out or quit, not negated; a first
    word STOP, STOPALL, UNSUBSCRIBE, QUIT, REVOKE or OPTOUT; a phrase of revocation at any length such
    as 'please stop texting me' or 'remove me', in English or Spanish; docs/messaging.md has the rule),
    requests not to be called, START, UNSTOP and HELP. Answers TwiML, with the keyword reply if any: an
    opt-out's one confirmation, or the START or HELP reply.

    Args:
        x_twilio_signature (str):
        body (ReceiveInboundMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        body=body,
        x_twilio_signature=x_twilio_signature,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveInboundMessageBody,
    x_twilio_signature: str,
) -> ErrorEnvelope | str | None:
    """Receive an inbound text (provider callback)

     Records the text (message.received, on the contact's timeline), links it to the contact with that
    number and honours opt-outs (STOP, STOP ALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPT OUT alone;
    a text of at most six words holding stop, unsubscribe, revoke, opt out or quit, not negated; a first
    word STOP, STOPALL, UNSUBSCRIBE, QUIT, REVOKE or OPTOUT; a phrase of revocation at any length such
    as 'please stop texting me' or 'remove me', in English or Spanish; docs/messaging.md has the rule),
    requests not to be called, START, UNSTOP and HELP. Answers TwiML, with the keyword reply if any: an
    opt-out's one confirmation, or the START or HELP reply.

    Args:
        x_twilio_signature (str):
        body (ReceiveInboundMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | str
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_twilio_signature=x_twilio_signature,
        )
    ).parsed
