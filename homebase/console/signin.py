"""Checking a member's email and password: timing-safe, throttled, several workspaces.

An email may be a member of several workspaces, each membership with its own password.
The password is checked against each membership (an unknown email still costs one
scrypt verification, against no hash, so the answer takes as long as for a known one).
When more than one membership accepts it, the member picks the workspace; the choice is
carried by a short-lived signed list of the memberships that matched, never by the
password itself.
"""

import asyncio
import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from homebase.kit.crypto import open_signed_blob, signed_blob
from homebase.kit.passwords import verify_password
from homebase.models import User, Workspace
from homebase.runtime import Runtime

# Attempts per email and client address per minute (the shared rate limiter's window).
LOGIN_ATTEMPTS_PER_MIN = 10
PICK_SECONDS = 300  # how long the workspace choice stays open after the password check
MAX_MEMBERSHIPS = 20  # memberships checked for one email; bounds the work per attempt
_PICK_PURPOSE = "console-pick-workspace"

users = User.__table__
workspaces = Workspace.__table__


@dataclass(frozen=True)
class Membership:
    user_id: str
    workspace_id: str
    workspace_name: str


def normalize_email(email: str) -> str:
    return email.strip().lower()


async def throttled(runtime: Runtime, email: str, client_ip: str) -> int | None:
    """Seconds to wait when this email+address has used up its attempts, else None."""
    decision = await runtime.limiter.hit(f"console-login:{client_ip}:{email}",
                                         LOGIN_ATTEMPTS_PER_MIN)
    return None if decision.allowed else decision.retry_after


async def matching_memberships(runtime: Runtime, email: str, password: str
                               ) -> list[Membership]:
    """The memberships of `email` whose password is `password` (scrypt off the loop)."""
    statement = (select(users.c.id, users.c.workspace_id, users.c.password_hash,
                        workspaces.c.name)
                 .join(workspaces, workspaces.c.id == users.c.workspace_id)
                 .where(users.c.email == email).order_by(users.c.id).limit(MAX_MEMBERSHIPS))
    async with runtime.db.transaction(write=False) as connection:
        rows = (await connection.execute(statement)).all()
    if not rows:
        await asyncio.to_thread(verify_password, password, None)
        return []
    matches = []
    for row in rows:
        if await asyncio.to_thread(verify_password, password, row.password_hash):
            matches.append(Membership(row.id, row.workspace_id, row.name))
    return matches


def pick_token(secret_key: str, memberships: list[Membership], now: datetime) -> str:
    payload = {"u": [m.user_id for m in memberships], "x": int(now.timestamp()) + PICK_SECONDS}
    return signed_blob(secret_key, _PICK_PURPOSE, json.dumps(payload).encode(), mac_bytes=16)


def picked_user(secret_key: str, token: str, user_id: str, now: datetime) -> bool:
    """Whether `user_id` is one of the memberships `token` vouches for, still in time."""
    raw = open_signed_blob(secret_key, _PICK_PURPOSE, token, mac_bytes=16) if token else None
    if raw is None:
        return False
    payload = json.loads(raw)
    return payload["x"] > now.timestamp() and user_id in payload["u"]

