"""Fixture kind `suppressions`: an existing do-not-contact list, loaded as manual
suppressions (docs/fixtures.md)."""

from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.fixtures import Refs, loader
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.messaging import repository
from homebase.workspaces.service import AdminError

REASONS = ("manual", "opt_out_reply", "bounce", "complaint")


@loader("suppressions")
async def load_suppression(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    raw = str(item.get("address", "")).strip()
    reason = item.get("reason", "manual")
    if reason not in REASONS:
        raise AdminError(f"suppressions: reason must be one of {', '.join(REASONS)}")
    if "@" in raw:
        kind, address = "email", raw.lower()
    else:
        kind, address = "phone", to_e164(raw)
        if address is None:
            raise AdminError(f"suppressions: {raw!r} is neither a phone number nor an email")
    existing = await repository.active_suppression(session, address)
    if existing is not None:
        return existing["id"]
    row = {"id": new_id("sup"), "kind": kind, "address": address, "reason": reason,
           "evidence": {"source": "fixtures", "note": item.get("note")},
           "created_at": session.now(), "lifted_at": None, "lifted_evidence": None}
    await repository.insert_suppression(session, row)
    return row["id"]
