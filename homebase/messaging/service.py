"""The send path: resolve the recipient, load the gate inputs, decide, record.

Every send runs the same gates (compliance/gates.py), here at request time and again in
the worker just before the provider is called. A refusal is recorded as a FAILED
message and answered 422 compliance_blocked; the route class commits that record.
Services never commit.
"""

import logging
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from homebase.compliance import lawful_hours
from homebase.compliance.gates import (
    TEXT_CHANNELS,
    Blocked,
    Decision,
    RecipientState,
    SenderState,
    WorkspaceState,
    evaluate,
)
from homebase.consent.service import valid_consent
from homebase.contacts import service as contacts_service
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.emails import canonical_email
from homebase.kit.errors import ComplianceBlocked, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.kit.validation import validation_failed
from homebase.messaging import render, repository
from homebase.messaging.records import MessageRecord, SenderNumberRecord, SuppressionRecord
from homebase.messaging.schemas import EmailSend, MessageCreate, SendRequest
from homebase.messaging.send_policy import send_policy, workspace_row
from homebase.metrics import compliance_refusal, message_send
from homebase.outbox.service import emit

LABELS = {"SMS": "SMS", "WHATSAPP": "WhatsApp message", "EMAIL": "Email"}

log = logging.getLogger("homebase.messaging")


async def get_or_404(session: TenantSession, message_id: str) -> MessageRecord:
    row = await repository.get(session, message_id)
    if row is None:
        raise NotFound("No such message.")
    return row


def request_from(values: dict[str, Any]) -> SendRequest:  # a send's JSON, validated here
    """A send built in code (automations): the same variant rules as POST /v1/messages,
    a refusal as the same ValidationFailed (400 naming the field)."""
    try:
        return MessageCreate.model_validate(values).root
    except PydanticValidationError as invalid:
        raise validation_failed(invalid.errors()) from None


def _text_address(raw: str) -> str:
    e164 = to_e164(raw)
    if e164 is None:
        raise ValidationFailed.for_field("to", "is not a phone number")
    return e164


async def _recipient(session: TenantSession, data: SendRequest) -> tuple[ContactRecord | None, str]:
    """(contact or None, normalized address: E.164 for texts, lower-case email)."""
    contact_id, to = data.contact_id, data.to
    texts = data.channel in TEXT_CHANNELS
    if contact_id is not None and to is None:
        contact = await contacts_service.get_or_404(session, contact_id)
        address = contact["phone_e164"] if texts else contact["email_lower"]
        if not address:
            what = "phone number" if texts else "email address"
            raise ValidationFailed.for_field("contact_id", f"the contact has no {what}")
        return contact, address
    if to is None or contact_id is not None:
        raise ValidationFailed.for_field("to", "give exactly one of contact_id and to")
    if texts:
        address = _text_address(to)
        return await repository.contact_by_address(session, phone_e164=address), address
    # One bare address, exactly as contacts' email: the mail library would read a comment,
    # a quoted local part, a display name or a list as some other mailbox than the one the
    # suppression gate compares (docs/messaging.md).
    address = canonical_email(to)
    if address is None:
        raise ValidationFailed.for_field("to", "is not one bare email address")
    return await repository.contact_by_address(session, email_lower=address), address


async def resolve_sender(
    session: TenantSession, channel: str, *, requested: str | None
) -> SenderNumberRecord | None:
    """The requested number if the workspace holds it, else its first approved one, else
    any (which the A2P gate then refuses), else None."""
    numbers = await repository.sender_numbers_for(session, channel)
    if requested is not None:
        wanted = to_e164(requested)
        for number in numbers:
            if number["number"] == wanted:
                return number
        raise ValidationFailed.for_field(
            "from", f"is not one of this workspace's {channel} sender numbers"
        )
    approved = [number for number in numbers if number["a2p_status"] == "approved"]
    candidates = approved or numbers
    return candidates[0] if candidates else None


# An AI reply is a reply (not proactive) only this soon after the contact's latest text
# (docs/ai.md); later, quiet hours and consent apply to it as to any proactive text.
AI_REPLY_WINDOW = timedelta(minutes=10)
# An opt-out's confirmation goes out within this long of the opt-out text, or never
# (messaging/confirmation.py): inside it, it is a reply to that text.
CONFIRMATION_WINDOW = timedelta(minutes=5)


