"""A member's invitation of someone to the workspace (the console's members page,
docs/console.md "Invitations"): a one-time link, emailed and shown once to the member who
made it, valid HOMEBASE_MEMBER_INVITATION_TTL_HOURS (72) on the runtime's clock. Only the
token's SHA-256 is stored (`member_invitations.token_hash`), as a session's is. Following
the link, the invitee sets a password under the password policy and becomes a member
(workspaces.service.create_user, the rules of `homebase admin create-user`); the
invitation is then used, and a second use, an expired link or an unknown one is refused.

The email goes straight to the email provider (HOMEBASE_EMAIL_PROVIDER, providers/), not
through the messaging send path: it is the service's own mail to a member-to-be, not a
message to a contact, so it is neither a workspace message (GET /v1/messages) nor gated
by the contact compliance gates. It is sent after the invitation commits, never inside a
transaction."""

from datetime import datetime, timedelta
from typing import cast

from typing_extensions import TypedDict

from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit.crypto import random_token, token_hash
from homebase.kit.emails import canonical_email
from homebase.kit.errors import Conflict, ValidationFailed
from homebase.kit.ids import new_id
from homebase.models import MemberInvitation, User
from homebase.providers.base import Outbound, ProviderResult
from homebase.providers.registry import provider_for
from homebase.workspaces import service

invitations = MemberInvitation.__table__
users = User.__table__

TOKEN_PREFIX = "hbi_"
LINK_PATH = "/console/invitations/"
PENDING_SHOWN = 50  # the members page lists at most this many pending invitations


class InvitationRecord(TypedDict):
    id: str
    email: str
    name: str
    token_hash: str
    invited_by: str
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None
    user_id: str | None


class Invited(TypedDict):
    """A new invitation and its link's token: the only time the token exists."""

    invitation: InvitationRecord
    token: str


async def invite(
    session: TenantSession, *, email: str, name: str, invited_by: str, valid_for: timedelta
) -> Invited:
    """A new invitation of `email` (one bare address) as `name` (default: the email);
    409 when the email is already an active member of the workspace. A pending invitation
    of the same email stays valid: whichever is used first makes the member, and the
    others are refused from then on (the email is a member)."""
    address = canonical_email(email)
    if address is None:
        raise ValidationFailed.for_field("email", "is not one bare email address")
    name = name.strip() or address
    if len(name) > 120:
        raise ValidationFailed.for_field("name", "is longer than 120 characters")
    member = await session.fetch_one(
        session.select(users, users.c.id).where(
            users.c.email == address, users.c.removed_at.is_(None)
        )
    )
    if member is not None:
        raise Conflict(f"{address} is already a member of this workspace.")
    token = random_token(TOKEN_PREFIX)
    now = session.now()
    row: InvitationRecord = {
        "id": new_id("inv"),
        "email": address,
        "name": name,
        "token_hash": token_hash(token),
        "invited_by": invited_by,
        "created_at": now,
        "expires_at": now + valid_for,
        "used_at": None,
        "user_id": None,
    }
    await session.insert(invitations, row)
    return {"invitation": row, "token": token}


async def pending(session: TenantSession) -> list[InvitationRecord]:
    """The invitations neither used nor expired, newest first, at most PENDING_SHOWN."""
    rows = await session.fetch_all(
        session.select(invitations)
        .where(invitations.c.used_at.is_(None), invitations.c.expires_at > session.now())
        .order_by(invitations.c.id.desc())
        .limit(PENDING_SHOWN)
    )
    return cast(list[InvitationRecord], rows)


def unusable(invitation: InvitationRecord, now: datetime) -> str | None:
    """Why the invitation's link no longer works, or None."""
    if invitation["used_at"] is not None:
        return "This invitation was already used. Sign in with the password you set."
    if invitation["expires_at"] <= now:
        return "This invitation has expired. Ask a member of the workspace for a new one."
    return None


class InvitationUnusable(Conflict):
    """The link was used or expired between the page and its form (or by another tab)."""


async def accept(session: TenantSession, invitation: InvitationRecord, *, password: str) -> str:
    """The invitee becomes a member with `password` (the policy applies: AdminError naming
    the rule, and the caller's transaction rolls back, leaving the invitation unused);
    the new member's id. The invitation is marked used by a conditional update first, so
    two submissions of one link make one member."""
    now = session.now()
    taken = await session.execute(
        session.update(invitations)
        .where(
            invitations.c.id == invitation["id"],
            invitations.c.used_at.is_(None),
            invitations.c.expires_at > now,
        )
        .values(used_at=now)
    )
    if not taken:
        raise InvitationUnusable("This invitation was already used or has expired.")
    user = await service.create_user(
        session, email=invitation["email"], name=invitation["name"], password=password
    )
    await session.execute(
        session.update(invitations)
        .where(invitations.c.id == invitation["id"])
        .values(user_id=user["id"])
    )
    return str(user["id"])


async def withdraw_made_by(session: TenantSession, user_id: str) -> int:
    """A removed member's unused invitations stop working at once (their links then read
    as expired): what a member started ends with their membership. How many."""
    now = session.now()
    return await session.execute(
        session.update(invitations)
        .where(
            invitations.c.invited_by == user_id,
            invitations.c.used_at.is_(None),
            invitations.c.expires_at > now,
        )
        .values(expires_at=now)
    )


def link(settings: Settings, token: str) -> str:
    return settings.public_url.rstrip("/") + LINK_PATH + token


async def send_email(
    settings: Settings, *, invitation: InvitationRecord, url: str, workspace: str, inviter: str
) -> ProviderResult:
    """The invitation's email, through HOMEBASE_EMAIL_PROVIDER; call it after the
    invitation committed (a provider is outside work)."""
    hours = settings.member_invitation_ttl_hours
    body = (
        f"{inviter} invited you to join {workspace} on Homebase.\n\n"
        f"Open this link to set your password and become a member:\n\n{url}\n\n"
        f"The link works once, for {hours:g} hours. If you did not expect this "
        "invitation, ignore this email.\n"
    )
    outbound = Outbound(
        message_id=invitation["id"],
        channel="EMAIL",
        from_address=settings.email_from,
        to_address=invitation["email"],
        subject=f"Join {workspace} on Homebase"[:200],
        body=body,
    )
    return await provider_for("EMAIL", settings).send(outbound)
