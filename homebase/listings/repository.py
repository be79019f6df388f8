"""Listing queries. Every statement starts from the TenantSession."""

from homebase.db.tenancy import TenantSession
from homebase.kit.money import hundredths_at_least, hundredths_at_most
from homebase.listings.records import ListingRecord
from homebase.listings.schemas import ListingFilters
from homebase.models import Listing
from homebase.paging import listing as lists

listings = Listing.__table__


def listing(session: TenantSession, filters: ListingFilters) -> lists.Listing[ListingRecord]:
    """GET /v1/listings: newest first."""
    statement = session.select(listings)
    if filters.status is not None:
        statement = statement.where(listings.c.status == filters.status.value)
    if filters.city:
        statement = statement.where(listings.c.city_lower == filters.city.lower())
    for name in ("state", "zip", "property_type", "agent_id"):
        value = getattr(filters, name)
        if value:
            statement = statement.where(listings.c[name] == value)
    if filters.min_price is not None:
        least = hundredths_at_least(filters.min_price)
        statement = statement.where(listings.c.price_cents >= least)
    if filters.max_price is not None:
        most = hundredths_at_most(filters.max_price)
        statement = statement.where(listings.c.price_cents <= most)
    if filters.min_beds is not None:
        statement = statement.where(listings.c.beds >= filters.min_beds)
    if filters.min_baths is not None:
        statement = statement.where(listings.c.baths >= float(filters.min_baths))
    return lists.Listing.newest(statement, listings)


async def insert(session: TenantSession, values: ListingRecord) -> None:
    await session.insert(listings, values)
