"""Fixture kinds of messaging (docs/fixtures.md): `suppressions`, an existing
do-not-contact list, and `messaging_settings`, the workspace's sending window and reply
window."""

from pydantic import ValidationError

from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs
from homebase.kit.emails import canonical_email
from homebase.kit.errors import AdminError
from homebase.kit.phones import to_e164
from homebase.kit.wire import JsonObject
from homebase.messaging import repository
from homebase.messaging.send_policy import SendPolicy
from homebase.workspaces.lead_policy import stored_settings

REASONS = ("manual", "opt_out_reply", "bounce", "complaint")


async def load_suppression(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    raw = str(item.get("address", "")).strip()
    reason = item.get("reason", "manual")
    if reason not in REASONS:
        raise AdminError(f"suppressions: reason must be one of {', '.join(REASONS)}")
    # The canonical forms the gate compares: E.164, or the lower-cased bare address.
    kind, address = ("email", canonical_email(raw)) if "@" in raw else ("phone", to_e164(raw))
    if address is None:
        raise AdminError(f"suppressions: {raw!r} is neither a phone number nor an email address")
    row_id, _ = await repository.suppress(
        session,
        kind=kind,
        address=address,
        reason=reason,
        evidence={"source": "fixtures", "note": item.get("note")},
    )
    return row_id


async def load_messaging_settings(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    try:
        validated = SendPolicy.model_validate(item)
    except ValidationError as error:
        raise AdminError(f"messaging_settings: {error.errors()[0]['msg']}") from error
    unknown = sorted(set(item) - set(SendPolicy.model_fields))
    if unknown:
        raise AdminError(f"messaging_settings: unknown setting(s) {', '.join(unknown)}")
    stored = await stored_settings(session)
    await session.save_workspace_settings({**stored, **validated.model_dump(mode="json")})
    return session.workspace_id
