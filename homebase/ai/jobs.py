"""The worker's part of the AI responder: claim a job, compose, then reply or hand off.

One job is one turn the AI owes a contact (models/ai_job.py). `respond_due` runs in the
worker's round like every job, but never waits on the model: it claims as many due
queued jobs (`next_attempt_at` passed: the lead's quiet window, ai/service.Wait, or a
retry's wait) as there is room for (HOMEBASE_AI_CONCURRENCY calls at once per worker)
and starts each `answer` in the background (worker/background.py), so a slow model
never delays webhook deliveries or sends.

`answer` has three steps and never holds a transaction across the model call:

1. read (a read-only transaction): the job, still ours; the contact and the persona;
   whether it should still answer; the service's own handoff reading of the lead's
   texts (ai/rules.py); the daily cap; the prompt (ai/context.py);
2. the model call (ai/providers.py), bounded by HOMEBASE_AI_TIMEOUT_SECONDS;
3. finish (one write transaction), fenced by the lease token. A reply is sent only if no
   text arrived since the compose began (`inbound_count` still equals `composed_count`);
   otherwise the job is queued again, due once the lead is quiet (ai/service.Wait), and
   composes once more with every text, so a burst gets one reply. The reply is queued
   through messaging.service.send in that same transaction: the job is `replied` exactly
   when its message exists, so a crash sends nothing twice and loses nothing (a job
   whose worker died while composing is claimed again when its lease lapses; composing
   again sends nothing).

A model error or timeout is tried again after 1, then 4 units of
HOMEBASE_AI_RETRY_UNIT_SECONDS; after the third failure the lead is handed off.
"""

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import or_, select
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase import tracing
from homebase.ai import (
    action_rules,
    actions,
    context,
    languages,
    outreach,
    repository,
    rules,
    safe_words,
    service,
    tools,
)
from homebase.ai.handoff import Handoff
from homebase.ai.prompt import (
    MAX_ROUNDS,
    ModelAnswer,
    ModelFailure,
    Prompt,
    Responder,
    ToolCall,
    ToolRound,
)
from homebase.ai.providers import loaded
from homebase.ai.records import AiJobRecord
from homebase.automations import persona_texts
from homebase.automations.persona_texts import Signer
from homebase.automations.records import PersonaRecord
from homebase.config import Settings
from homebase.contacts import repository as contacts_repository
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.errors import ComplianceBlocked
from homebase.metrics import AI_MODEL_CALLS, AI_MODEL_DURATION, AI_OUTCOMES
from homebase.runtime import Runtime
from homebase.worker import queue

KIND = "ai"
NO_REPLY = "no_reply"  # an answer with neither a reply nor a handoff
SKIPPED_TITLE = "AI sent no reply: the model gave neither a reply nor a handoff"
MAX_ATTEMPTS = 3  # the first model call and two retries
jobs = repository.jobs
LEASE = queue.Lease(
    jobs, token=jobs.c.lease_token, expires=jobs.c.lease_expires_at, attempts=jobs.c.attempts
)
log = logging.getLogger("homebase.ai")


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    job_id: str
    token: str
    composed_count: int
    attempts: int  # this claim included


@dataclass(frozen=True)
class Reply:
    text: str  # the model's, before the disclosure and signature
    disclose: bool
    planned: tuple[actions.Planned, ...] = ()  # tool calls the rounds accepted
    language: str | None = None  # the conversation's, as the model read it


@dataclass(frozen=True)
class HandOff:
    reason: str
    detail: str | None = None
    planned: tuple[actions.Planned, ...] = ()
    urgency: str | None = None  # the model's: low | normal | high
    language: str | None = None  # the conversation's: the holding text's


@dataclass(frozen=True)
class Skip:
    outcome: str  # paused, erased, no_persona, no_reply, lease_lost
    answers_texts: bool = False  # a new text since the compose makes it compose again


@dataclass(frozen=True)
class Failed:
    error: str


@dataclass(frozen=True)
class OptOut:
    """The model read the lead's texts as revoking consent (ai/service.opt_out)."""

    language: str | None = None  # the confirmation's


Decision = Reply | HandOff | Skip | Failed | OptOut


