"""Inbound texts and provider status callbacks: recording, opt-out keywords, status.

An opt-out (keywords.py: STOP, "please stop texting me", "Opt-Out", ...) suppresses the
sender's number with the inbound message as evidence and is confirmed once
(opt_outs.py, confirmation.py); START, UNSTOP lift it; HELP answers with how to opt out.
A phone suppression covers SMS and WhatsApp alike. A text that asks only not to be
called ("don't call me") records a call revocation (calls/revocations.py) and hands the
lead to a person without an AI reply; it suppresses nothing. Any other text from a
contact may start the AI's reply (ai/service.on_inbound, docs/ai.md).
"""

from homebase.ai import service as ai
from homebase.calls import revocations
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.messaging import confirmation, opt_outs, render, repository, service
from homebase.messaging.keywords import NO_CALLS, OPT_IN, OPT_OUT, Keyword, classify, language
from homebase.messaging.records import MessageChanges, MessageRecord
from homebase.messaging.send_policy import workspace_row
from homebase.outbox.service import emit

# Ordered so a message never moves backwards (a late "sent" after "delivered").
_RANK = {"QUEUED": 0, "SENDING": 1, "SENT": 2, "DELIVERED": 3, "FAILED": 4}
PROVIDER_STATUSES = {
    "queued": "SENDING",
    "accepted": "SENDING",
    "sending": "SENDING",
    "sent": "SENT",
    "delivered": "DELIVERED",
    "read": "DELIVERED",
    "undelivered": "FAILED",
    "failed": "FAILED",
}


def split_address(raw: str | None) -> tuple[str, str | None]:
    """("WHATSAPP" | "SMS", E.164) from a provider address like "whatsapp:+1415..."."""
    raw = (raw or "").strip()
    if raw.lower().startswith("whatsapp:"):
        return "WHATSAPP", to_e164(raw.split(":", 1)[1])
    return "SMS", to_e164(raw)


async def receive(
    session: TenantSession,
    *,
    channel: str,
    sender: str,
    recipient: str,
    body: str,
    provider_message_id: str | None,
    wait: ai.Wait,
) -> tuple[MessageRecord, str | None]:
    """Record one inbound text; returns (the message, the reply to answer it with or None).
    `wait`: how long the AI's reply waits for the lead to finish (HOMEBASE_AI_QUIET_SECONDS,
    HOMEBASE_AI_MAX_WAIT_SECONDS).

    The provider retries a callback it got no answer to: a MessageSid already recorded
    is answered the same reply again and records nothing new."""
    if provider_message_id:
        seen = await repository.inbound_by_provider_id(session, provider_message_id)
        if seen is not None:
            return seen, await _answer_again(session, seen)
    now = session.now()
    contact = await repository.contact_by_address(session, phone_e164=sender)
    row: MessageRecord = {
        "id": new_id("msg"),
        "contact_id": contact["id"] if contact else None,
        "channel": channel,
        "direction": "INBOUND",
        "status": "RECEIVED",
        "from_address": sender,
        "to_address": recipient,
        "counterpart": sender,
        "subject": None,
        "body": body,
        "ai_generated": False,
        "proactive": None,
        "blocked_reason": None,
        "failure_reason": None,
        "provider": "twilio",
        "provider_message_id": provider_message_id,
        "provider_status": "received",
        "attempts": 0,
        "lease_token": None,
        "lease_expires_at": None,
        "next_attempt_at": None,
        "actor": None,
        "ai_job_id": None,
        "confirms_suppression_id": None,
        "created_at": now,
        "updated_at": now,
        "sent_at": None,
        "delivered_at": None,
        "failed_at": None,
        "received_at": now,
    }
    await repository.insert(session, row)
    await emit(session, "message.received", data=render.event_data(row))
    await service.record_on_timeline(session, row, kind="message.received")
    word = classify(body)
    if word is None:  # a keyword is answered below and never reaches the AI
        await ai.on_inbound(session, row, contact=contact, wait=wait)
        return row, None
    if word.kind in (OPT_OUT, NO_CALLS):
        return row, await _revocation(session, row, contact, word)
    reply = await _keyword(session, row, word)
    await _record_reply(session, row, reply)
    return row, reply


