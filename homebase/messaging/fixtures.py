"""Fixture kinds of messaging (docs/fixtures.md): `suppressions`, an existing
do-not-contact list, and `messaging_settings`, the workspace's sending window and reply
window."""

from typing import Any

from pydantic import ValidationError
from sqlalchemy import select, update

from homebase.db.tenancy import TenantSession
from homebase.fixtures import Refs
from homebase.kit.emails import canonical_email
from homebase.kit.errors import AdminError
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.messaging import repository
from homebase.messaging.settings import MessagingSettings, workspaces

REASONS = ("manual", "opt_out_reply", "bounce", "complaint")


async def load_suppression(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    raw = str(item.get("address", "")).strip()
    reason = item.get("reason", "manual")
    if reason not in REASONS:
        raise AdminError(f"suppressions: reason must be one of {', '.join(REASONS)}")
    # The canonical forms the gate compares: E.164, or the lower-cased bare address.
    kind, address = ("email", canonical_email(raw)) if "@" in raw else ("phone", to_e164(raw))
    if address is None:
        raise AdminError(f"suppressions: {raw!r} is neither a phone number nor an email address")
    existing = await repository.active_suppression(session, address)
    if existing is not None:
        return existing["id"]
    row = {
        "id": new_id("sup"),
        "kind": kind,
        "address": address,
        "reason": reason,
        "evidence": {"source": "fixtures", "note": item.get("note")},
        "created_at": session.now(),
        "lifted_at": None,
        "lifted_evidence": None,
    }
    await repository.insert_suppression(session, row)
    return row["id"]


async def load_messaging_settings(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    try:
        validated = MessagingSettings.model_validate(item)
    except ValidationError as error:
        raise AdminError(f"messaging_settings: {error.errors()[0]['msg']}") from error
    unknown = sorted(set(item) - set(MessagingSettings.model_fields))
    if unknown:
        raise AdminError(f"messaging_settings: unknown setting(s) {', '.join(unknown)}")
    # The workspace row is the tenant itself, so it is read and written by its id.
    by_id = workspaces.c.id == session.workspace_id
    stored = (
        await session.connection.execute(select(workspaces.c.settings).where(by_id))
    ).scalar_one_or_none() or {}
    await session.connection.execute(
        update(workspaces)
        .where(by_id)
        .values(settings={**stored, **validated.model_dump(mode="json")})
    )
    return session.workspace_id