async def respond_due(runtime: Runtime) -> int:
    swept = await sweep(runtime)
    started = await runtime.background.claim_and_start(
        KIND,
        runtime.settings.ai_concurrency,
        lambda room: claim(runtime, room),
        lambda one: answer(runtime, one),
    )
    return swept + started


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    now = runtime.clock()
    expires = now + timedelta(seconds=runtime.settings.ai_lease_seconds)
    async with runtime.db.transaction() as connection:

        async def quiet(taken: Sequence[RowMapping]) -> list[RowMapping]:
            return [row for row in taken if not await _not_yet(runtime, connection, now, row)]

        claimed = await LEASE.claim(
            connection,
            select(jobs)
            .where(
                jobs.c.status == "queued",
                or_(jobs.c.next_attempt_at.is_(None), jobs.c.next_attempt_at <= now),
            )
            .order_by(jobs.c.id)
            .limit(limit),
            expires,
            choose=quiet,
            status="composing",
            composed_count=jobs.c.inbound_count,
            updated_at=now,
        )
    return [
        Claim(row["workspace_id"], row["id"], token, row["inbound_count"], row["attempts"] + 1)
        for row, token in claimed
    ]


async def _not_yet(
    runtime: Runtime, connection: AsyncConnection, now: datetime, row: RowMapping
) -> bool:
    """Whether a due job's lead texted since it was last timed and is not quiet yet
    (ai/service.due): then it is put back, due at the new time, with no lease, no
    attempt and nothing logged. The callback that recorded those texts wrote nothing to
    the job; this is the one write for them, and only when the job comes due."""
    session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
    wait = service.Wait.of(runtime.settings)
    due = await service.due(session, cast("AiJobRecord", row), wait=wait)
    if due <= now:
        return False
    statement = session.update(jobs).where(jobs.c.id == row["id"], jobs.c.status == "queued")
    await session.execute(statement.values(next_attempt_at=due, updated_at=now))
    return True


async def sweep(runtime: Runtime) -> int:
    """Jobs whose worker died while composing: queued again (nothing was sent)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        stuck = await LEASE.lapsed(connection, now, jobs.c.status == "composing")
        for row in stuck:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            await _release(
                session, row["id"], row["lease_token"], status="queued", next_attempt_at=now
            )
    return len(stuck)


async def _release(session: TenantSession, job_id: str, token: str, **values: Any) -> int:
    statement = session.update(jobs).where(jobs.c.id == job_id, jobs.c.status == "composing")
    return await session.execute(
        LEASE.held(statement, token).values(**LEASE.released, updated_at=session.now(), **values)
    )


async def answer(runtime: Runtime, claimed: Claim) -> None:
    try:
        decision = await _decide(runtime, claimed)
        await finish(runtime, claimed, decision)
    except Exception:  # noqa: BLE001 (its lease lapses and the sweep queues it again)
        log.exception(
            "ai job %s failed; it is composed again when its lease lapses", claimed.job_id
        )


def _not_answering(contact: ContactRecord | None, persona: PersonaRecord | None) -> str | None:
    if contact is None or contact["anonymized_at"] is not None:
        return "erased"
    if contact["ai_paused_at"] is not None:
        return "paused"
    if persona is None or not persona["responder"]:
        return "no_persona"
    return None


async def _decide(runtime: Runtime, claimed: Claim) -> Decision:
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        job = await repository.get(session, claimed.job_id)
        if job is None or job["lease_token"] != claimed.token:
            return Skip("lease_lost")
        contact = await contacts_repository.get(session, job["contact_id"])
        persona = await repository.persona(session, job["persona_id"])
        why = _not_answering(contact, persona)
        if why is not None or contact is None or persona is None:
            return Skip(why or "erased")
        if claimed.attempts > MAX_ATTEMPTS:
            return HandOff("provider_error", f"no answer after {MAX_ATTEMPTS} attempts")
        conversation = await repository.conversation(
            session, contact["id"], context.CONVERSATION_TURNS
        )
        for text in context.latest_lead_texts(conversation):
            reason = rules.handoff_reason(text)
            if reason is not None:
                return HandOff(reason)
        if await service.at_daily_cap(
            session, contact["id"], cap=runtime.settings.ai_max_replies_per_day
        ):
            return HandOff("daily_limit")
        disclose = await service.disclosure_due(session, contact["id"])
        signer = await persona_texts.signer(session, contact, persona)
        fixed = _fixed(persona, signer, disclose=disclose)
        desk = (
            await actions.desk(session, job["id"], contact, persona) if persona["actions"] else None
        )
        prompt = await context.build(
            session,
            contact,
            persona,
            conversation,
            fixed,
            segments_allowed=runtime.settings.ai_max_segments,
            added=service.added(persona, signer),
            desk=desk,
        )
    responder = await loaded(runtime.settings)
    planned: list[actions.Planned] = []
    for number in range(1, MAX_ROUNDS + 1):
        prompt = replace(prompt, last_round=number == MAX_ROUNDS)
        outcome = await model_call(runtime, responder, prompt)
        if isinstance(outcome, Failed):
            return outcome
        answered = outcome
        if not answered.tool_calls:
            break
        if desk is None or number == MAX_ROUNDS:  # calls never offered, or one round too many
            return HandOff("model", f"no answer after {number} model rounds")
        checked = await tool_round(runtime, claimed, desk, answered.tool_calls)
        if checked is None:
            return Skip("lease_lost")
        results, accepted = checked
        planned += accepted
        prompt = replace(prompt, rounds=(*prompt.rounds, ToolRound(answered.tool_calls, results)))
        for item in accepted:  # a decision ends the rounds: nothing more is asked
            if isinstance(item.action, tools.OptOut):
                return OptOut()
            if isinstance(item.action, tools.HandOff):
                handed = item.action
                return HandOff("model", handed.summary, tuple(planned), handed.urgency)
    language = answered.language
    if answered.opt_out:  # before anything else the model said: none of it is sent
        return OptOut(language)
    if languages.refused(persona, language):
        return HandOff(languages.LANGUAGE, f"the lead writes {language}", tuple(planned))
    if answered.handoff:
        # Whole: the handoff masks it before cutting it (a cut number would not be found).
        return HandOff("model", answered.handoff_reason, tuple(planned), answered.urgency, language)
    if not answered.reply or not answered.reply.strip():
        if planned:  # acted, said nothing: a person tells the lead
            return HandOff(
                "model", "the assistant acted without a reply", tuple(planned), language=language
            )
        return Skip(NO_REPLY, answers_texts=True)
    return Reply(answered.reply, disclose, tuple(planned), language)


def _fixed(persona: PersonaRecord, signer: Signer, *, disclose: bool) -> dict[str, str]:
    """What the service adds around the reply (the disclosure when due, the signature) in
    each of the persona's languages: the model has not yet named one."""
    fixed: dict[str, str] = {}
    for language in languages.allowed(persona):
        disclosure, signature = service.signed(persona, signer, language=language)
        fixed[language] = rules.assemble("", disclosure, signature, disclose=disclose)
    return fixed


