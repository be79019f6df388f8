"""The rules the campaign job checks before it hands a contact to the reach seam
(reach.py), each a skip reason (docs/automations.md, "Campaigns"). The first-touch path
checks its own again (lawful hours by state, the attempt limit) and answers Deferred or
Refused."""

from homebase.automations import campaign_repository as repository
from homebase.automations import repository as automations_repository
from homebase.automations.campaign_schemas import CampaignSkipReason
from homebase.automations.records import CampaignEnrolmentRecord, CampaignRecord
from homebase.calls import revocations
from homebase.consent.service import valid_consent
from homebase.contacts import repository as contacts_repository
from homebase.db.tenancy import TenantSession
from homebase.leads.render import ai_outbound_allowed
from homebase.messaging import repository as messaging_repository

Skip = CampaignSkipReason
CALLS = frozenset({"call", "text_then_call"})
TEXTS = frozenset({"text", "text_then_call"})
# Why the first-touch path gave up a campaign's queued text (its outreach row's outcome,
# or the send path's refusal), as the enrolment's skip reason; any other: `refused`.
OUTCOME_SKIPS = {
    "erased": Skip.erased,
    "opted_out": Skip.suppressed,
    "suppressed": Skip.suppressed,
    "paused": Skip.ai_paused,
    "consent_missing": Skip.no_consent,
    "conversation_on": Skip.recent_conversation,
    "attempt_limit": Skip.attempt_limit,
}


def skip_for_outcome(outcome: str) -> CampaignSkipReason:
    """The skip reason of a campaign text given up with `outcome` (OUTCOME_SKIPS)."""
    return OUTCOME_SKIPS.get(outcome, Skip.refused)


async def skip_reason(
    session: TenantSession, enrolment: CampaignEnrolmentRecord, campaign: CampaignRecord
) -> CampaignSkipReason | None:
    """Why the campaign must not reach this contact now, or None. In order: erased, no
    number, suppressed (a STOP for a text, a request not to be called for a call), the
    AI paused, no consent (no unexpired artifact for the number, or a lead of the
    contact that refuses AI outreach), the National Do Not Call Registry (unless the
    consent is newer than the registration), a conversation in the last 24 hours."""
    now = session.now()
    contact = await contacts_repository.get(session, enrolment["contact_id"])
    if contact is None or contact["anonymized_at"] is not None:
        return Skip.erased
    phone = contact["phone_e164"]
    if not phone:
        return Skip.no_phone
    channel = campaign["channel"]
    if channel in TEXTS and await messaging_repository.active_suppression(session, phone):
        return Skip.suppressed
    if channel in CALLS and await revocations.revoked(session, phone):
        return Skip.suppressed
    if contact["ai_paused_at"] is not None:
        return Skip.ai_paused
    consent = await valid_consent(session, phone, now=now)
    leads = await automations_repository.leads_of_contact(session, contact["id"])
    if consent is None or any(not ai_outbound_allowed(lead, now) for lead in leads):
        return Skip.no_consent
    registration = await repository.dnc_registration(session, phone)
    if registration is not None and consent["captured_at"] <= registration["registered_at"]:
        return Skip.dnc_registry
    if await repository.conversation_since(session, contact["id"], phone, now - repository.RECENT):
        return Skip.recent_conversation
    return None