async def _revocation(
    session: TenantSession,
    row: MessageRecord,
    contact: ContactRecord | None,
    word: Keyword,
) -> str | None:
    """An opt-out (and the call revocation it may name too), or a request only not to be
    called: the confirmation to answer with, or None."""
    calls = word.word if word.kind == NO_CALLS else word.calls
    if calls is not None:
        await revocations.revoke(
            session,
            address=row["from_address"] or "",  # an inbound text always has its sender
            contact_id=row["contact_id"],
            phrase=calls,
            evidence=opt_outs.evidence(row),
        )
    if word.kind == NO_CALLS:
        await ai.hand_off_text(session, row, contact=contact, reason="no_calls")
        return None
    wording = await ai.keyword_confirmation(session, contact, language=language(word.word))
    sent = await opt_outs.opt_out(
        session, row, opt_outs.evidence(row, keyword=word.word), in_answer=True, wording=wording
    )
    return str(sent["body"]) if sent is not None and sent["status"] == "SENT" else None


async def _answer_again(session: TenantSession, seen: MessageRecord) -> str | None:
    word = classify(seen["body"])
    if word is None or word.kind == NO_CALLS:
        return None
    if word.kind == OPT_OUT:
        return await confirmation.answered(session, seen)
    return await _reply_text(session, word)


async def _keyword(session: TenantSession, row: MessageRecord, word: Keyword) -> str:
    """START, UNSTOP (lift the number's suppressions) and HELP: the reply."""
    if word.kind == OPT_IN:
        await opt_outs.opt_in(session, row, opt_outs.evidence(row, keyword=word.word))
    return await _reply_text(session, word)


async def _reply_text(session: TenantSession, word: Keyword) -> str:
    name = (await _workspace_name(session)) or "Homebase"
    if word.kind == OPT_IN:
        return f"{name}: you are resubscribed. Reply STOP to unsubscribe, HELP for help."
    return (
        f"{name}: real-estate updates from your agent. Reply STOP to unsubscribe. "
        "Msg & data rates may apply."
    )


async def _workspace_name(session: TenantSession) -> str:
    return (await workspace_row(session))["name"]


async def _record_reply(session: TenantSession, inbound: MessageRecord, text: str) -> None:
    """The START and HELP replies travel in the provider's answer (TwiML); they are
    required carrier responses, so they are recorded as sent without passing the gates.
    An opt-out's confirmation takes its own path (confirmation.py)."""
    now = session.now()
    row: MessageRecord = {
        **inbound,
        "id": new_id("msg"),
        "direction": "OUTBOUND",
        "status": "SENT",
        "from_address": inbound["to_address"],
        "to_address": inbound["from_address"],
        "body": text,
        "proactive": False,
        "provider": "twiml",
        "provider_message_id": None,
        "provider_status": "sent",
        "created_at": now,
        "updated_at": now,
        "sent_at": now,
        "received_at": None,
    }
    await repository.insert(session, row)
    await service.mark_sent(session, row)


async def status_callback(
    session: TenantSession, provider_message_id: str, provider_status: str, error: str | None
) -> bool:
    """Apply a delivery report; False when this workspace has no such message."""
    row = await repository.outbound_by_provider_id(session, provider_message_id)
    if row is None:
        return False
    status = PROVIDER_STATUSES.get(provider_status.lower())
    now = session.now()
    changes: MessageChanges = {"provider_status": provider_status[:40], "updated_at": now}
    if status is not None and _RANK[status] > _RANK.get(row["status"], 0):
        changes["status"] = status
        if status == "DELIVERED":
            changes["delivered_at"] = now
        if status == "FAILED":
            changes["failed_at"] = now
            changes["failure_reason"] = f"Provider reported {provider_status}" + (
                f": {error}" if error else ""
            )
    await repository.update(session, row["id"], changes)
    if changes.get("status") == "FAILED":
        await service.record_on_timeline(session, {**row, **changes}, kind="message.failed")
    return True