async def recipient_state(
    session: TenantSession,
    channel: str,
    *,
    address: str,
    sender: SenderNumberRecord | None,
    now: datetime,
    reply_window: timedelta,
    message_id: str | None = None,
) -> RecipientState:
    """What the gates read of the recipient. A proactive text to a number whose state
    limits proactive contacts (compliance/lawful_hours.py) also reads when this
    workspace's proactive texts reached it in the last 24 hours, `message_id` (the one
    being sent) left out; no other number pays that read."""
    texts = channel in TEXT_CHANNELS
    # Suppressions hold the canonical form (E.164, lower-cased email); the worker passes
    # stored rows' addresses, which may predate the rule.
    suppression = await repository.active_suppression(
        session, address if texts else address.lower()
    )
    replied = texts and await repository.wrote_since(session, address, now - reply_window)
    consent = await valid_consent(session, address, now=now) if texts else None
    state = lawful_hours.state_for_number(address) if texts else None
    rule = lawful_hours.rule_for(state)
    attempts: tuple[datetime, ...] = ()
    if texts and not replied and rule is not None and rule.attempts is not None:
        since = now - lawful_hours.ATTEMPT_WINDOW
        attempts = tuple(
            await repository.proactive_since(session, address, since, leave_out=message_id)
        )
    return RecipientState(
        address=address,
        suppression=_suppression_text(suppression),
        proactive=texts and not replied,
        has_consent=consent is not None,
        sender=SenderState(sender["number"], sender["a2p_status"]) if sender else None,
        state=state,
        attempts=attempts,
    )


def _suppression_text(row: SuppressionRecord | None) -> str | None:
    if row is None:
        return None
    keyword = (row["evidence"] or {}).get("keyword")
    return f"{row['reason']}: {keyword}" if keyword else row["reason"]


async def decide(
    session: TenantSession,
    channel: str,
    *,
    address: str,
    sender: SenderNumberRecord | None,
    ai_reply: bool = False,
    confirmation: bool = False,
    message_id: str | None = None,
) -> tuple[Decision, RecipientState]:
    """The gate every send passes: `send` below (the API, automations' send steps, the AI's
    replies), an opt-out's confirmation (messaging/confirmation.py) and the send job just
    before the provider (messaging/jobs.py); no other code reaches a provider
    (tests/messaging/test_send_paths.py). Its first gate is the account's: a suspended
    workspace sends nothing. Only the carrier-required HELP and START replies
    (messaging/inbound.py) go out without it. An AI reply (`ai_reply`) counts as a reply
    only within AI_REPLY_WINDOW of the contact's latest text. A `confirmation` passes
    every gate but the opt-out gate, and is a reply (it goes out within
    CONFIRMATION_WINDOW of the opt-out text, or never). `message_id`: the message being
    sent, when it is stored already (the send job), so the attempt limit does not count it."""
    workspace = await workspace_row(session)
    settings = send_policy(workspace["settings"])
    now = session.now()
    window = timedelta(hours=settings.reply_window_hours)
    if ai_reply:
        window = min(window, AI_REPLY_WINDOW)
    if confirmation:
        window = CONFIRMATION_WINDOW
    state = await recipient_state(
        session,
        channel,
        address=address,
        sender=sender,
        now=now,
        reply_window=window,
        message_id=message_id,
    )
    decision = evaluate(
        WorkspaceState(workspace["status"]),
        state,
        channel,
        now,
        settings.window,
        confirmation=confirmation,
    )
    return decision, state


