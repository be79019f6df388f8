"""Endpoints the SMS/WhatsApp provider calls: inbound texts and delivery status.

Outside /v1 and without a credential: the provider proves itself with Twilio's
X-Twilio-Signature (HMAC-SHA1 keyed by HOMEBASE_TWILIO_AUTH_TOKEN over the URL it
called, HOMEBASE_PUBLIC_URL + path, and the sorted form parameters). A missing or wrong
signature, or no configured token, is 403 invalid_signature and records nothing.
The workspace is the one that owns the receiving number (inbound: To; status: From);
a number held by several workspaces reaches each of them. Each request is one
transaction, committed here, the way the /v1 route class commits its own.
"""

from html import escape
from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response

from homebase.ai.service import Wait
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ApiError, NotFound, ValidationFailed
from homebase.kit.openapi import error_responses
from homebase.messaging import inbound
from homebase.models import SenderNumber
from homebase.providers import signing
from homebase.runtime import get_runtime

router = APIRouter(prefix="/providers/sms", tags=["providers"])
sender_numbers = SenderNumber.__table__
TWIML = "application/xml"
_SIGNATURE_HEADER = {
    "name": "X-Twilio-Signature",
    "in": "header",
    "required": True,
    "description": "Base64 HMAC-SHA1, keyed by HOMEBASE_TWILIO_AUTH_TOKEN, of "
    "the full URL followed by each form field's name and "
    "value, sorted by name (docs/messaging.md).",
    "schema": {"type": "string"},
    "example": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
}


def _form_doc(
    properties: dict[str, str], required: list[str], example: dict[str, str]
) -> dict[str, Any]:  # a fragment of the OpenAPI document
    """openapi_extra for a provider callback: a signed form, no API credential."""
    return {
        "security": [],
        "parameters": [_SIGNATURE_HEADER],
        "requestBody": {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {
                        "type": "object",
                        "required": required,
                        "examples": [example],
                        "properties": {
                            name: {"type": "string", "description": text}
                            for name, text in properties.items()
                        },
                    }
                }
            },
        },
    }


_INBOUND_DOC = _form_doc(
    {
        "From": "the sender, E.164 (`whatsapp:` prefix for WhatsApp)",
        "To": "the workspace's receiving number, E.164 (`whatsapp:` prefix for WhatsApp)",
        "Body": "the text",
        "MessageSid": "the provider's message id; a retried callback with "
        "the same id records nothing twice",
    },
    ["From", "To"],
    {
        "From": "+14155550142",
        "To": "+14155550100",
        "Body": "STOP",
        "MessageSid": "SM0123456789abcdef0123456789abcdef",
    },
)
_STATUS_DOC = _form_doc(
    {
        "MessageSid": "the provider's id of a message this service sent",
        "MessageStatus": "queued, sending, sent, delivered, undelivered or failed",
        "From": "the sending number, E.164 (`whatsapp:` prefix for WhatsApp)",
        "ErrorCode": "the provider's error code, when it failed",
        "ErrorMessage": "the provider's error text, when it failed",
    },
    ["MessageSid", "MessageStatus", "From"],
    {
        "MessageSid": "SM0123456789abcdef0123456789abcdef",
        "MessageStatus": "undelivered",
        "From": "+14155550100",
        "ErrorCode": "30003",
        "ErrorMessage": "Unreachable handset",
    },
)
_TWIML_EXAMPLE = (
    '<?xml version="1.0" encoding="UTF-8"?><Response><Message>You are '
    "unsubscribed and will receive no more messages. Reply START to "
    "resubscribe.</Message></Response>"
)


class CallbackAccepted(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"ok": True}]})

    ok: bool = Field(
        description="Always true: the status was applied (or was older than "
        "the one already recorded)."
    )


class InvalidSignature(ApiError):
    status = 403
    code = "invalid_signature"
    message = "The X-Twilio-Signature header is missing or does not match."


_DESCRIPTIONS: dict[int | str, str] = {
    400: "From, MessageSid or MessageStatus missing or malformed.",
    403: "X-Twilio-Signature missing or wrong (invalid_signature).",
    404: "No workspace owns the number, or no such message (not_found).",
}


def _errors() -> dict[int | str, dict[str, Any]]:  # the document's responses
    return {
        status: {**spec, "description": _DESCRIPTIONS[status]}
        for status, spec in error_responses(400, 403, 404).items()
    }


