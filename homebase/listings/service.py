"""Listings are authored by the workspace; v1 reads them, load-fixtures creates them."""

from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.kit.money import to_hundredths
from homebase.listings import repository
from homebase.listings.records import ListingRecord
from homebase.listings.schemas import ListingFixture


async def create_listing(session: TenantSession, data: ListingFixture) -> ListingRecord:
    now = session.now()
    values = data.model_dump(mode="json", exclude={"price", "baths"})
    row: ListingRecord = {
        "id": new_id("lst"),
        **values,  # type: ignore[typeddict-item]  # ListingFixture's members, each a column
        "city_lower": data.city.lower(),
        "price_cents": to_hundredths(data.price),
        "baths": float(data.baths) if data.baths is not None else None,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(session, row)
    return row