async def model_call(
    runtime: Runtime, responder: Responder, prompt: Prompt
) -> ModelAnswer | Failed:
    started = time.perf_counter()
    with tracing.model_span(responder.name) as span:
        try:
            answered = await asyncio.wait_for(
                responder.answer(prompt), runtime.settings.ai_timeout_seconds
            )
        except (ModelFailure, TimeoutError) as error:
            _model_call(responder.name, "failed", started, span)
            return Failed(f"{type(error).__name__}: {error}"[:200])
        if safe_words.bare_json(answered.reply):  # a structured answer gone wrong: an error
            _model_call(responder.name, "failed", started, span)
            return Failed("ModelFailure: the reply is a bare JSON value")
        _model_call(responder.name, "answered", started, span)
    return answered


async def tool_round(
    runtime: Runtime, claimed: Claim, desk: actions.Desk, calls: tuple[ToolCall, ...]
) -> tuple[tuple[str, ...], list[actions.Planned]] | None:
    """Every call checked against the workspace (its result, and the calls accepted),
    with the lease renewed for the next model call; None when the lease is lost. The
    workspace is not written: the actions are performed at the finish."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        expires = session.now() + timedelta(seconds=runtime.settings.ai_lease_seconds)
        renewed = LEASE.held(
            session.update(jobs).where(jobs.c.id == claimed.job_id, jobs.c.status == "composing"),
            claimed.token,
        ).values(lease_expires_at=expires)
        if not await session.execute(renewed):
            return None
        results: list[str] = []
        accepted: list[actions.Planned] = []
        for call in calls:  # every tool_call_id gets its result
            result, planned = await actions.check(session, desk, call)
            results.append(result)
            if planned is not None:
                accepted.append(planned)
    return tuple(results), accepted


async def finish(runtime: Runtime, claimed: Claim, decision: Decision) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        if isinstance(decision, Failed) and claimed.attempts < MAX_ATTEMPTS:
            await _retry(session, runtime, claimed, decision)
            return
        if isinstance(decision, Failed):
            decision = HandOff("provider_error", decision.error)
        if isinstance(decision, Skip) and decision.outcome == NO_REPLY:
            decision = await _second_no_reply(session, claimed.job_id) or decision
        final = {Reply: "replied", HandOff: "handed_off", Skip: "skipped", OptOut: "opted_out"}
        if not await _end(session, runtime, claimed, decision, final[type(decision)]):
            return
        job = await repository.get(session, claimed.job_id)
        assert job is not None  # held by this transaction since _end
        if isinstance(decision, OptOut):  # whether or not the AI was paused meanwhile
            await service.opt_out(session, job, language=decision.language)
            return
        if isinstance(decision, Skip):
            AI_OUTCOMES.labels("skipped", decision.outcome).inc()
            _logged(claimed, "skipped", decision.outcome)
            if decision.outcome == NO_REPLY:
                await timeline.record(
                    session,
                    job["contact_id"],
                    "ai_skipped",
                    SKIPPED_TITLE,
                    data={"ai_job_id": job["id"], "reason": NO_REPLY},
                )
            return
        contact = await contacts_repository.get(session, job["contact_id"])
        persona = await repository.persona(session, job["persona_id"])
        why = _not_answering(contact, persona)
        if why is not None or contact is None or persona is None:  # paused meanwhile
            await repository.update(session, job["id"], {"status": "skipped", "outcome": why})
            AI_OUTCOMES.labels("skipped", why or "erased").inc()
            return
        settings = runtime.settings
        done: list[actions.Performed] = []
        if decision.planned:
            desk = await actions.desk(session, job["id"], contact, persona)
            done = await actions.perform_all(session, desk, decision.planned)
            contact = await contacts_repository.get(session, job["contact_id"]) or contact
        if isinstance(decision, HandOff):
            await _hand_off(session, job, contact, persona, decision, settings, done)
            return
        if persona["actions"] and action_rules.stops_soliciting(
            await actions.qualification(session, contact)
        ):
            await _hand_off(
                session,
                job,
                contact,
                persona,
                HandOff("working_with_agent", language=decision.language),
                settings,
            )
            return
        made = {item.tool for item in done if item.outcome in (actions.PERFORMED, actions.ALREADY)}
        claim = action_rules.unverified_claim(decision.text, made)
        if claim is not None:
            unverified = HandOff(
                "unverified_commitment", f"the reply said {claim}", language=decision.language
            )
            await _hand_off(session, job, contact, persona, unverified, settings)
            return
        await _reply(session, runtime, job, contact, persona, decision)


async def _second_no_reply(session: TenantSession, job_id: str) -> HandOff | None:
    """A handoff (reason `no_reply`) when the contact's previous job also ended with
    neither a reply nor a handoff: two in a row."""
    job = await repository.get(session, job_id)
    if job is None or await repository.previous_outcome(session, job["contact_id"], job_id) != (
        NO_REPLY
    ):
        return None
    return HandOff(NO_REPLY, "the model gave neither a reply nor a handoff, twice in a row")


async def _end(
    session: TenantSession, runtime: Runtime, claimed: Claim, decision: Decision, status: str
) -> bool:
    """Ends the job as `status`, fenced by its lease; a reply (or a skipped one) only
    while no text arrived since the compose began. False when the job is not ours any
    more, or was queued again here to answer the new texts, due when the lead has been
    quiet (ai/service.Wait)."""
    statement = session.update(jobs).where(
        jobs.c.id == claimed.job_id, jobs.c.status == "composing"
    )
    statement = LEASE.held(statement, claimed.token)
    answers_texts = isinstance(decision, Reply) or (
        isinstance(decision, Skip) and decision.answers_texts
    )
    if answers_texts:
        statement = statement.where(jobs.c.inbound_count == claimed.composed_count)
    outcome = decision.reason if isinstance(decision, HandOff) else None
    if isinstance(decision, Skip):
        outcome = decision.outcome
    if isinstance(decision, OptOut):
        outcome = "opt_out"
    values = {"status": status, "outcome": outcome, "updated_at": session.now(), **LEASE.released}
    if await session.execute(statement.values(**values)):
        return True
    job = await repository.get(session, claimed.job_id) if answers_texts else None
    if job is not None:  # new texts arrived: compose again, with them, once the lead is quiet
        due = await service.due(session, job, wait=service.Wait.of(runtime.settings))
        again = await _release(
            session,
            claimed.job_id,
            claimed.token,
            status="queued",
            next_attempt_at=due,
            attempts=jobs.c.attempts - 1,  # a burst is not a failure
        )
        if again:
            session.mark_work()
            _logged(claimed, "composing_again", "new_text")
    return False


def retry_wait(settings: Settings, attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed model call: 1 unit of
    HOMEBASE_AI_RETRY_UNIT_SECONDS, then 4 (an unasked text and an AI call's summary wait
    the same)."""
    return timedelta(seconds=settings.ai_retry_unit_seconds * 4 ** (attempts - 1))


