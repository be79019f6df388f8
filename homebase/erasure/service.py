"""DELETE /v1/contacts/{id}: every scrubber of registry.py, in order, in the request's
transaction, so the erasure lands whole or not at all."""

from homebase.contacts import render
from homebase.contacts import service as contacts
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.erasure.registry import SCRUBBERS
from homebase.outbox.service import emit


async def erase_contact(session: TenantSession, contact_id: str) -> ContactRecord:
    """Scrubs the contact's personal data in place; the contact and everything linked to
    it remain and still point at it. A repeat runs every scrubber again (what a path
    wrote after the first erasure goes too) and keeps the first `anonymized_at`; only
    the first erasure emits contact.updated (`changed: ["anonymized"]`)."""
    before = await contacts.get_or_404(session, contact_id)
    for scrubber in SCRUBBERS:
        await scrubber.run(session, contact_id)
    erased = await contacts.get_or_404(session, contact_id)
    if before["anonymized_at"] is None:
        # After the events' scrubber: this event carries the scrubbed contact already.
        await emit(
            session,
            "contact.updated",
            data={
                **render.contact(erased, pii=True, custom=await contacts.definitions(session)),
                "changed": ["anonymized"],
            },
        )
    return erased
