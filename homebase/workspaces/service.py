"""Operator-side rules for workspaces, their members and sender numbers."""

import asyncio
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.db.tenancy import TenantSession, across_workspaces
from homebase.deals.pipelines import ensure_defaults
from homebase.kit import password_policy
from homebase.kit.clock import isoformat
from homebase.kit.errors import AdminError
from homebase.kit.ids import new_id
from homebase.kit.passwords import hash_password, shared_salt
from homebase.kit.phones import to_e164
from homebase.models import SenderNumber, User, Workspace
from homebase.routing.cache import invalidate
from homebase.workspaces import organization

workspaces = Workspace.__table__
users = User.__table__
sender_numbers = SenderNumber.__table__

STATUSES = ("active", "suspended")
CHANNELS = ("sms", "whatsapp")
A2P_STATUSES = ("approved", "pending", "rejected")


def workspace_json(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "status": row["status"],
        "created_at": isoformat(row["created_at"]),
    }


async def create_workspace(
    connection: AsyncConnection, name: str, *, now: datetime
) -> dict[str, Any]:
    name = name.strip()
    if not name or len(name) > 120:
        raise AdminError("--name must be 1 to 120 characters")
    workspace_id = new_id("wsp")
    row = {"id": workspace_id, "name": name, "status": "active", "settings": {}, "created_at": now}
    await connection.execute(insert(workspaces), row)
    # Every workspace starts with the buyer and seller pipelines, so reads never write.
    await ensure_defaults(TenantSession(connection, workspace_id, clock=lambda: now))
    return row


async def get_workspace(connection: AsyncConnection, workspace_id: str) -> dict[str, Any]:
    row = (
        (await connection.execute(select(workspaces).where(workspaces.c.id == workspace_id)))
        .mappings()
        .first()
    )
    if row is None:
        raise AdminError(f"no workspace {workspace_id}")
    return dict(row)


async def set_workspace_status(
    connection: AsyncConnection, workspace_id: str, *, status: str
) -> dict[str, Any]:
    if status not in STATUSES:
        raise AdminError(f"--status must be one of {', '.join(STATUSES)}")
    await get_workspace(connection, workspace_id)
    await connection.execute(
        update(workspaces).where(workspaces.c.id == workspace_id).values(status=status)
    )
    return await get_workspace(connection, workspace_id)


async def create_user(
    session: TenantSession,
    *,
    email: str,
    name: str,
    password: str | None = None,
    office_id: str | None = None,
    team_id: str | None = None,
    phone: str | None = None,
) -> dict[str, Any]:
    """A new member; a removed member's email (workspaces/members.py) is the same member
    back, under its id, with these details (nothing it lost on removal comes back)."""
    email = email.strip().lower()
    if "@" not in email or len(email) > 254:
        raise AdminError("--email must be an email address")
    check_password(password, email)
    existing = await session.fetch_one(
        session.select(users, users.c.id, users.c.removed_at).where(users.c.email == email)
    )
    if existing and existing["removed_at"] is None:
        raise AdminError(f"{email} is already a member of this workspace")
    if phone is not None:
        phone = member_phone(phone)
    await organization.ensure(session, office_id, team_id)
    invalidate(session.workspace_id)  # a new routing target
    row = {
        "id": existing["id"] if existing else new_id("usr"),
        "email": email,
        "name": name.strip() or email,
        "password_hash": await password_hash(session, email, password=password)
        if password
        else None,
        "office_id": office_id,
        "team_id": team_id,
        "phone": phone,
        "created_at": session.now(),
    }
    if existing:
        values = {
            key: row[key] for key in ("name", "password_hash", "office_id", "team_id", "phone")
        }
        await session.execute(
            session.update(users).where(users.c.id == row["id"]).values(**values, removed_at=None)
        )
    else:
        await session.insert(users, row)
    return row


def member_phone(number: str) -> str:
    """A member's phone as stored: E.164, given with its "+" (AdminError otherwise)."""
    e164 = to_e164(number)
    if e164 is None or not number.strip().startswith("+"):
        raise AdminError("--phone must be an E.164 number such as +14155550100")
    return e164


def check_password(password: str | None, email: str) -> None:
    """A new password meets the policy (kit/password_policy.py), or AdminError naming the
    rule it breaks."""
    if not password:  # no password: the member cannot sign in
        return
    reason = password_policy.refusal(password, email)
    if reason is not None:
        raise AdminError(f"the password {reason}")


# The one read across workspaces outside sign-in: it returns nothing but a salt.
_EMAIL_HASHES = across_workspaces(
    select(users.c.password_hash)
    .where(users.c.email == bindparam("email"), users.c.password_hash.is_not(None))
    .order_by(users.c.id)
    .limit(20)  # as many as a sign-in checks
)


async def password_hash(session: TenantSession, email: str, *, password: str) -> str:
    """Hashed with the salt this email's memberships in other workspaces share, so that
    signing in costs one hash however many workspaces it belongs to (kit/passwords.py)."""
    rows = await session.fetch_all(_EMAIL_HASHES, {"email": email})
    stored = [row["password_hash"] for row in rows]
    return await asyncio.to_thread(hash_password, password, shared_salt(stored))


async def add_sender_number(
    session: TenantSession, *, number: str, channel: str, a2p_status: str, voice: bool = False
) -> dict[str, Any]:
    if channel not in CHANNELS:
        raise AdminError(f"--channel must be one of {', '.join(CHANNELS)}")
    if a2p_status not in A2P_STATUSES:
        raise AdminError(f"--a2p-status must be one of {', '.join(A2P_STATUSES)}")
    e164 = to_e164(number)
    if e164 is None or not number.strip().startswith("+"):
        raise AdminError("--number must be an E.164 number such as +14155550100")
    existing = await session.fetch_one(
        session.select(sender_numbers, sender_numbers.c.id).where(
            sender_numbers.c.number == e164, sender_numbers.c.channel == channel
        )
    )
    if existing:
        await session.execute(
            session.update(sender_numbers)
            .where(sender_numbers.c.id == existing["id"])
            .values(a2p_status=a2p_status, voice=voice)
        )
        return {
            **existing,
            "number": e164,
            "channel": channel,
            "a2p_status": a2p_status,
            "voice": voice,
        }
    row = {
        "id": new_id("snd"),
        "number": e164,
        "channel": channel,
        "a2p_status": a2p_status,
        "voice": voice,
        "created_at": session.now(),
    }
    await session.insert(sender_numbers, row)
    return row
