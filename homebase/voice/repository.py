"""voice_calls queries. Every statement starts from the TenantSession, but the
provider's callbacks, which find a call's workspace by its id (`locate`)."""

from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.db.tenancy import TenantSession
from homebase.models import SenderNumber, VoiceCall
from homebase.voice.records import VoiceCallRecord

voice_calls = VoiceCall.__table__
sender_numbers = SenderNumber.__table__
# A call being placed (or whose placing outcome was lost) may already be answered.
LIVE_STATUSES = ("placing", "placed", "unknown", "in_progress")


async def get(session: TenantSession, call_id: str) -> VoiceCallRecord | None:
    row = await session.fetch_one(session.select(voice_calls).where(voice_calls.c.id == call_id))
    return cast("VoiceCallRecord | None", row)


async def insert(session: TenantSession, row: VoiceCallRecord) -> None:
    await session.insert(voice_calls, row)


async def update(session: TenantSession, call_id: str, /, **values: Any) -> int:
    return await session.execute(
        session.update(voice_calls)
        .where(voice_calls.c.id == call_id)
        .values(**values, updated_at=session.now())
    )


async def go_live(session: TenantSession, call_id: str) -> VoiceCallRecord | None:
    """Marks a live call `in_progress` (the relay's first message) and returns it; None
    when it is no longer live. Conditional, so a status callback that ended the call
    first, or concurrently (PostgreSQL re-reads the row it waited for), is never undone."""
    row = await session.fetch_one(
        session.update(voice_calls)
        .where(voice_calls.c.id == call_id, voice_calls.c.status.in_(LIVE_STATUSES))
        .values(status="in_progress", started_at=session.now(), updated_at=session.now())
        .returning(*voice_calls.c)
    )
    return cast("VoiceCallRecord | None", row)


async def locate(connection: AsyncConnection, call_id: str) -> str | None:
    """The workspace of voice call `call_id` (a callback's URL names the call; the
    signature, checked first, proves the provider sent it)."""
    row = await connection.execute(
        select(voice_calls.c.workspace_id).where(voice_calls.c.id == call_id)
    )
    found = row.first()
    return str(found[0]) if found else None


async def voice_number(session: TenantSession) -> str | None:
    """A number of the workspace that places calls (sender_numbers.voice), or None."""
    row = await session.fetch_one(
        session.select(sender_numbers, sender_numbers.c.number)
        .where(sender_numbers.c.voice.is_(True))
        .order_by(sender_numbers.c.id)
        .limit(1)
    )
    return str(row["number"]) if row else None


async def voice_owners(connection: AsyncConnection, number: str) -> list[str]:
    """The workspaces whose voice number `number` is (an inbound call's)."""
    rows = await connection.execute(
        select(sender_numbers.c.workspace_id)
        .distinct()
        .where(sender_numbers.c.number == number, sender_numbers.c.voice.is_(True))
    )
    return [str(row[0]) for row in rows]


async def for_contact(session: TenantSession, contact_id: str) -> list[VoiceCallRecord]:
    rows = await session.fetch_all(
        session.select(voice_calls).where(voice_calls.c.contact_id == contact_id)
    )
    return cast("list[VoiceCallRecord]", rows)
