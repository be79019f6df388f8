"""Checking a member's email and password: timing-safe, throttled, several workspaces.

An email may be a member of several workspaces, each membership with its own password.
The password is checked against each membership at the cost of one argon2id hash, since an
email's memberships share a salt (kit/passwords.py); an unknown email costs one hash too,
so the answer takes as long as for a known one.
When more than one membership accepts it, the member picks the workspace; the choice is
carried by a short-lived signed list of the memberships that matched, never by the
password itself.
"""

import asyncio
import json
import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import SQLAlchemyError

from homebase.kit import passwords
from homebase.kit.crypto import open_signed_blob, signed_blob
from homebase.kit.keys import Keyring
from homebase.kit.statements import AnyRow
from homebase.models import User, Workspace
from homebase.runtime import Runtime

# Attempts per email and client address per minute (the shared rate limiter's window).
LOGIN_ATTEMPTS_PER_MIN = 10
PICK_SECONDS = 300  # how long the workspace choice stays open after the password check
MAX_MEMBERSHIPS = 20  # memberships checked for one email; bounds the work per attempt
_PICK_PURPOSE = "console-pick-workspace"

log = logging.getLogger(__name__)
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
    decision = await runtime.limiter.hit(
        f"console-login:{client_ip}:{email}", LOGIN_ATTEMPTS_PER_MIN
    )
    return None if decision.allowed else decision.retry_after


async def matching_memberships(runtime: Runtime, email: str, password: str) -> list[Membership]:
    """The memberships of `email` whose password is `password`: one hash per attempt
    however many there are (kit/passwords.py), off the event loop."""
    statement = (
        select(users.c.id, users.c.workspace_id, users.c.password_hash, workspaces.c.name)
        .join(workspaces, workspaces.c.id == users.c.workspace_id)
        .where(users.c.email == email, users.c.removed_at.is_(None))
        .order_by(users.c.id)
        .limit(MAX_MEMBERSHIPS)
    )
    async with runtime.db.transaction(write=False) as connection:
        rows = (await connection.execute(statement)).all()
    stored = [row.password_hash for row in rows]
    accepted = await asyncio.to_thread(passwords.verify_all, password, stored)
    matched = [row for row, ok in zip(rows, accepted, strict=True) if ok]
    await _rehash(runtime, password, matched, passwords.shared_salt(stored))
    return [Membership(row.id, row.workspace_id, row.name) for row in matched]


async def _rehash(
    runtime: Runtime, password: str, matched: list[AnyRow], salt: bytes | None
) -> None:
    """Scrypt hashes, older argon2 parameters and strays from the email's shared salt are
    replaced now that the password is known (one new hash serves every matched row)."""
    stale = [row for row in matched if passwords.needs_rehash(row.password_hash, salt)]
    if not stale:
        return
    fresh = await asyncio.to_thread(passwords.hash_password, password, salt)
    try:
        async with runtime.db.transaction() as connection:
            for row in stale:  # unless the password changed meanwhile
                await connection.execute(
                    update(users)
                    .where(users.c.id == row.id, users.c.password_hash == row.password_hash)
                    .values(password_hash=fresh)
                )
    except SQLAlchemyError:  # the sign-in stands; the next one tries again
        log.warning("could not rehash the password of %s", [row.id for row in stale], exc_info=True)


def pick_token(keys: Keyring, memberships: list[Membership], now: datetime) -> str:
    payload = {"u": [m.user_id for m in memberships], "x": int(now.timestamp()) + PICK_SECONDS}
    return signed_blob(keys, _PICK_PURPOSE, json.dumps(payload).encode(), mac_bytes=16)


def picked_user(keys: Keyring, token: str, user_id: str, now: datetime) -> bool:
    """Whether `user_id` is one of the memberships `token` vouches for, still in time."""
    raw = open_signed_blob(keys, _PICK_PURPOSE, token, mac_bytes=16) if token else None
    if raw is None:
        return False
    payload = json.loads(raw)
    return payload["x"] > now.timestamp() and user_id in payload["u"]
