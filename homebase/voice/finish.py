"""A finished AI call becomes a call record (docs/voice.md, "After the call").

`end` runs once, on the provider's terminal status callback (completed, busy,
no-answer, failed, canceled), inside that request's transaction, and never calls the
model: a call that had no conversation (busy, no answer, a machine, or the lead said
nothing) is recorded at once by `finish`, with the service's own summary (`summary`); a
call the lead talked on goes `summarizing`, keeping the provider's status and duration,
and the worker asks the model for its summary outside any transaction, then runs
`finish` with it (voice/summaries.py). `finish` decides the disposition from what the
conversation left on the voice call, then calls.service.record_call writes the `calls`
row (handled_by ai, the transcript of both sides, the summary, the disposition), its
timeline entry and `call.completed`: once, whoever runs it (call_id is set once, in the
transaction that writes the record). The recording arrives by its own callback
(`attach_recording`): fetched from the provider into HOMEBASE_RECORDINGS_DIR and served
behind the call's signed five-minute recording_url.
"""

import asyncio
from datetime import timedelta

from homebase.ai import repository as ai_repository
from homebase.ai import tools
from homebase.calls import repository as calls_repository
from homebase.calls import service as calls_service
from homebase.calls.recordings import resolve
from homebase.calls.schemas import CallDetails, CallDirection, HandledBy
from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.models import AiAction
from homebase.voice import repository
from homebase.voice.records import VoiceCallRecord

TERMINAL = {"completed", "busy", "no-answer", "failed", "canceled"}
SUMMARIZING = "summarizing"  # ended after a conversation: the worker writes the record
NOT_CONNECTED = {
    "busy": "busy",
    "no-answer": "no_answer",
    "failed": "no_answer",
    "canceled": "no_answer",
}
WRONG_NUMBER = ("wrong number", "wrong person", "no one by that name")
NOT_INTERESTED = ("not interested", "no thanks", "no thank you")
PHRASES = {
    "connected": "talked with the AI",
    "voicemail": "reached voicemail",
    "no_answer": "did not answer",
    "busy": "was busy",
    "wrong_number": "said it was the wrong number",
    "opted_out": "asked not to be called again",
    "appointment_set": "booked a showing",
    "handoff": "was handed to a person",
    "not_interested": "said they were not interested",
}
actions_table = AiAction.__table__


async def _booked(session: TenantSession, job_id: str | None) -> bool:
    if job_id is None:
        return False
    row = await session.fetch_one(
        session.select(actions_table, actions_table.c.id)
        .where(
            actions_table.c.ai_job_id == job_id,
            actions_table.c.tool == tools.BOOK,
            actions_table.c.outcome == "performed",
        )
        .limit(1)
    )
    return row is not None


def _machine(row: VoiceCallRecord) -> bool:
    return (row["answered_by"] or "").startswith("machine") or row["answered_by"] == "fax"


def conversed(row: VoiceCallRecord, status: str) -> bool:
    """Whether the call had a conversation for the model to summarise: it connected, no
    machine answered, and the lead said something (an erased call's transcript is gone)."""
    if status in NOT_CONNECTED or _machine(row):
        return False
    return any(line["speaker"] == "lead" for line in row["transcript"] or [])


async def outcome_of(session: TenantSession, row: VoiceCallRecord, status: str) -> str:
    """The call's disposition (`disposition`), whether its tools booked a showing read."""
    return disposition(row, status, booked=await _booked(session, row["ai_job_id"]))


def disposition(row: VoiceCallRecord, status: str, *, booked: bool) -> str:
    if status in NOT_CONNECTED:
        return NOT_CONNECTED[status]
    if _machine(row):
        return "voicemail"
    ended = row["handoff"]["reason"] if row["handoff"] else None
    if ended == "opted_out":
        return "opted_out"
    if booked:
        return "appointment_set"
    said = " ".join(
        line["text"].lower() for line in row["transcript"] or [] if line["speaker"] == "lead"
    )
    if any(phrase in said for phrase in WRONG_NUMBER):
        return "wrong_number"
    if ended in ("transfer", "handoff"):
        return "handoff"
    if any(phrase in said for phrase in NOT_INTERESTED):
        return "not_interested"
    if not said:
        return "no_answer" if row["started_at"] is None else "connected"
    return "connected"


def ending(row: VoiceCallRecord, outcome: str) -> str:
    """Who called whom and how it ended: the service's own line (the summary's first,
    and what the model is told of the ending)."""
    who = "The AI called the lead" if row["direction"] == "outbound" else "The lead called"
    first = f"{who}; the lead {PHRASES.get(outcome, outcome)}."
    if row["handoff"] and row["handoff"]["reason"] == "transfer":
        first += " Transferred to the owner's phone."
    return first


def summary(row: VoiceCallRecord, outcome: str) -> str:
    """The service's own summary, when no model writes one: the call in two lines, who
    called whom and how it ended, and what the lead last said (from the transcript, cut
    short)."""
    lines = row["transcript"] or []
    said = [line["text"] for line in lines if line["speaker"] == "lead"]
    first = ending(row, outcome)
    if said:
        return f"{first}\nLast said by the lead: {said[-1][:200]}"
    return first


