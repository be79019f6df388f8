"""The worker's part of a finished AI call: the model's summary, then the call record
(docs/voice.md, "After the call").

The terminal status callback never calls the model: a call the lead talked on is left
`summarizing` (finish.end), due at once. `run` claims due ones under a lease
(worker/queue.py; a lapsed lease, a worker that died, is claimed again) and starts each
`summarize` beside the worker's rounds (worker/background.py), under the AI's
HOMEBASE_AI_CONCURRENCY like every model call. `summarize` has three steps and holds no
transaction across the model call:

1. read (read-only): the call, still ours; its disposition; the prompt
   (ai/context.call_summary: the transcript quoted as data);
2. the model call (ai/jobs.model_call: bounded by HOMEBASE_AI_TIMEOUT_SECONDS, a bare
   JSON answer is a failure);
3. write (one transaction, fenced by the lease token): the summary's lines masked by
   value and cut as a handoff summary's are (ai/handoff.masked), then finish.finish:
   the `calls` row, its timeline entry and `call.completed`, once (call_id is set in
   that transaction, and finish writes nothing when it is set).

A failed model call is tried again after the AI's backoff (ai/jobs.retry_wait: 1, then 4
units of HOMEBASE_AI_RETRY_UNIT_SECONDS); after MAX_ATTEMPTS (a crash's claim counts
too) the record is written with the service's own summary (finish.summary), so a call
is never left without its record.
"""

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import or_, select

from homebase.ai import context, handoff
from homebase.ai import repository as ai_repository
from homebase.ai.jobs import MAX_ATTEMPTS, Failed, model_call, retry_wait
from homebase.ai.prompt import Prompt, Turn
from homebase.ai.providers import loaded
from homebase.contacts import repository as contacts_repository
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.runtime import Runtime
from homebase.voice import finish, repository
from homebase.voice.records import VoiceCallRecord
from homebase.worker import queue

KIND = "ai"  # the background kind of every model call: one HOMEBASE_AI_CONCURRENCY
calls = repository.voice_calls
LEASE = queue.Lease(
    calls, token=calls.c.lease_token, expires=calls.c.lease_expires_at, attempts=calls.c.attempts
)
MAX_LINES = 3  # what the lead wants, what was learned, what was promised
TRANSCRIPT_LINES = 200  # the last lines of a very long call
log = logging.getLogger("homebase.voice")


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    call_id: str
    token: str
    attempts: int  # this claim included


@dataclass(frozen=True)
class Summary:
    text: str | None  # the model's, checked; None: the service's own


@dataclass(frozen=True)
class Lost:
    """The call is not ours any more (its lease was taken back, or it was recorded)."""


async def run(runtime: Runtime) -> int:
    return await runtime.background.claim_and_start(
        KIND,
        runtime.settings.ai_concurrency,
        lambda room: claim(runtime, room),
        lambda one: summarize(runtime, one),
    )


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    now = runtime.clock()
    expires = now + timedelta(seconds=runtime.settings.ai_lease_seconds)
    async with runtime.db.transaction() as connection:
        taken = await LEASE.claim(
            connection,
            select(calls)
            .where(
                calls.c.status == finish.SUMMARIZING,
                or_(calls.c.next_attempt_at.is_(None), calls.c.next_attempt_at <= now),
                LEASE.vacant(now),
            )
            .order_by(calls.c.id)
            .limit(limit),
            expires,
            updated_at=now,
        )
    return [
        Claim(row["workspace_id"], row["id"], token, row["attempts"] + 1) for row, token in taken
    ]


async def summarize(runtime: Runtime, claimed: Claim) -> None:
    try:
        composed = await compose(runtime, claimed)
        if not isinstance(composed, Lost):
            await write(runtime, claimed, composed)
    except Exception:  # noqa: BLE001 (its lease lapses and it is claimed again)
        log.exception(
            "voice call %s: summary failed; tried again when its lease lapses", claimed.call_id
        )


