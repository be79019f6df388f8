"""Members' connected CalDAV calendars, and queueing an appointment's push to one.

The calendar URL is the CalDAV collection (e.g. https://cal.example.com/maya/work/);
each appointment becomes `<collection><appointment id>.ics`. Only http and https are
accepted. Unlike webhook URLs, private and loopback addresses are allowed: calendars
are configured by operators (`homebase admin connect-calendar`), not by API clients,
and self-hosted CalDAV servers commonly live on the office network.
"""

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from homebase.appointments.records import AppointmentRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.kit.keys import Keyring
from homebase.kit.sealed import seal, unseal
from homebase.models import CalendarPush, MemberCalendar

SEAL_PURPOSE = "member-calendar"
MAX_URL_LENGTH = 2048
calendars = MemberCalendar.__table__
pushes = CalendarPush.__table__


class CalendarUrlInvalid(ValueError):
    pass


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str


def collection_url(url: str) -> str:
    """The collection URL as stored: http(s), a host, no embedded credentials, ending in /."""
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise CalendarUrlInvalid(f"is longer than {MAX_URL_LENGTH} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise CalendarUrlInvalid("must be an http or https URL")
    if not parts.hostname:
        raise CalendarUrlInvalid("has no host")
    if parts.username is not None or parts.password is not None:
        raise CalendarUrlInvalid("must not carry credentials; use --username/--password")
    if parts.query or parts.fragment:
        raise CalendarUrlInvalid("must not have a query or fragment")
    return url if url.endswith("/") else url + "/"


def seal_credentials(keys: Keyring, calendar_id: str, *, credentials: Credentials) -> str:
    plaintext = json.dumps({"username": credentials.username, "password": credentials.password})
    return seal(keys, SEAL_PURPOSE, plaintext, calendar_id)


def open_credentials(keys: Keyring, calendar_id: str, *, sealed: str) -> Credentials:
    """Raises kit.sealed.SealBroken when neither key opens it or the row was altered."""
    values = json.loads(unseal(keys, SEAL_PURPOSE, sealed, calendar_id))
    return Credentials(values["username"], values["password"])


async def connect(
    session: TenantSession, keys: Keyring, *, user_id: str, url: str, credentials: Credentials
) -> dict[str, Any]:
    """Connects the member's calendar, replacing one connected before (same row id, so
    queued pushes go to the new address)."""
    url = collection_url(url)
    now = session.now()
    existing = await calendar_of(session, user_id)
    if existing is not None:
        changes = {
            "url": url,
            "updated_at": now,
            "credentials_sealed": seal_credentials(keys, existing["id"], credentials=credentials),
        }
        await session.execute(
            session.update(calendars).where(calendars.c.id == existing["id"]).values(**changes)
        )
        return {**existing, **changes}
    calendar_id = new_id("mcl")
    row = {
        "id": calendar_id,
        "user_id": user_id,
        "url": url,
        "created_at": now,
        "updated_at": now,
        "credentials_sealed": seal_credentials(keys, calendar_id, credentials=credentials),
    }
    await session.insert(calendars, row)
    return {**row, "workspace_id": session.workspace_id}


async def calendar_of(session: TenantSession, user_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(calendars).where(calendars.c.user_id == user_id))


async def enqueue_push(session: TenantSession, appointment: AppointmentRecord) -> bool:
    """Queues (or re-queues) the push of the appointment's current state to its
    creator's calendar, in the caller's transaction. False when there is none."""
    if appointment["created_by"] is None:
        return False
    calendar = await calendar_of(session, appointment["created_by"])
    if calendar is None:
        return False
    now = session.now()
    row = dict(
        id=new_id("cpu"),
        appointment_id=appointment["id"],
        calendar_id=calendar["id"],
        status="pending",
        revision=1,
        attempts=0,
        next_attempt_at=now,
        lease_token=None,
        lease_expires_at=None,
        last_status_code=None,
        last_error=None,
        created_at=now,
        updated_at=now,
        completed_at=None,
    )
    # A push in flight keeps its lease; the new revision makes its outcome stale, so
    # the row stays pending and is pushed again with this state (tasks.record). Only a
    # row of this workspace is taken over (the session adds that to the conflict's WHERE).
    await session.upsert(
        pushes,
        row,
        conflict=["appointment_id"],
        set_={
            "status": "pending",
            "revision": pushes.c.revision + 1,
            "attempts": 0,
            "next_attempt_at": now,
            "calendar_id": calendar["id"],
            "updated_at": now,
            "completed_at": None,
        },
    )
    return True
