"""The inbox's rules beyond its reads (repository.py): what an erasure removes."""

from homebase.db.tenancy import TenantSession
from homebase.inbox import repository


async def scrub_contact_conversation_reads(session: TenantSession, contact_id: str) -> None:
    """The erasure's scrubber (erasure/registry.py): every member's read mark of the
    contact's conversation goes (it says when a member looked at the person's messages)."""
    await repository.delete_for_contact(session, contact_id)
