"""The confirmation of an opt-out: the one text that passes every gate but the opt-out gate.

Carriers require one text confirming an opt-out, and the FCC allows one, within five
minutes, saying nothing else. Every opt-out confirms through `confirm`, whichever rule
read it (a keyword, a sentence, the AI's reading: messaging/opt_outs.py):

- at most one per suppression: the message names the suppression it confirms
  (`messages.confirms_suppression_id`, a partial unique index), and a second opt-out of
  a number already suppressed, a provider's retried callback, or an opt-out read both by
  a keyword and by the AI confirms nothing more;
- within CONFIRMATION_WINDOW (five minutes) of the opt-out text, or never: a confirmation
  that could not go out by then is not sent (`expired`, checked again by the send job);
- every gate but the opt-out gate (messaging/service.decide with `confirmation`): the
  account (a suspended workspace sends nothing), the sender number's approval; within
  the five minutes it is a reply, so quiet hours and consent do not hold it. A refusal is
  recorded as every refusal is (FAILED, blocked_reason) and is the suppression's one
  confirmation;
- no other content: TEXT with the workspace's name, or the responder persona's
  confirmation in the lead's language when the AI read the opt-out (docs/ai.md, "The
  lead's language"), nothing of the AI or of a person.

It travels two ways, chosen by the caller: in the answer to the provider's inbound
callback (TwiML, recorded SENT with provider `twiml`), when the opt-out is read while
that callback is answered; otherwise queued for the send job (the AI's reading, after the
callback was answered), whose claim runs `expired` and the same gates again.
"""

from sqlalchemy import text

from homebase.compliance.gates import Blocked
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.messaging import repository, service
from homebase.messaging.records import MessageRecord, SenderNumberRecord
from homebase.messaging.send_policy import workspace_row
from homebase.models.message import CONFIRMS_WHERE

TEXT = "{name}: you are unsubscribed and will receive no more messages. Reply START to resubscribe."
EXPIRED = (
    "The opt-out's confirmation could not go out within five minutes of the opt-out; "
    "it is never sent later."
)
LIFTED = "The opt-out was lifted (START) before its confirmation went out; it is not sent."


async def body(session: TenantSession) -> str:
    return TEXT.format(name=(await workspace_row(session))["name"] or "Homebase")


async def _sender(
    session: TenantSession, channel: str, number: str | None
) -> SenderNumberRecord | None:
    numbers = await repository.sender_numbers_for(session, channel)
    return next((row for row in numbers if row["number"] == number), None)


async def confirm(
    session: TenantSession,
    suppression_id: str,
    inbound: MessageRecord,
    *,
    in_answer: bool,
    wording: str | None = None,
) -> MessageRecord | None:
    """The confirmation of `suppression_id`, made from the opt-out text `inbound`, from
    the number it was sent to: recorded SENT for the callback's answer (`in_answer`), or
    queued; FAILED when a gate refused it. None when the suppression already has its
    confirmation, or the five minutes have passed."""
    now = session.now()
    received_at = inbound["received_at"]
    address = inbound["from_address"]
    if received_at is None or address is None or now - received_at > service.CONFIRMATION_WINDOW:
        return None
    channel = inbound["channel"]
    sender = await _sender(session, channel, inbound["to_address"])
    decision, _ = await service.decide(
        session, channel, address=address, sender=sender, confirmation=True
    )
    row: MessageRecord = {
        "id": new_id("msg"),
        "contact_id": inbound["contact_id"],
        "channel": channel,
        "direction": "OUTBOUND",
        "status": "SENT" if in_answer else "QUEUED",
        "from_address": inbound["to_address"],
        "to_address": address,
        "counterpart": address,
        "subject": None,
        "body": wording or await body(session),
        "ai_generated": False,
        "proactive": False,
        "blocked_reason": None,
        "failure_reason": None,
        "provider": "twiml" if in_answer else None,
        "provider_message_id": None,
        "provider_status": "sent" if in_answer else None,
        "attempts": 0,
        "lease_token": None,
        "lease_expires_at": None,
        "next_attempt_at": None,
        "actor": None,
        "ai_job_id": None,
        "confirms_suppression_id": suppression_id,
        "created_at": now,
        "updated_at": now,
        "sent_at": now if in_answer else None,
        "delivered_at": None,
        "failed_at": None,
        "received_at": None,
    }
    if isinstance(decision, Blocked):
        service.refused(row, decision, now=now)
        row["provider"], row["provider_status"], row["sent_at"] = None, None, None
    inserted = await session.insert_if_absent(
        repository.messages,
        row,
        conflict=("confirms_suppression_id",),
        index_where=text(CONFIRMS_WHERE),
    )
    if not inserted:
        return None
    if isinstance(decision, Blocked):
        await service.record_refusal(session, row, decision=decision)
    elif in_answer:
        await service.mark_sent(session, row)
    else:
        session.mark_work()  # the send job sends it as soon as this commits
    return row


async def answered(session: TenantSession, inbound: MessageRecord) -> str | None:
    """A retried callback's answer: the confirmation this opt-out text was answered, when
    it went in the callback's answer and its five minutes last. The provider retries only
    a callback it got no answer to, so this is the one confirmation, not a second."""
    received_at = inbound["received_at"]
    if received_at is None or session.now() - received_at > service.CONFIRMATION_WINDOW:
        return None
    row = await repository.confirmation_of(session, inbound)
    if row is None or row["provider"] != "twiml" or row["status"] != "SENT":
        return None
    return str(row["body"])


async def expired(session: TenantSession, row: MessageRecord) -> str | None:
    """Why a queued confirmation may no longer go out (the send job's claim), or None:
    its opt-out was lifted, or the five minutes since the opt-out text have passed."""
    suppression_id = row["confirms_suppression_id"]
    suppression = await repository.suppression(session, suppression_id) if suppression_id else None
    if suppression is None or suppression["lifted_at"] is not None:
        return LIFTED
    if session.now() - repository.opted_out_at(suppression) > service.CONFIRMATION_WINDOW:
        return EXPIRED
    return None