async def _signed_form(request: Request) -> dict[str, str]:
    pairs = parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)
    settings = get_runtime(request).settings
    url = settings.public_url.rstrip("/") + request.url.path
    if request.url.query:
        url += "?" + request.url.query
    if not signing.valid(
        settings.twilio_auth_token, url, pairs, request.headers.get("x-twilio-signature")
    ):
        raise InvalidSignature()
    return dict(pairs)


# Built once: every callback runs it.
_OWNERS = (
    select(sender_numbers.c.workspace_id)
    .where(
        sender_numbers.c.number == bindparam("number"),
        sender_numbers.c.channel == bindparam("channel"),
    )
    .order_by(sender_numbers.c.workspace_id)
)


async def _owners(connection: AsyncConnection, number: str | None, channel: str) -> list[str]:
    if not number:
        return []
    rows = await connection.execute(_OWNERS, {"number": number, "channel": channel.lower()})
    return [row[0] for row in rows]


def _twiml(reply: str | None) -> Response:
    inner = f"<Message>{escape(reply)}</Message>" if reply else ""
    return Response(
        f'<?xml version="1.0" encoding="UTF-8"?><Response>{inner}</Response>', media_type=TWIML
    )


@router.post(
    "/inbound",
    summary="Receive an inbound text (provider callback)",
    description="Records the text (message.received, on the contact's timeline), "
    "links it to the contact with that number and honours opt-outs (STOP, STOP ALL, "
    "UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPT OUT alone; a text of at most six words "
    "holding stop, unsubscribe, revoke, opt out or quit, not negated; a first word STOP, "
    "STOPALL, UNSUBSCRIBE, QUIT, REVOKE or OPTOUT; a phrase of revocation at any length "
    "such as 'please stop texting me' or 'remove me', in English or Spanish; "
    "docs/messaging.md has the rule), requests not to be called, START, UNSTOP and HELP. "
    "Answers TwiML, with the keyword reply if any: an opt-out's one confirmation, or the "
    "START or HELP reply.",
    openapi_extra=_INBOUND_DOC,
    response_class=Response,
    responses={
        200: {
            "description": "TwiML: the keyword reply, or an empty Response",
            "content": {TWIML: {"schema": {"type": "string"}, "example": _TWIML_EXAMPLE}},
        },
        **_errors(),
    },
)
async def receive_inbound_message(request: Request) -> Response:
    form = await _signed_form(request)
    channel, sender = inbound.split_address(form.get("From"))
    _, recipient = inbound.split_address(form.get("To"))
    if sender is None:
        raise ValidationFailed.for_field("From", "is not a phone number")
    runtime = get_runtime(request)
    replies: list[str | None] = []
    async with runtime.db.transaction() as connection:
        owners = await _owners(connection, recipient, channel)
        if not owners or recipient is None:  # (no number has no owners)
            raise NotFound("No workspace owns the receiving number.")
        for workspace_id in owners:
            session = TenantSession(connection, workspace_id, clock=runtime.clock)
            _, reply = await inbound.receive(
                session,
                channel=channel,
                sender=sender,
                recipient=recipient,
                body=form.get("Body", ""),
                provider_message_id=form.get("MessageSid"),
                wait=Wait.of(runtime.settings),
            )
            replies.append(reply)
    return _twiml(replies[0] if replies else None)


@router.post(
    "/status",
    summary="Delivery status of a sent text (provider callback)",
    description="Moves the message to SENT, DELIVERED or FAILED (with the "
    "provider's error code as failure_reason); never backwards.",
    openapi_extra=_STATUS_DOC,
    response_model=CallbackAccepted,
    responses=_errors(),
)
# the provider's callback: FastAPI checks the answer against CallbackAccepted
async def receive_message_status(request: Request) -> dict[str, Any]:
    form = await _signed_form(request)
    channel, sender = inbound.split_address(form.get("From"))
    sid, status = form.get("MessageSid"), form.get("MessageStatus")
    if not sid or not status:
        raise ValidationFailed.for_field("MessageSid", "MessageSid and MessageStatus are required")
    error = form.get("ErrorCode")
    error = (
        f"error code {error}" + (f" ({form['ErrorMessage']})" if form.get("ErrorMessage") else "")
        if error
        else None
    )
    runtime = get_runtime(request)
    async with runtime.db.transaction() as connection:
        found = False
        for workspace_id in await _owners(connection, sender, channel):
            session = TenantSession(connection, workspace_id, clock=runtime.clock)
            found = await inbound.status_callback(session, sid, status, error) or found
        if not found:
            raise NotFound("No such message.")
    return {"ok": True}
