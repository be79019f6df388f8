"""Whether an id a request names is one of this workspace's contacts or members: the one
check behind every "must be a contact / member of the workspace" 400."""

from homebase.db.tenancy import TenantSession
from homebase.models import Contact, User

contacts = Contact.__table__
users = User.__table__


async def contact_exists(session: TenantSession, contact_id: str) -> bool:
    return await session.fetch_one(session.select(contacts, contacts.c.id)
                                   .where(contacts.c.id == contact_id)) is not None


async def member_exists(session: TenantSession, user_id: str) -> bool:
    return await session.fetch_one(session.select(users, users.c.id)
                                   .where(users.c.id == user_id)) is not None
