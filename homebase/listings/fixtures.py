"""load-fixtures kind `listings` (docs/fixtures.md)."""

from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.listings import service
from homebase.listings.schemas import ListingFixture


# `item`: a fixture file's JSON object, checked by ListingFixture (a boundary)
async def load_listing(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    if "agent" in item:
        item["agent_id"] = resolve_ref(refs, item.pop("agent"), "agent")
    row = await service.create_listing(session, ListingFixture.model_validate(item))
    row_id: str = row["id"]
    return row_id
