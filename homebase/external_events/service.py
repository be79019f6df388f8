"""Validate and emit an externally caused event: the outbox row (and a timeline entry on
the contact) in the caller's transaction, like every other event."""

from typing import Any

from pydantic import ValidationError

from homebase.contacts import timeline
from homebase.db.tenancy import TenantSession
from homebase.external_events.schemas import SCHEMAS
from homebase.kit.clock import isoformat
from homebase.kit.errors import AdminError
from homebase.models import Base, Contact, Deal, Listing
from homebase.outbox.service import emit

TITLES = {
    "document.signed": ("document_signed", "Document signed: {name}"),
    "saved_search.sent": ("saved_search_sent", "Listing alert sent: {name}"),
}


async def _exists(session: TenantSession, model: type[Base], row_id: str) -> bool:
    table = model.__table__
    return (
        await session.fetch_one(session.select(table, table.c.id).where(table.c.id == row_id))
        is not None
    )


async def _check_references(session: TenantSession, data: dict[str, Any]) -> None:
    for name, model in (("deal_id", Deal), ("contact_id", Contact)):
        if data.get(name) and not await _exists(session, model, data[name]):
            raise AdminError(f"data.{name}: '{data[name]}' is not one of this workspace's")
    for index, listing_id in enumerate(data.get("listing_ids") or []):
        if not await _exists(session, Listing, listing_id):
            raise AdminError(
                f"data.listing_ids.{index}: '{listing_id}' is not a listing of this workspace"
            )


def validate(event_type: str, raw: Any) -> dict[str, Any]:
    schema = SCHEMAS.get(event_type)
    if schema is None:
        raise AdminError(
            f"--type must be one of {', '.join(SCHEMAS)} (the API's own "
            "operations emit the other events)"
        )
    try:
        return schema.model_validate(raw).model_dump()
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "data"
        raise AdminError(f"data.{field}: {first['msg']}") from error


async def emit_external(session: TenantSession, event_type: str, *, raw: Any) -> dict[str, Any]:
    data = validate(event_type, raw)
    await _check_references(session, data)
    moment_key = "signed_at" if event_type == "document.signed" else "sent_at"
    data[moment_key] = isoformat(data[moment_key] or session.now())
    event_id = await emit(session, event_type, data=data)
    if data.get("contact_id"):
        kind, title = TITLES[event_type]
        await timeline.record(
            session, data["contact_id"], kind, title.format(name=data["name"])[:200], data=data
        )
    return {"event_id": event_id, "type": event_type, "data": data}
