"""Export queries in one workspace. The worker's claim, lease and sweep, which reach
across workspaces, are in exports/jobs.py."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import false

from homebase.db.tenancy import TenantSession
from homebase.models import Export
from homebase.paging.listing import Listing

exports = Export.__table__


async def insert(session: TenantSession, values: dict[str, Any]) -> None:
    await session.insert(exports, values)


async def get(session: TenantSession, export_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(exports).where(exports.c.id == export_id))


def listing(
    session: TenantSession, objects: Sequence[str], *, pii: bool
) -> Listing[dict[str, Any]]:
    """The exports of the lists the credential may read; without contacts:read:pii, not
    those made unmasked (exports/service.readable)."""
    statement = session.select(exports).where(exports.c.object.in_(objects))
    if not pii:
        statement = statement.where(exports.c.pii == false())
    return Listing.newest(statement, exports)
