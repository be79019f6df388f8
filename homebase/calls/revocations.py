"""Numbers whose owner asked not to be called (models/call_revocation.py).

A text that names only calls ("don't call me", "stop calling": messaging/keywords.py
NO_CALLS), or an opt-out that names calls too ("stop calling and texting me"), records
its number here with the text as evidence. It is no text suppression: texts still go to
the number. Calls the service makes (the AI voice work to come) must check `revoked`
before dialling; nothing lifts a revocation yet. One row per number: the first request's
evidence stands, a repeated one adds nothing.
"""

from typing import Any, cast

from homebase.calls.records import RevocationRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.models import CallRevocation

revocations = CallRevocation.__table__


async def revoke(
    session: TenantSession,
    *,
    address: str,
    contact_id: str | None,
    phrase: str,
    evidence: dict[str, Any],  # the inbound message's JSON that carried the phrase
) -> bool:
    """Records that `address` (E.164) must not be called; False when it was already."""
    return await session.insert_if_absent(
        revocations,
        {
            "id": new_id("crv"),
            "address": address,
            "contact_id": contact_id,
            "phrase": phrase[:60],
            "evidence": evidence,
            "created_at": session.now(),
        },
        conflict=("workspace_id", "address"),
    )


async def revoked(session: TenantSession, address: str) -> RevocationRecord | None:
    """The number's call revocation (its phrase, evidence and time), or None: a call to
    the number is allowed only when this is None."""
    row = await session.fetch_one(
        session.select(revocations).where(revocations.c.address == address)
    )
    return cast("RevocationRecord | None", row)
