"""The worker's part of AI calls: place the queued ones (docs/voice.md, "Placing a call").

A call asked for by `service.place_ai_call` is a `queued` row, written in the asking
transaction: it is never lost. `place_due` claims due rows under a lease (worker/queue.py)
as `placing`, checks the gates again (a STOP, a revocation or the hour may have changed),
asks the provider's Calls API, and records the outcome fenced by the lease token:

- accepted: `placed` with the provider's call SID;
- refused by a gate: `refused`; refused by the provider: `failed`;
- not sent (the provider was never reached): `queued` again after 1, 2, 4 units of the
  retry backoff, `failed` after MAX_ATTEMPTS;
- unknown (the request may have reached the provider): `unknown`, never placed again.

A worker that dies while placing leaves a `placing` row whose lease lapses: the sweep
marks it `unknown` (the request may have left), so a crash never places a call twice.
"""

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import or_, select

from homebase.ai import repository as ai_repository
from homebase.calls.recordings import resolve
from homebase.contacts import repository as contacts_repository
from homebase.db.tenancy import TenantSession
from homebase.providers.base import NOT_SENT
from homebase.runtime import Runtime
from homebase.voice import repository, service, twiml
from homebase.voice.provider import PlaceRequest, PlaceResult, voice_provider_for
from homebase.worker import queue

log = logging.getLogger("homebase.voice")
calls = repository.voice_calls
LEASE = queue.Lease(
    calls, token=calls.c.lease_token, expires=calls.c.lease_expires_at, attempts=calls.c.attempts
)
BATCH = 10
MAX_ATTEMPTS = 3
RETRY_UNIT_SECONDS = 30


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    call_id: str
    token: str
    attempts: int


async def erase_recordings(runtime: Runtime) -> int:
    """Erased calls' recordings: deleted at the provider, and the copy here, then
    forgotten. A DELETE that fails is tried again next round."""
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            (
                await connection.execute(
                    select(calls.c.id, calls.c.workspace_id, calls.c.recording_sid)
                    .where(calls.c.erased_at.is_not(None), calls.c.recording_sid.is_not(None))
                    .order_by(calls.c.id)
                    .limit(BATCH)
                )
            )
            .mappings()
            .all()
        )
    provider = voice_provider_for(runtime.settings)
    done = 0
    for row in rows:
        if not await provider.delete_recording(row["recording_sid"]):
            continue
        key = f"voice/{row['workspace_id']}/{row['id']}.wav"
        path = resolve(runtime.settings.recordings_dir, key)
        if path is not None:
            await asyncio.to_thread(path.unlink, missing_ok=True)
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            await repository.update(session, row["id"], recording_sid=None)
        done += 1
    return done


async def place_due(runtime: Runtime) -> int:
    if service.DRAINING.on:  # serve is shutting down: no new call from this process
        return 0
    swept = await sweep(runtime)
    claimed = await claim(runtime)
    for one in claimed:
        await place(runtime, one)
    return swept + len(claimed)


async def claim(runtime: Runtime, limit: int = BATCH) -> list[Claim]:
    now = runtime.clock()
    expires = now + timedelta(seconds=runtime.settings.voice_lease_seconds)
    async with runtime.db.transaction() as connection:
        taken = await LEASE.claim(
            connection,
            select(calls)
            .where(
                calls.c.status == "queued",
                or_(calls.c.next_attempt_at.is_(None), calls.c.next_attempt_at <= now),
            )
            .order_by(calls.c.id)
            .limit(limit),
            expires,
            status="placing",
            updated_at=now,
        )
    return [
        Claim(row["workspace_id"], row["id"], token, row["attempts"] + 1) for row, token in taken
    ]


async def sweep(runtime: Runtime) -> int:
    """Calls whose worker died while placing: `unknown` (the request may have left)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        stuck = await LEASE.lapsed(connection, now, calls.c.status == "placing")
        for row in stuck:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            await session.execute(
                LEASE.held(
                    session.update(calls).where(calls.c.id == row["id"]), row["lease_token"]
                ).values(
                    status="unknown",
                    error="the worker stopped while placing the call; not placed again",
                    updated_at=now,
                    **LEASE.released,
                )
            )
    return len(stuck)


async def place(runtime: Runtime, claimed: Claim) -> None:
    settings = runtime.settings
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        row = await repository.get(session, claimed.call_id)
        if row is None or row["lease_token"] != claimed.token:
            return
        contact = (
            await contacts_repository.get(session, row["contact_id"]) if row["contact_id"] else None
        )
        persona = await ai_repository.persona(session, row["persona_id"])
        refused = await service.refusal(session, contact, persona=persona, now=session.now())
        request = None
        if refused is None and persona is not None and contact is not None:
            from_number = row["from_number"] or await repository.voice_number(session)
            greeting = await service.greeting(
                session, contact, persona=persona, callback_number=from_number
            )
            request = PlaceRequest(
                to=str(contact["phone_e164"]),
                from_=str(from_number),
                twiml=twiml.connect(
                    service.public_url(settings, service.ACTION_PATH, call_id=row["id"]),
                    service.relay_url(settings, row["id"]),
                    greeting,
                ),
                status_callback=service.public_url(
                    settings, service.STATUS_PATH, call_id=row["id"]
                ),
                amd_callback=service.public_url(settings, service.AMD_PATH, call_id=row["id"]),
            )
    if request is None:
        text = f"{refused.reason}: {refused.text}" if refused else "refused"
        await _finish(runtime, claimed, status="refused", error=text[:500])
        return
    result = await voice_provider_for(settings).place(request)
    await _record(runtime, claimed, result)


async def _record(runtime: Runtime, claimed: Claim, result: PlaceResult) -> None:
    if result.accepted:
        await _finish(runtime, claimed, status="placed", provider_call_sid=result.sid, error=None)
        log.info("voice call %s placed (%s)", claimed.call_id, result.sid)
        return
    if result.failure == NOT_SENT and claimed.attempts < MAX_ATTEMPTS:
        wait = queue.backoff(claimed.attempts, RETRY_UNIT_SECONDS)
        await _finish(
            runtime,
            claimed,
            status="queued",
            next_attempt_at=runtime.clock() + wait,
            error=result.error,
        )
        return
    status = "unknown" if result.failure not in (None, NOT_SENT) else "failed"
    await _finish(runtime, claimed, status=status, error=result.error)


async def _finish(runtime: Runtime, claimed: Claim, **values: object) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        statement = session.update(calls).where(
            calls.c.id == claimed.call_id, calls.c.status == "placing"
        )
        await session.execute(
            LEASE.held(statement, claimed.token).values(
                **values, **LEASE.released, updated_at=session.now()
            )
        )
