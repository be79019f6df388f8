"""Whether an id a request names is one of this workspace's contacts or members: the one
check behind every "must be a contact / member of the workspace" 400.

New work (a deal, an appointment, a task, an enrolment) may not name an erased contact:
after DELETE /contacts/{id} anything newly attached to that person (a title, notes, a
text) would undo the erasure. Records of what already happened (a provider's call
callback) still link to it, through contact_exists."""

from collections.abc import Collection
from typing import cast

from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ValidationFailed
from homebase.models import Contact, User

contacts = Contact.__table__
users = User.__table__


async def contact_exists(session: TenantSession, contact_id: str) -> bool:
    return (
        await session.fetch_one(
            session.select(contacts, contacts.c.id).where(contacts.c.id == contact_id)
        )
        is not None
    )


def refusal(contact: ContactRecord | None) -> str | None:
    """Why this contact row (None: no such contact here) cannot take new work, or None."""
    if contact is None:
        return "is not a contact of this workspace"
    return "the contact's data was erased" if contact["anonymized_at"] is not None else None


async def contact_refusal(session: TenantSession, contact_id: str) -> str | None:
    row = await session.fetch_one(
        session.select(contacts, contacts.c.anonymized_at).where(contacts.c.id == contact_id)
    )
    return refusal(cast("ContactRecord | None", row))  # refusal reads anonymized_at alone


async def member_exists(session: TenantSession, user_id: str) -> bool:
    """A current member: a removed one (workspaces/members.py) takes no new work."""
    return (
        await session.fetch_one(
            session.select(users, users.c.id).where(
                users.c.id == user_id, users.c.removed_at.is_(None)
            )
        )
        is not None
    )


async def members_among(session: TenantSession, user_ids: Collection[str]) -> set[str]:
    """Which of `user_ids` are members of this workspace (one query; an import's batch
    checks its rows' owners at once)."""
    if not user_ids:
        return set()
    rows = await session.fetch_all(
        session.select(users, users.c.id).where(
            users.c.id.in_(sorted(user_ids)), users.c.removed_at.is_(None)
        )
    )
    return {row["id"] for row in rows}


NOT_A_MEMBER = "is not a member of this workspace"


async def check_owner(session: TenantSession, owner_id: str | None) -> None:
    """An `owner_id` a write sets (a contact's, a deal's) names a member of this workspace,
    or is null; another workspace's member reads exactly like an unknown id."""
    if owner_id is not None and not await member_exists(session, owner_id):
        raise ValidationFailed.for_field("owner_id", NOT_A_MEMBER)