async def compose(runtime: Runtime, claimed: Claim) -> Summary | Failed | Lost:
    """The model's summary of the call, checked; the service's own (Summary(None)) when
    the model is not to be asked any more or there is nothing left to summarise."""
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        row = await repository.get(session, claimed.call_id)
        if row is None or row["lease_token"] != claimed.token or row["call_id"] is not None:
            return Lost()
        if claimed.attempts > MAX_ATTEMPTS or not row["transcript"] or row["erased_at"]:
            return Summary(None)
        prompt = await _prompt(session, row)
    answered = await model_call(runtime, await loaded(runtime.settings), prompt)
    if isinstance(answered, Failed):
        return answered
    text = checked(answered.reply)
    return Summary(text) if text else Failed("ModelFailure: the summary is empty")


async def _prompt(session: TenantSession, row: VoiceCallRecord) -> Prompt:
    contact = (
        await contacts_repository.get(session, row["contact_id"]) if row["contact_id"] else None
    )
    persona = await ai_repository.persona(session, row["persona_id"])
    outcome = await finish.outcome_of(session, row, row["end_status"] or "completed")
    lines = (row["transcript"] or [])[-TRANSCRIPT_LINES:]
    conversation = tuple(
        Turn("lead" if line["speaker"] == "lead" else "assistant", line["text"]) for line in lines
    )
    return await context.call_summary(
        session, contact, persona, conversation, ending=finish.ending(row, outcome)
    )


def checked(reply: str | None) -> str | None:
    """The model's summary as the record keeps it: at most MAX_LINES non-blank lines,
    each masked by value and cut as a handoff summary's lines are (ai/handoff.masked),
    so a record or an event shown without contacts:read:pii carries no number or
    address. (A bare JSON value never reaches here: model_call fails it.)"""
    lines = [handoff.masked(line) for line in (reply or "").splitlines()]
    kept = [line for line in lines if line][:MAX_LINES]
    return "\n".join(kept) or None


async def write(runtime: Runtime, claimed: Claim, composed: Summary | Failed) -> None:
    """The outcome, fenced by the lease: a failure tried again after the AI's backoff
    (while attempts are left), else the call record with the model's summary or the
    service's own, in this one transaction."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        held = LEASE.held(
            session.update(calls).where(
                calls.c.id == claimed.call_id, calls.c.status == finish.SUMMARIZING
            ),
            claimed.token,
        )
        now = session.now()
        if isinstance(composed, Failed) and claimed.attempts < MAX_ATTEMPTS:
            wait = retry_wait(runtime.settings, claimed.attempts)
            await session.execute(
                held.values(
                    next_attempt_at=now + wait,
                    error=f"summary: {composed.error}"[:500],
                    updated_at=now,
                    **LEASE.released,
                )
            )
            _logged(
                claimed, "model_failed", attempt=claimed.attempts, retry_in=wait.total_seconds()
            )
            return
        values: dict[str, object] = {"updated_at": now, **LEASE.released}
        if isinstance(composed, Failed):
            values["error"] = f"summary: {composed.error}"[:500]
        if not await session.execute(held.values(**values)):
            return  # not ours any more: whoever holds it writes the record
        row = await repository.get(session, claimed.call_id)
        assert row is not None  # held by this transaction since the update
        text = composed.text if isinstance(composed, Summary) and not row["erased_at"] else None
        await finish.finish(
            session, row, row["end_status"] or "completed", row["duration_seconds"], text=text
        )
        await finish.attach_stored(runtime.settings, session, claimed.call_id)
    _logged(claimed, "summarized" if text else "service_summary", attempt=claimed.attempts)


def _logged(claimed: Claim, outcome: str, *, attempt: int, retry_in: float | None = None) -> None:
    logs.event(
        log,
        "voice call summary",
        voice_call_id=claimed.call_id,
        workspace_id=claimed.workspace_id,
        outcome=outcome,
        attempt=attempt,
        retry_in=retry_in,
    )
