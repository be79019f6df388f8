"""Member queries. Every statement starts from the TenantSession."""

from typing import cast

from homebase.db.tenancy import TenantSession
from homebase.members.records import MemberRecord
from homebase.members.schemas import MemberFilters
from homebase.models import User
from homebase.paging.listing import Listing

users = User.__table__
# Never the password hash.
_COLUMNS = (
    users.c.id,
    users.c.email,
    users.c.name,
    users.c.office_id,
    users.c.team_id,
    users.c.phone,
    users.c.created_at,
    users.c.removed_at,
)


async def get(session: TenantSession, member_id: str) -> MemberRecord | None:
    row = await session.fetch_one(session.select(users, *_COLUMNS).where(users.c.id == member_id))
    return cast("MemberRecord | None", row)


def listing(session: TenantSession, filters: MemberFilters) -> Listing[MemberRecord]:
    """GET /v1/members: newest first."""
    statement = session.select(users, *_COLUMNS)
    if filters.removed == "true":
        statement = statement.where(users.c.removed_at.is_not(None))
    elif filters.removed == "false":
        statement = statement.where(users.c.removed_at.is_(None))
    return Listing.newest(statement, users)


ROSTER_LIMIT = 500


async def roster(session: TenantSession) -> list[MemberRecord]:
    """The workspace's members by name, removed ones too (records still name them), at
    most ROSTER_LIMIT: what the console's owner filter and reassign choices offer."""
    rows = await session.fetch_all(
        session.select(users, *_COLUMNS).order_by(users.c.name, users.c.id).limit(ROSTER_LIMIT)
    )
    return cast("list[MemberRecord]", rows)


async def current_name(session: TenantSession, user_id: str) -> str | None:
    """A current member's name (None for an unknown or removed member, or a blank name):
    what a persona's texts call the agent (automations/persona_texts.py)."""
    row = await session.fetch_one(
        session.select(users, users.c.name).where(
            users.c.id == user_id, users.c.removed_at.is_(None)
        )
    )
    name = " ".join(str(row["name"]).split()) if row is not None and row["name"] else ""
    return name or None