async def send(
    session: TenantSession, data: SendRequest, *, email_from: str, ai_job_id: str | None = None
) -> MessageRecord:
    """Queue the send (the worker calls the provider after commit) or record the refusal.
    Which members a channel requires or refuses, and the text length, are the variant
    models' rules (messaging/schemas.py), so the OpenAPI document states them too.
    `ai_job_id`: the AI's reply to a contact's text (homebase/ai/), gated as `decide` says."""
    channel = data.channel
    contact, address = await _recipient(session, data)
    sender = (
        None
        if isinstance(data, EmailSend)
        else await resolve_sender(session, channel, requested=data.from_number)
    )
    decision, state = await decide(
        session, channel, address=address, sender=sender, ai_reply=ai_job_id is not None
    )
    now = session.now()
    row: MessageRecord = {
        "id": new_id("msg"),
        "contact_id": contact["id"] if contact else None,
        "channel": channel,
        "direction": "OUTBOUND",
        "status": "QUEUED",
        "from_address": sender["number"] if sender else email_from,
        "to_address": address,
        "counterpart": address,
        "subject": data.subject if isinstance(data, EmailSend) else None,
        "body": data.body,
        "ai_generated": data.ai_generated,
        "proactive": state.proactive if channel in TEXT_CHANNELS else None,
        "blocked_reason": None,
        "failure_reason": None,
        "provider": None,
        "provider_message_id": None,
        "provider_status": None,
        "attempts": 0,
        "lease_token": None,
        "lease_expires_at": None,
        "next_attempt_at": None,
        "actor": session.actor,
        "ai_job_id": ai_job_id,
        "confirms_suppression_id": None,
        "created_at": now,
        "updated_at": now,
        "sent_at": None,
        "delivered_at": None,
        "failed_at": None,
        "received_at": None,
    }
    if isinstance(decision, Blocked):
        refused(row, decision, now=now)
        await repository.insert(session, row)
        await record_refusal(session, row, decision=decision)
        raise ComplianceBlocked(
            decision.message,
            details={
                "message_id": row["id"],
                "status": "FAILED",
                "recorded": True,
                "reason": decision.reason,
            },
        )
    await repository.insert(session, row)
    session.mark_work()  # the worker sends it as soon as this commits
    return row


def refused(row: MessageRecord, decision: Blocked, *, now: datetime) -> None:
    """A message row about to be recorded as the gate's refusal."""
    row["status"] = "FAILED"
    row["blocked_reason"] = decision.reason
    row["failure_reason"] = decision.message
    row["failed_at"] = now


async def record_refusal(session: TenantSession, row: MessageRecord, *, decision: Blocked) -> None:
    """A refusal recorded at request time: the timeline, the metrics, a log line."""
    await record_on_timeline(session, row, kind="message.failed")
    compliance_refusal(decision.reason, row["channel"], "request")
    message_send(row["channel"], "blocked")
    # The gate's category only: its text may name the recipient.
    logs.event(
        log,
        "message refused by compliance gate",
        level=logging.WARNING,
        message_id=row["id"],
        workspace_id=session.workspace_id,
        channel=row["channel"],
        gate=decision.reason,
        at="request",
    )


async def send_by_person(
    session: TenantSession, data: SendRequest, *, email_from: str
) -> MessageRecord:
    """POST /v1/messages: `send`, and a person's message (not ai_generated) to a contact
    (by contact_id, or a `to` that is a contact's address) is a human takeover: it pauses
    the contact's AI (human_message), in the same transaction, so the AI does not talk
    over the person. Only a queued send pauses: a refusal (`send` raises
    ComplianceBlocked) reached nobody, and the refusal's record commits without a pause.
    Automations and the AI call `send` itself: they are not a person."""
    row = await send(session, data, email_from=email_from)
    if not row["ai_generated"] and row["contact_id"] is not None:
        contact = await contacts_service.get_or_404(session, row["contact_id"])
        await contacts_service.set_ai_pause(
            session, contact, reason=contacts_service.PAUSE_HUMAN_MESSAGE, at=row["created_at"]
        )
    return row


async def record_on_timeline(session: TenantSession, row: MessageRecord, *, kind: str) -> None:
    if row["contact_id"] is None:
        return
    label = LABELS[row["channel"]]
    titles = {
        "message.sent": f"{label} sent",
        "message.received": f"{label} received",
        "message.failed": f"{label} failed"
        + (f" ({row['blocked_reason']})" if row["blocked_reason"] else ""),
    }
    data = {
        "message_id": row["id"],
        "channel": row["channel"],
        "direction": row["direction"],
        "status": row["status"],
        "ai_generated": row["ai_generated"],
    }
    await timeline.record(
        session, row["contact_id"], kind, titles[kind], body=row["body"], data=data
    )


async def mark_sent(session: TenantSession, row: MessageRecord) -> None:
    """The provider accepted it: message.sent (masked) and a timeline entry."""
    await emit(session, "message.sent", data=render.event_data(row))
    await record_on_timeline(session, row, kind="message.sent")


async def scrub_contact_messages(session: TenantSession, contact_id: str) -> None:
    await repository.scrub_for_contact(session, contact_id)
