from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.email_send import EmailSend
from ...models.error_envelope import ErrorEnvelope
from ...models.message import Message
from ...models.message_narrowed import MessageNarrowed
from ...models.sms_send import SmsSend
from ...models.whats_app_send import WhatsAppSend
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: EmailSend | SmsSend | WhatsAppSend,
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
        "url": "/v1/messages",
        "params": params,
    }

    if isinstance(body, SmsSend) or isinstance(body, WhatsAppSend):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | Message | MessageNarrowed | None:
    if response.status_code == 201:

        def _parse_response_201(data: object) -> Message | MessageNarrowed:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = Message.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = MessageNarrowed.from_dict(data)

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
) -> Response[ErrorEnvelope | Message | MessageNarrowed]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EmailSend | SmsSend | WhatsAppSend,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Message | MessageNarrowed]:
    """Send a text, WhatsApp message or email

     Sends through the same path the product uses. Every send passes the compliance gates,
    in this order, and no option disables them:

    1. **account_suspended**: a suspended workspace sends nothing, on any channel.
    2. **opted_out**: the address is on the suppression list (a STOP reply, a bounce, ...).
    3. **a2p_not_approved** (SMS, WhatsApp): the sending number must be carrier-approved.
    4. **quiet_hours** (proactive texts): only inside the workspace's window (default
       08:00-20:00) in the recipient's local time, resolved from the area code; a number
       spanning several zones must be inside the window in all of them; no zone: refused.
       The number's state may be stricter (Texas: 09:00-21:00, Sunday from noon; some
       states: no Sundays or named holidays; docs/messaging.md, "Lawful hours by state").
    5. **consent_missing** (proactive texts): an unexpired consent artifact for the number.
    6. **attempt_limit** (proactive texts, of the consent family): Florida, Oklahoma and
       Maryland numbers get at most 3 proactive texts or calls per 24 hours from the workspace.

    A text is *proactive* unless the recipient wrote to the workspace within the reply
    window (default 24 hours). Email's hard gate is the suppression list.

    A refusal answers 422 `compliance_blocked` with message `Blocked (<reason>): <text>` and
    details `{message_id, status: "FAILED", recorded: true, reason}`; the attempt is stored
    and listed by GET /messages. Do not retry a recorded refusal in a loop.

    A send that passes is recorded QUEUED and answered 201; the background worker hands it
    to the provider after the request commits (SENDING, then SENT or FAILED with
    failure_reason), and provider status callbacks move it to DELIVERED or FAILED.
    `message.sent` fires when the provider accepts it.

    A queued send not marked `ai_generated` to a contact (by contact_id, or a `to` that is a
    contact's address) is a person stepping in: it pauses the contact's AI auto-response
    (ai_auto_response_paused_reason `human_message`; POST /v1/contacts/{id}/ai/resume resumes
    it). A refused send pauses nothing.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_generated, blocked_reason, body, channel, contact_id, created_at,
            delivered_at, direction, failed_at, failure_reason, from, id, pii_masked, proactive,
            provider, received_at, sent_at, status, subject, to, updated_at.
        idempotency_key (str | Unset):
        body (EmailSend | SmsSend | WhatsAppSend): One variant per channel, chosen by `channel`:
            SMS and WHATSAPP take `from` and at
            most 1600 characters of body, and refuse `subject`; EMAIL requires `subject` and
            refuses `from`. Every variant: exactly one of contact_id and to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Message | MessageNarrowed]
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
    body: EmailSend | SmsSend | WhatsAppSend,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Message | MessageNarrowed | None:
    """Send a text, WhatsApp message or email

     Sends through the same path the product uses. Every send passes the compliance gates,
    in this order, and no option disables them:

    1. **account_suspended**: a suspended workspace sends nothing, on any channel.
    2. **opted_out**: the address is on the suppression list (a STOP reply, a bounce, ...).
    3. **a2p_not_approved** (SMS, WhatsApp): the sending number must be carrier-approved.
    4. **quiet_hours** (proactive texts): only inside the workspace's window (default
       08:00-20:00) in the recipient's local time, resolved from the area code; a number
       spanning several zones must be inside the window in all of them; no zone: refused.
       The number's state may be stricter (Texas: 09:00-21:00, Sunday from noon; some
       states: no Sundays or named holidays; docs/messaging.md, "Lawful hours by state").
    5. **consent_missing** (proactive texts): an unexpired consent artifact for the number.
    6. **attempt_limit** (proactive texts, of the consent family): Florida, Oklahoma and
       Maryland numbers get at most 3 proactive texts or calls per 24 hours from the workspace.

    A text is *proactive* unless the recipient wrote to the workspace within the reply
    window (default 24 hours). Email's hard gate is the suppression list.

    A refusal answers 422 `compliance_blocked` with message `Blocked (<reason>): <text>` and
    details `{message_id, status: "FAILED", recorded: true, reason}`; the attempt is stored
    and listed by GET /messages. Do not retry a recorded refusal in a loop.

    A send that passes is recorded QUEUED and answered 201; the background worker hands it
    to the provider after the request commits (SENDING, then SENT or FAILED with
    failure_reason), and provider status callbacks move it to DELIVERED or FAILED.
    `message.sent` fires when the provider accepts it.

    A queued send not marked `ai_generated` to a contact (by contact_id, or a `to` that is a
    contact's address) is a person stepping in: it pauses the contact's AI auto-response
    (ai_auto_response_paused_reason `human_message`; POST /v1/contacts/{id}/ai/resume resumes
    it). A refused send pauses nothing.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_generated, blocked_reason, body, channel, contact_id, created_at,
            delivered_at, direction, failed_at, failure_reason, from, id, pii_masked, proactive,
            provider, received_at, sent_at, status, subject, to, updated_at.
        idempotency_key (str | Unset):
        body (EmailSend | SmsSend | WhatsAppSend): One variant per channel, chosen by `channel`:
            SMS and WHATSAPP take `from` and at
            most 1600 characters of body, and refuse `subject`; EMAIL requires `subject` and
            refuses `from`. Every variant: exactly one of contact_id and to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Message | MessageNarrowed
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
    body: EmailSend | SmsSend | WhatsAppSend,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | Message | MessageNarrowed]:
    """Send a text, WhatsApp message or email

     Sends through the same path the product uses. Every send passes the compliance gates,
    in this order, and no option disables them:

    1. **account_suspended**: a suspended workspace sends nothing, on any channel.
    2. **opted_out**: the address is on the suppression list (a STOP reply, a bounce, ...).
    3. **a2p_not_approved** (SMS, WhatsApp): the sending number must be carrier-approved.
    4. **quiet_hours** (proactive texts): only inside the workspace's window (default
       08:00-20:00) in the recipient's local time, resolved from the area code; a number
       spanning several zones must be inside the window in all of them; no zone: refused.
       The number's state may be stricter (Texas: 09:00-21:00, Sunday from noon; some
       states: no Sundays or named holidays; docs/messaging.md, "Lawful hours by state").
    5. **consent_missing** (proactive texts): an unexpired consent artifact for the number.
    6. **attempt_limit** (proactive texts, of the consent family): Florida, Oklahoma and
       Maryland numbers get at most 3 proactive texts or calls per 24 hours from the workspace.

    A text is *proactive* unless the recipient wrote to the workspace within the reply
    window (default 24 hours). Email's hard gate is the suppression list.

    A refusal answers 422 `compliance_blocked` with message `Blocked (<reason>): <text>` and
    details `{message_id, status: "FAILED", recorded: true, reason}`; the attempt is stored
    and listed by GET /messages. Do not retry a recorded refusal in a loop.

    A send that passes is recorded QUEUED and answered 201; the background worker hands it
    to the provider after the request commits (SENDING, then SENT or FAILED with
    failure_reason), and provider status callbacks move it to DELIVERED or FAILED.
    `message.sent` fires when the provider accepts it.

    A queued send not marked `ai_generated` to a contact (by contact_id, or a `to` that is a
    contact's address) is a person stepping in: it pauses the contact's AI auto-response
    (ai_auto_response_paused_reason `human_message`; POST /v1/contacts/{id}/ai/resume resumes
    it). A refused send pauses nothing.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_generated, blocked_reason, body, channel, contact_id, created_at,
            delivered_at, direction, failed_at, failure_reason, from, id, pii_masked, proactive,
            provider, received_at, sent_at, status, subject, to, updated_at.
        idempotency_key (str | Unset):
        body (EmailSend | SmsSend | WhatsAppSend): One variant per channel, chosen by `channel`:
            SMS and WHATSAPP take `from` and at
            most 1600 characters of body, and refuse `subject`; EMAIL requires `subject` and
            refuses `from`. Every variant: exactly one of contact_id and to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | Message | MessageNarrowed]
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
    body: EmailSend | SmsSend | WhatsAppSend,
    fields: None | str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | Message | MessageNarrowed | None:
    """Send a text, WhatsApp message or email

     Sends through the same path the product uses. Every send passes the compliance gates,
    in this order, and no option disables them:

    1. **account_suspended**: a suspended workspace sends nothing, on any channel.
    2. **opted_out**: the address is on the suppression list (a STOP reply, a bounce, ...).
    3. **a2p_not_approved** (SMS, WhatsApp): the sending number must be carrier-approved.
    4. **quiet_hours** (proactive texts): only inside the workspace's window (default
       08:00-20:00) in the recipient's local time, resolved from the area code; a number
       spanning several zones must be inside the window in all of them; no zone: refused.
       The number's state may be stricter (Texas: 09:00-21:00, Sunday from noon; some
       states: no Sundays or named holidays; docs/messaging.md, "Lawful hours by state").
    5. **consent_missing** (proactive texts): an unexpired consent artifact for the number.
    6. **attempt_limit** (proactive texts, of the consent family): Florida, Oklahoma and
       Maryland numbers get at most 3 proactive texts or calls per 24 hours from the workspace.

    A text is *proactive* unless the recipient wrote to the workspace within the reply
    window (default 24 hours). Email's hard gate is the suppression list.

    A refusal answers 422 `compliance_blocked` with message `Blocked (<reason>): <text>` and
    details `{message_id, status: "FAILED", recorded: true, reason}`; the attempt is stored
    and listed by GET /messages. Do not retry a recorded refusal in a loop.

    A send that passes is recorded QUEUED and answered 201; the background worker hands it
    to the provider after the request commits (SENDING, then SENT or FAILED with
    failure_reason), and provider status callbacks move it to DELIVERED or FAILED.
    `message.sent` fires when the provider accepts it.

    A queued send not marked `ai_generated` to a contact (by contact_id, or a `to` that is a
    contact's address) is a person stepping in: it pauses the contact's AI auto-response
    (ai_auto_response_paused_reason `human_message`; POST /v1/contacts/{id}/ai/resume resumes
    it). A refused send pauses nothing.

    Args:
        fields (None | str | Unset): Comma-separated allow-list of members to return; id is always
            included. One of: ai_generated, blocked_reason, body, channel, contact_id, created_at,
            delivered_at, direction, failed_at, failure_reason, from, id, pii_masked, proactive,
            provider, received_at, sent_at, status, subject, to, updated_at.
        idempotency_key (str | Unset):
        body (EmailSend | SmsSend | WhatsAppSend): One variant per channel, chosen by `channel`:
            SMS and WHATSAPP take `from` and at
            most 1600 characters of body, and refuse `subject`; EMAIL requires `subject` and
            refuses `from`. Every variant: exactly one of contact_id and to.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | Message | MessageNarrowed
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            fields=fields,
            idempotency_key=idempotency_key,
        )
    ).parsed
