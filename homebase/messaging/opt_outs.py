"""An opt-out by text, however it was read, and its lifting: one path for both readers.

A keyword or sentence (messaging/keywords.py, in the inbound callback) and the AI's
reading (`opt_out: true` in the model's answer, ai/service.opt_out) end here alike:

- the number is suppressed (reason `opt_out_reply`) with the text as evidence, for SMS
  and WhatsApp; a number already suppressed keeps its first suppression and evidence;
- the contact's AI pauses (reason `opt_out`), so an open AI job sends nothing more;
- the one confirmation (messaging/confirmation.py).

START and UNSTOP lift the number's suppressions and resume an AI that an opt-out paused
(a pause for any other reason is a person's, and stays).
"""

from typing import Any

from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.messaging import confirmation, repository
from homebase.messaging.records import MessageRecord

REASON = "opt_out_reply"


def evidence(inbound: MessageRecord, **more: str | bool) -> dict[str, Any]:  # JSON evidence
    """What an opt-out keeps of the text that made it (and a call revocation too)."""
    return {
        **more,
        "message_id": inbound["id"],
        "body": inbound["body"],
        "channel": inbound["channel"],
        "from": inbound["from_address"],
        "to": inbound["to_address"],
        "provider_message_id": inbound["provider_message_id"],
        "received_at": inbound["received_at"].isoformat() if inbound["received_at"] else None,
    }


async def _contact(session: TenantSession, inbound: MessageRecord) -> ContactRecord | None:
    if inbound["contact_id"] is None:
        return None
    contact = await contacts_repository.get(session, inbound["contact_id"])
    return contact if contact is not None and contact["anonymized_at"] is None else None


async def opt_out(
    session: TenantSession,
    inbound: MessageRecord,
    proof: dict[str, Any],  # free-form JSON evidence
    *,
    in_answer: bool,
    wording: str | None = None,
) -> MessageRecord | None:
    """Suppress the sender of `inbound` with `proof` as evidence, pause the contact's AI,
    and confirm (in the callback's answer when `in_answer`, else queued; `wording`: the
    confirmation in the lead's language, else the workspace's): the confirmation's
    message, or None when there is none to send (confirmation.confirm)."""
    address = inbound["from_address"] or ""  # an inbound text always has its sender
    suppression_id, _ = await repository.suppress(
        session, kind="phone", address=address, reason=REASON, evidence=proof
    )
    contact = await _contact(session, inbound)
    if contact is not None:
        await contacts.set_ai_pause(session, contact, reason=contacts.PAUSE_OPT_OUT)
    return await confirmation.confirm(
        session, suppression_id, inbound, in_answer=in_answer, wording=wording
    )


async def opt_in(
    session: TenantSession,
    inbound: MessageRecord,
    proof: dict[str, Any],  # free-form JSON evidence
) -> None:
    address = inbound["from_address"] or ""  # an inbound text always has its sender
    await repository.lift_suppressions(session, address, session.now(), proof)
    contact = await _contact(session, inbound)
    if contact is not None and contact["ai_paused_reason"] == contacts.PAUSE_OPT_OUT:
        await contacts.set_ai_pause(session, contact, reason=None)
