"""The one seam between a campaign and the AI's first-touch path: `reach`.

The campaign job (campaign_job.py) calls `reach(session, enrolment, campaign)` for an
enrolled contact once every rule it can check itself has passed (docs/automations.md,
"Campaigns"), inside the transaction that holds the campaign's row and records the
outcome. What it does is durable work written through `session`, never a call to a
provider: the campaign's AI text queued in `ai_outreach` (ai/outreach.campaign_touch),
composed and sent by the outreach worker with every rule of a first touch (lawful hours
by state, the attempt limit, the send path's gates). A worker that dies rolls the reach
back with everything else, so no contact is reached twice and none is lost.

A `call` campaign places an AI call instead (voice/service.place_ai_call, as the responder
persona, with every gate of a call: the persona's voice, AI-voice consent, the lawful hours
and attempt limit of the number's state); a `text_then_call` one sends its text, and the outreach
worker calls `call_after_text_minutes` after it when the text goes unanswered
(ai/outreach.call_after_text). Its outcome (reach_outcomes.py): `Reached(reference)` (the
text or call queued: the enrolment becomes `reached`, `automation.run` fires),
`Deferred(until)` (the contact has an AI text under way, or a call's lawful hours have not
come: taken again from then, using no slot of the campaign's rate), or `Refused(reason)`
(the enrolment is skipped with that reason)."""

from homebase.ai import outreach
from homebase.ai import repository as ai_repository
from homebase.automations.campaign_schemas import CampaignSkipReason
from homebase.automations.reach_outcomes import Deferred, Reached, ReachOutcome, Refused
from homebase.automations.records import CampaignEnrolmentRecord, CampaignRecord
from homebase.contacts import repository as contacts_repository
from homebase.db.tenancy import TenantSession
from homebase.voice import service as voice

__all__ = ["Deferred", "ReachOutcome", "Reached", "Refused", "reach"]


async def reach(
    session: TenantSession, enrolment: CampaignEnrolmentRecord, campaign: CampaignRecord
) -> ReachOutcome:
    """Reach the enrolled contact through the AI's first-touch path, or its call."""
    if campaign["channel"] == "call":
        return await _call(session, enrolment)
    return await outreach.campaign_touch(session, enrolment, campaign)


async def _call(session: TenantSession, enrolment: CampaignEnrolmentRecord) -> ReachOutcome:
    """An AI call as the responder persona: queued (reached), outside the number's lawful
    hours (deferred to its next lawful minute, within a day), over its state's attempt
    limit, or refused by another gate (skipped)."""
    persona_id = await outreach.responder_id(session)
    persona = await ai_repository.persona(session, persona_id) if persona_id else None
    contact = await contacts_repository.get(session, enrolment["contact_id"])
    if persona is None or contact is None:
        return Refused(CampaignSkipReason.refused)
    call = await voice.place_ai_call(session, contact, persona=persona, reason="campaign")
    code = voice.refusal_code(call)
    if code is None:
        return Reached(call["id"])
    if code == "attempt_limit":
        return Refused(CampaignSkipReason.attempt_limit)
    if code == "calling_hours" and contact["phone_e164"]:
        lawful = voice.next_lawful_minute(contact["phone_e164"], session.now())
        if lawful is not None:
            return Deferred(lawful)
    return Refused(CampaignSkipReason.refused)