def transcript(row: VoiceCallRecord) -> str | None:
    lines = row["transcript"] or []
    if not lines:
        return None
    return "\n".join(
        f"{'AI' if line['speaker'] == 'ai' else 'Lead'}: {line['text']}" for line in lines
    )[:200_000]


async def end(
    session: TenantSession, row: VoiceCallRecord, status: str, duration: int | None
) -> str | None:
    """The terminal status callback's part, in its transaction: the call record's id when
    it is written now (`finish`, no conversation to summarise), None when the call goes
    `summarizing` for the worker (or already went: a repeated callback changes nothing)."""
    if row["call_id"] is not None:
        return row["call_id"]
    if row["status"] == SUMMARIZING:
        return None
    if not conversed(row, status):
        return await finish(session, row, status, duration)
    now = session.now()
    await repository.update(
        session,
        row["id"],
        status=SUMMARIZING,
        end_status=status,
        duration_seconds=duration,
        ended_at=now,
        attempts=0,  # from here on, the summary's claims
        next_attempt_at=now,
        lease_token=None,
        lease_expires_at=None,
    )
    session.mark_work()
    return None


async def finish(
    session: TenantSession,
    row: VoiceCallRecord,
    status: str,
    duration: int | None,
    *,
    text: str | None = None,
) -> str | None:
    """The call record of the finished voice call `row` (its id), once; its summary is
    `text` (the model's) or else the service's own."""
    if row["call_id"] is not None:
        return row["call_id"]
    now = session.now()
    ended = row["ended_at"] or now  # a summarised call's: when the provider said it ended
    started = row["started_at"] or row["created_at"]
    if duration is not None:
        started = max(started, ended - timedelta(seconds=duration))
    outcome = await outcome_of(session, row, status)
    # An erased call (its contact erased before the record was written) gets the record
    # the calls scrubber would leave: no summary, as no transcript.
    text = None if row["erased_at"] is not None else (text or summary(row, outcome))
    details = CallDetails.model_validate(
        {
            "direction": CallDirection(row["direction"]),
            "from": row["from_number"],
            "to": row["to_number"],
            "started_at": started,
            "ended_at": max(ended, started),
            "duration_seconds": duration,
            "handled_by": HandledBy.ai,
            "disposition": outcome,
            "transcript": transcript(row),
            "summary": text,
            "contact_id": row["contact_id"],
        }
    )
    call = await calls_service.record_call(
        session, details, provider_call_id=row["provider_call_sid"]
    )
    await repository.update(
        session,
        row["id"],
        status="ended",
        disposition=outcome,
        summary=text,
        call_id=call["id"],
        ended_at=ended,
    )
    if row["ai_job_id"] is not None:
        await session.execute(
            session.update(ai_repository.jobs)
            .where(ai_repository.jobs.c.id == row["ai_job_id"])
            .values(outcome=outcome, updated_at=now)
        )
    return call["id"]


async def store_recording(settings: Settings, workspace_id: str, call_id: str, audio: bytes) -> str:
    """The audio written under HOMEBASE_RECORDINGS_DIR; its key."""
    key = f"voice/{workspace_id}/{call_id}.wav"
    path = resolve(settings.recordings_dir, key)
    if path is None:
        raise ValueError("recording key outside the storage folder")

    def write() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(audio)

    await asyncio.to_thread(write)
    return key


async def attach_stored(settings: Settings, session: TenantSession, call_id: str) -> None:
    """The recording already fetched for voice call `call_id`, attached to its record
    when both exist (the record written after the recording callback)."""
    row = await repository.get(session, call_id)
    if row is None or row["call_id"] is None or not row["recording_sid"]:
        return
    key = f"voice/{session.workspace_id}/{call_id}.wav"
    path = resolve(settings.recordings_dir, key)
    if path is not None and path.is_file():
        await attach_recording(session, row, key)


async def attach_recording(session: TenantSession, row: VoiceCallRecord, key: str) -> None:
    if row["call_id"] is None:
        return
    await session.execute(
        session.update(calls_repository.calls)
        .where(calls_repository.calls.c.id == row["call_id"])
        .values(recording_key=key)
    )


async def scrub_contact_voice_calls(session: TenantSession, contact_id: str) -> None:
    """An erasure's part of the AI's calls (erasure/registry.py): each call of the contact
    loses its transcript, summary, handoff data and the other party's number, and is
    marked erased: the worker then deletes its recording at the provider (its REST API's
    DELETE) and the copy fetched into HOMEBASE_RECORDINGS_DIR (voice/jobs.py,
    erase_recordings), after this transaction commits. The call record itself is
    scrubbed by the calls scrubber."""
    for row in await repository.for_contact(session, contact_id):
        number = {"to_number": None} if row["direction"] == "outbound" else {"from_number": None}
        await repository.update(
            session,
            row["id"],
            transcript=None,
            summary=None,
            handoff=None,
            erased_at=row["erased_at"] or session.now(),
            **number,
        )
    session.mark_work()
