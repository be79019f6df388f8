"""A workspace's members after they are added: a new password (set by the operator, or by
the member in the console) and removal (docs/operations.md, "Members").

A password change ends console sessions: the operator's `set-password` ends every one of
the member's (an operator resets a password when it may be known to someone else), the
member's own change in the console ends every one but the session that made it.

Removal keeps the user row (messages, appointments, leads and the timeline name it) and
marks it `removed_at`: its sessions end, its password is cleared, its contacts and open
tasks lose it, routing rules stop naming it, the invitations it made and nobody used
stop working (workspaces/invitations.py), and every check of "a member of this
workspace" (workspaces/references.py, routing) refuses it from then on."""

from typing import Any

from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts.schemas import ContactUpdate
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.models import ConsoleSession, User
from homebase.routing import repository as routing
from homebase.routing.cache import invalidate
from homebase.tasks import repository as tasks
from homebase.workspaces import invitations
from homebase.workspaces.service import check_password, password_hash

users = User.__table__
console_sessions = ConsoleSession.__table__


async def find_member(session: TenantSession, email: str) -> dict[str, Any]:
    """The current member with this email (trimmed, lower-cased), or AdminError."""
    email = email.strip().lower()
    row = await session.fetch_one(
        session.select(users, users.c.id, users.c.email).where(
            users.c.email == email, users.c.removed_at.is_(None)
        )
    )
    if row is None:
        raise AdminError(f"no member {email} in workspace {session.workspace_id}")
    return row


async def stored_password(session: TenantSession, user_id: str) -> str | None:
    """The member's password hash (None: no password), for checking the current one."""
    row = await session.fetch_one(
        session.select(users, users.c.password_hash).where(users.c.id == user_id)
    )
    return row["password_hash"] if row else None


async def end_sessions(session: TenantSession, user_id: str, *, keep: str | None = None) -> int:
    """Revoke the member's open console sessions, but `keep` (a session id); how many."""
    statement = (
        session.update(console_sessions)
        .where(console_sessions.c.user_id == user_id, console_sessions.c.revoked_at.is_(None))
        .values(revoked_at=session.now())
    )
    if keep is not None:
        statement = statement.where(console_sessions.c.id != keep)
    return await session.execute(statement)


async def set_password(
    session: TenantSession, member: dict[str, Any], password: str, *, keep: str | None = None
) -> int:
    """`member` (id, email) gets `password` (the policy applies: AdminError naming the
    rule), and its sessions end but `keep`; returns how many ended."""
    if not password:
        raise AdminError("the password is empty")
    check_password(password, member["email"])
    hashed = await password_hash(session, member["email"], password=password)
    await session.execute(
        session.update(users).where(users.c.id == member["id"]).values(password_hash=hashed)
    )
    return await end_sessions(session, member["id"], keep=keep)


async def remove_member(session: TenantSession, member: dict[str, Any]) -> dict[str, Any]:
    """Everything removal does (module docstring), in the caller's transaction; the counts."""
    user_id, now = member["id"], session.now()
    sessions_ended = await end_sessions(session, user_id)
    contact_ids = await contacts_repository.owned_by(session, user_id)
    if contact_ids:
        fields = await contacts.definitions(session)
        unassign = ContactUpdate(owner_id=None)
        for contact_id in contact_ids:  # contacts.updated each, as any owner change
            await contacts.update_contact(session, contact_id, patch=unassign, fields=fields)
    tasks_unassigned = await tasks.unassign_open(session, user_id, now)
    invitations_withdrawn = await invitations.withdraw_made_by(session, user_id)
    rules_changed = 0
    for rule in await routing.load_rules(session):
        agent_ids = list(rule.targets.get("agent_ids") or ())
        if user_id in agent_ids:
            targets = {**rule.targets, "agent_ids": [a for a in agent_ids if a != user_id]}
            await routing.set_targets(session, rule.id, targets)
            rules_changed += 1
    await session.execute(
        session.update(users)
        .where(users.c.id == user_id)
        .values(removed_at=now, password_hash=None)
    )
    invalidate(session.workspace_id)  # routing's members and rules
    return {
        "id": user_id,
        "email": member["email"],
        "removed": True,
        "sessions_ended": sessions_ended,
        "contacts_unassigned": len(contact_ids),
        "tasks_unassigned": tasks_unassigned,
        "routing_rules_changed": rules_changed,
        "invitations_withdrawn": invitations_withdrawn,
    }