async def _retry(session: TenantSession, runtime: Runtime, claimed: Claim, failed: Failed) -> None:
    wait = retry_wait(runtime.settings, claimed.attempts)
    await _release(
        session,
        claimed.job_id,
        claimed.token,
        status="queued",
        next_attempt_at=session.now() + wait,
    )
    _logged(
        claimed, "model_failed", "retry", attempt=claimed.attempts, retry_in=wait.total_seconds()
    )


async def _hand_off(
    session: TenantSession,
    job: AiJobRecord,
    contact: ContactRecord,
    persona: PersonaRecord,
    decision: HandOff,
    settings: Settings,
    done: Sequence[actions.Performed] = (),
) -> None:
    await repository.update(
        session, job["id"], {"status": "handed_off", "outcome": decision.reason}
    )
    handoff = Handoff(
        decision.reason, decision.detail, decision.urgency, tuple(done), decision.language
    )
    await service.hand_off(
        session,
        job,
        contact=contact,
        persona=persona,
        handoff=handoff,
        email_from=settings.email_from,
        segments_allowed=settings.ai_max_segments,
    )


async def _reply(
    session: TenantSession,
    runtime: Runtime,
    job: AiJobRecord,
    contact: ContactRecord,
    persona: PersonaRecord,
    decision: Reply,
) -> None:
    settings = runtime.settings
    # Again at the finish: the cap is per contact, whatever else replied meanwhile.
    if await service.at_daily_cap(
        session, contact["id"], cap=runtime.settings.ai_max_replies_per_day
    ):
        limit = HandOff("daily_limit", language=decision.language)
        await _hand_off(session, job, contact, persona, limit, settings)
        return
    text, broken = await service.outgoing(
        session,
        persona,
        contact=contact,
        signer=await persona_texts.signer(session, contact, persona),
        body=decision.text,
        disclose=decision.disclose,
        segments_allowed=settings.ai_max_segments,
        language=decision.language,
        from_model=True,
    )
    if broken is not None:
        refused = HandOff("reply_rule", broken, language=decision.language)
        await _hand_off(session, job, contact, persona, refused, settings)
        return
    try:
        message = await service.send_reply(session, job, text=text, email_from=settings.email_from)
    except ComplianceBlocked as refused:
        gate = str((refused.details or {}).get("reason", "refused"))
        gated = HandOff("compliance", gate, language=decision.language)
        await _hand_off(session, job, contact, persona, gated, settings)
        return
    await repository.update(
        session, job["id"], {"outcome": "replied", "reply_message_id": message["id"]}
    )
    # The lead's answer ended the pending follow-up; this reply starts the cadence again.
    await outreach.after_ai_text(session, persona, contact_id=contact["id"], message=message)
    AI_OUTCOMES.labels("replied", "").inc()
    logs.event(
        log,
        "ai reply",
        ai_job_id=job["id"],
        workspace_id=session.workspace_id,
        contact_id=contact["id"],
        message_id=message["id"],
    )


def _model_call(provider: str, outcome: str, started: float, span: Any) -> None:
    AI_MODEL_CALLS.labels(provider, outcome).inc()
    AI_MODEL_DURATION.labels(provider).observe(time.perf_counter() - started)
    tracing.model_done(span, outcome)


def _logged(claimed: Claim, outcome: str, reason: str, **more: Any) -> None:
    logs.event(
        log,
        "ai job",
        ai_job_id=claimed.job_id,
        workspace_id=claimed.workspace_id,
        outcome=outcome,
        reason=reason,
        **more,
    )
