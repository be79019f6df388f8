"""The worker's part of what the AI sends unasked (ai/outreach.py): claim a due first
touch or follow-up, check it, compose it, send it or put it back.

Like the responder's jobs (ai/jobs.py), on the leased queue (worker/queue.py), the model
called outside any transaction and beside the worker's rounds (worker/background.py,
under the same HOMEBASE_AI_CONCURRENCY as the replies):

1. read (read-only): the row still ours; the contact and the responder persona; whether
   the text is still owed (`_owed`: not erased, paused or suppressed, consent on file, for
   a first touch no message either way in the last 24 hours, for a follow-up no answer
   since the text it follows and none of the cadence's stop rules, ai/cadence.py); the
   lawful minute of the lead's number (compliance/lawful_hours.py): not now, and the row
   is put back at the next allowed minute, or dropped when there is none by `wait_until`;
2. the model call (the prompt of a reply, `purpose` first_touch or follow_up);
3. finish (one write transaction, fenced by the lease token): the lawful minute again,
   the reply rules (ai/rules.py, ai/safe_words.py) and no repeat of an earlier text;
   then the text (disclosure when due, the opt-out line, signature) queued through
   messaging.service.send, every gate, in the transaction that ends the row `sent`: the
   row is sent exactly when its message exists, so a crash loses nothing and sends
   nothing twice (a row whose worker died is queued again when its lease lapses); and
   the next follow-up queued after it (or, for a first touch or campaign that calls
   after its text, the call: ai/outreach.call_after_text).

A `call` row needs no model here: when due and still owed (the lead has not answered
the text it follows, none of the cadence's stop rules, for a first-touch call no
conversation in the last 24 hours), the worker checks every gate of a call once
(voice/service.refusal) in the transaction that ends the row: outside the number's
calling hours it is put back at the next lawful minute, as a text is, with nothing
recorded; otherwise the call is recorded (voice/service.record_ai_call, as
place_ai_call records it): queued, or refused with its gate.
"""

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from homebase.ai import (
    cadence,
    context,
    languages,
    outreach,
    repository,
    rules,
    safe_words,
    service,
)
from homebase.ai.jobs import MAX_ATTEMPTS, Failed, model_call, retry_wait
from homebase.ai.prompt import ModelAnswer, Prompt, Purpose, Turn
from homebase.ai.providers import loaded
from homebase.ai.records import OutreachRecord
from homebase.automations import campaign_repository, campaign_rules, persona_texts
from homebase.automations import repository as automations_repository
from homebase.automations.records import PersonaRecord
from homebase.contacts import repository as contacts_repository
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.errors import ComplianceBlocked
from homebase.messaging import lawful
from homebase.messaging import repository as messaging_repository
from homebase.messaging import service as messaging
from homebase.messaging.keywords import words
from homebase.metrics import AI_OUTCOMES
from homebase.runtime import Runtime
from homebase.voice import service as voice
from homebase.worker import queue

KIND = "ai"  # the background kind of every model call: one HOMEBASE_AI_CONCURRENCY
table = outreach.outreach
LEASE = queue.Lease(
    table, token=table.c.lease_token, expires=table.c.lease_expires_at, attempts=table.c.attempts
)
log = logging.getLogger("homebase.ai")


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    outreach_id: str
    token: str
    attempts: int  # this claim included


@dataclass(frozen=True)
class Compose:
    prompt: Prompt
    disclose: bool
    language: str


@dataclass(frozen=True)
class End:
    status: str  # skipped | stopped | dropped
    outcome: str


@dataclass(frozen=True)
class Later:
    due: datetime  # the next lawful minute


@dataclass(frozen=True)
class Place:
    """A `call` row still owed: the call is asked for in the finishing transaction."""


Verdict = Compose | End | Later | Place


async def run(runtime: Runtime) -> int:
    swept = await sweep(runtime)
    started = await runtime.background.claim_and_start(
        KIND,
        runtime.settings.ai_concurrency,
        lambda room: claim(runtime, room),
        lambda one: work(runtime, one),
    )
    return swept + started


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    now = runtime.clock()
    expires = now + timedelta(seconds=runtime.settings.ai_lease_seconds)
    async with runtime.db.transaction() as connection:
        claimed = await LEASE.claim(
            connection,
            select(table)
            .where(table.c.status == "queued", table.c.due_at <= now)
            .order_by(table.c.due_at, table.c.id)
            .limit(limit),
            expires,
            status="composing",
            updated_at=now,
        )
    return [
        Claim(row["workspace_id"], row["id"], token, row["attempts"] + 1) for row, token in claimed
    ]


async def sweep(runtime: Runtime) -> int:
    """Rows whose worker died while composing: queued again (nothing was sent)."""
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        stuck = await LEASE.lapsed(connection, now, table.c.status == "composing")
        for row in stuck:
            session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
            await _release(session, row["id"], row["lease_token"], status="queued")
    return len(stuck)


async def _release(session: TenantSession, row_id: str, token: str, **values: Any) -> int:
    statement = session.update(table).where(table.c.id == row_id, table.c.status == "composing")
    return await session.execute(
        LEASE.held(statement, token).values(**LEASE.released, updated_at=session.now(), **values)
    )


async def work(runtime: Runtime, claimed: Claim) -> None:
    try:
        verdict = await _read(runtime, claimed)
        if isinstance(verdict, Compose):
            responder = await loaded(runtime.settings)
            answered = await model_call(runtime, responder, verdict.prompt)
            await finish(runtime, claimed, verdict, answered)
        else:
            await finish(runtime, claimed, verdict, None)
    except Exception:  # noqa: BLE001 (its lease lapses and the sweep queues it again)
        log.exception(
            "ai outreach %s failed; tried again when its lease lapses", claimed.outreach_id
        )


async def _read(runtime: Runtime, claimed: Claim) -> Verdict:
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        row = await outreach.get(session, claimed.outreach_id)
        if row is None or row["lease_token"] != claimed.token:
            return End("skipped", "lease_lost")
        contact = await contacts_repository.get(session, row["contact_id"])
        persona = await repository.persona(session, row["persona_id"])
        owed = await _owed(session, row, contact, persona)
        if isinstance(owed, End) or contact is None or persona is None:
            return owed or End("skipped", "erased")
        if row["kind"] == outreach.CALL:
            return Place()
        address = contact["phone_e164"] or ""
        when = await lawful.lawful_at(session, address, latest=row["wait_until"])
        if when is None:  # the gate's reason now: its hours, or a state's attempt limit
            why = await lawful.waits(session, _channel(persona), address, ai=True)
            return End("dropped", why or "quiet_hours")
        if when > session.now():
            return Later(when)
        if claimed.attempts > MAX_ATTEMPTS:
            return End("dropped", "provider_error")
        return await _compose(session, runtime, row, contact, persona)


async def _owed(
    session: TenantSession,
    row: OutreachRecord,
    contact: ContactRecord | None,
    persona: PersonaRecord | None,
) -> End | None:
    """Why the text is no longer owed, or None: it is."""
    if contact is None or contact["anonymized_at"] is not None:
        return End("skipped", "erased")
    if persona is None or not persona["responder"]:
        return End("skipped", "no_persona")
    if row["kind"] == outreach.FOLLOW_UP:
        # The stop rules first: a lead's STOP is an answer too, and ends the cadence.
        if not persona["follow_ups"]:
            return End("stopped", "follow_ups_off")
        stop = cadence.stop_reason(await outreach.standing(session, contact, persona))
        if stop is not None:
            return End("stopped", stop)
        anchor = await _anchor_at(session, row)
        if anchor is not None and await outreach.answered_since(session, contact["id"], anchor):
            return End("skipped", "answered")  # the AI's next text starts the list again
        return await _reachable(session, contact)
    if row["kind"] == outreach.CALL:
        return await _call_owed(session, row, contact, persona)
    if row["kind"] in (outreach.AUTOMATION, outreach.CAMPAIGN):
        if contact["ai_paused_at"] is not None:
            return _paused(contact)
        return await _reachable(session, contact)
    if persona["first_touch"] not in ("text", outreach.TEXT_THEN_CALL):
        return End("skipped", "first_touch_off")
    if contact["ai_paused_at"] is not None:
        return _paused(contact)
    if await outreach.conversation_on(session, contact):
        return End("skipped", "conversation_on")
    return await _reachable(session, contact)


def _paused(contact: ContactRecord) -> End:
    """A paused contact's text is not owed: an opt-out's pause says so (a STOP)."""
    return End("skipped", "opted_out" if contact["ai_paused_reason"] == "opt_out" else "paused")


async def _call_owed(
    session: TenantSession, row: OutreachRecord, contact: ContactRecord, persona: PersonaRecord
) -> End | None:
    """Why a call is no longer owed, or None. The call's own gates (consent to an
    artificial voice, calling hours, the attempt limit) are place_ai_call's."""
    if row["after_message_id"] is None and row["origin"] in ("lead", "import"):
        if persona["first_touch"] != outreach.CALLS_FIRST:
            return End("skipped", "first_touch_off")
        if await outreach.conversation_on(session, contact):
            return End("skipped", "conversation_on")
    stop = cadence.stop_reason(await outreach.standing(session, contact, persona))
    if stop is not None:
        return End("stopped" if row["after_message_id"] else "skipped", stop)
    anchor = await _anchor_at(session, row)
    if anchor is not None and await outreach.answered_since(session, contact["id"], anchor):
        return End("skipped", "answered")  # the responder has the conversation now
    return None


async def _reachable(session: TenantSession, contact: ContactRecord) -> End | None:
    ready = await repository.readiness(session, contact["phone_e164"] or "")
    if ready is None:
        return End("skipped", "no_persona")
    if ready["suppressed"]:
        return End("skipped", "opted_out")
    if not ready["consented"]:
        return End("skipped", "consent_missing")
    if ready["status"] != "active":
        return End("skipped", "account_suspended")
    return None


async def _anchor_at(session: TenantSession, row: OutreachRecord) -> datetime | None:
    if row["after_message_id"] is None:
        return None
    message = await messaging_repository.get(session, row["after_message_id"])
    return message["created_at"] if message is not None else None


async def _brief(session: TenantSession, row: OutreachRecord) -> str | None:
    """What an automation's ai_text step or a campaign's text is about: the workspace's own
    words, read from the automation's step or the campaign's goal (the row keeps no text)."""
    if row["kind"] == outreach.CAMPAIGN and row["enrolment_id"] is not None:
        return await campaign_repository.goal_of_enrolment(session, row["enrolment_id"])
    if row["enrolment_id"] is None or row["enrolment_step"] is None:
        return None
    enrolment = await session.fetch_one(
        session.select(automations_repository.enrolments).where(
            automations_repository.enrolments.c.id == row["enrolment_id"]
        )
    )
    automation = (
        await automations_repository.automation(session, enrolment["automation_id"])
        if enrolment is not None
        else None
    )
    if automation is None or row["enrolment_step"] >= len(automation["steps"]):
        return None
    brief = automation["steps"][row["enrolment_step"]].get("brief")
    return str(brief) if brief else None


def _channel(persona: PersonaRecord) -> str:
    """An unasked text goes by SMS when the persona uses it, else by WhatsApp."""
    return "SMS" if "SMS" in persona["channels"] else "WHATSAPP"


def _language(persona: PersonaRecord) -> str:
    """The language an unasked text opens in: the persona's first (the lead has written
    nothing to read one from)."""
    return languages.allowed(persona)[0]


async def _compose(
    session: TenantSession,
    runtime: Runtime,
    row: OutreachRecord,
    contact: ContactRecord,
    persona: PersonaRecord,
) -> Compose:
    language = _language(persona)
    disclose = await service.disclosure_due(session, contact["id"])
    signer = await persona_texts.signer(session, contact, persona)
    disclosure, signature = service.signed(persona, signer, language=language)
    fixed = {
        language: rules.assemble(
            outreach.opt_out_line(language), disclosure, signature, disclose=disclose
        )
    }
    conversation = await repository.conversation(session, contact["id"], context.CONVERSATION_TURNS)
    prompt = await context.build(
        session,
        contact,
        persona,
        conversation,
        fixed,
        segments_allowed=runtime.settings.ai_max_segments,
        added=(*service.added(persona, signer), *outreach.OPT_OUT_LINES.values()),
    )
    lead = await repository.latest_lead(session, contact["id"])
    wanted = (lead["context"] or {}).get("listing_id") if lead is not None else None
    listings = prompt.listings
    if row["kind"] == outreach.FIRST_TOUCH and wanted:
        listings = await context.ranked_listings(session, wanted=wanted, said="")
        listings = tuple(item for item in listings if item.id == wanted) or prompt.listings
    purposes: dict[str, Purpose] = {
        outreach.FIRST_TOUCH: "first_touch",
        outreach.FOLLOW_UP: "follow_up",
        outreach.AUTOMATION: "automation",
        outreach.CAMPAIGN: "automation",  # a text about the campaign's goal, as a step's
    }
    prompt = replace(
        prompt,
        purpose=purposes[row["kind"]],
        follow_up=row["step"],
        listings=listings,
        languages=(language,),
        brief=await _brief(session, row),
    )
    return Compose(prompt, disclose, language)


async def finish(
    runtime: Runtime, claimed: Claim, verdict: Verdict, answered: ModelAnswer | Failed | None
) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        row = await outreach.get(session, claimed.outreach_id)
        if row is None or row["lease_token"] != claimed.token or row["status"] != "composing":
            return  # not ours any more: the sweep queued it again, or it ended
        if isinstance(verdict, Later):
            await _later(session, claimed, verdict.due)
            return
        if isinstance(verdict, End):
            await _finish_as(session, claimed, row, verdict)
            return
        if isinstance(verdict, Place):
            await _place(session, claimed, row)
            return
        if isinstance(answered, Failed) or answered is None:
            wait = retry_wait(runtime.settings, claimed.attempts)
            await _release(
                session, row["id"], claimed.token, status="queued", due_at=session.now() + wait
            )
            _logged(claimed, "model_failed", "retry")
            return
        await _send(session, runtime, claimed, row, verdict, answered)


async def _later(session: TenantSession, claimed: Claim, due: datetime) -> None:
    """Back in the queue until the lead's next lawful minute: neither an attempt nor a
    failure."""
    await _release(
        session,
        claimed.outreach_id,
        claimed.token,
        status="queued",
        due_at=due,
        attempts=table.c.attempts - 1,
    )
    _logged(claimed, "waiting", "lawful_hours", due_at=due.isoformat())


async def _place(session: TenantSession, claimed: Claim, row: OutreachRecord) -> None:
    """The call of a `call` row, asked for now (voice/service.record_ai_call): placed,
    put back at the number's next calling minute, or given up with the gate's code."""
    contact = await contacts_repository.get(session, row["contact_id"])
    persona = await repository.persona(session, row["persona_id"])
    owed = await _owed(session, row, contact, persona)
    if owed is not None or contact is None or persona is None:  # changed since the read
        await _finish_as(session, claimed, row, owed or End("skipped", "erased"))
        return
    now = session.now()
    refused = await voice.refusal(session, contact, persona=persona, now=now)
    if refused is not None and refused.reason == "calling_hours":
        lawful = voice.next_lawful_minute(contact["phone_e164"] or "", now)
        if lawful is not None and lawful <= row["wait_until"]:
            await _later(session, claimed, lawful)
        else:
            await _finish_as(session, claimed, row, End("dropped", "calling_hours"))
        return
    call = await voice.record_ai_call(
        session, contact, persona=persona, reason=row["origin"], refused=refused
    )
    if refused is not None:  # recorded on the call, with the gate's reason
        await _finish_as(session, claimed, row, End("dropped", refused.reason))
        return
    if not await _release(
        session, row["id"], claimed.token, status="sent", outcome="called", voice_call_id=call["id"]
    ):
        return
    AI_OUTCOMES.labels("outreach_sent", row["kind"]).inc()
    _logged(claimed, "sent", "called", voice_call_id=call["id"])
    await outreach.after_call(session, persona, row)


async def _finish_as(session: TenantSession, claimed: Claim, row: OutreachRecord, end: End) -> None:
    if not await _release(
        session, row["id"], claimed.token, status=end.status, outcome=end.outcome
    ):
        return
    AI_OUTCOMES.labels(f"outreach_{end.status}", end.outcome).inc()
    _logged(claimed, end.status, end.outcome)
    if end.status == "dropped":
        await outreach.record_dropped(session, row, end.outcome)
    elif end.status == "stopped":
        await outreach.record_stopped(session, row, end.outcome)
    await _campaign_not_reached(session, row, end.outcome)


async def _campaign_not_reached(session: TenantSession, row: OutreachRecord, outcome: str) -> None:
    """A campaign's text given up before it was sent: its enrolment, counted reached when
    the text was queued, is skipped with the reason (automations/campaign_rules.py)."""
    if row["kind"] == outreach.CAMPAIGN and row["enrolment_id"] is not None:
        skip = campaign_rules.skip_for_outcome(outcome)
        await campaign_repository.not_reached(session, row["enrolment_id"], skip.value)


def _repeats(body: str, conversation: tuple[Turn, ...]) -> bool:
    """Whether the text says what an earlier text of the AI said, word for word."""
    said = words(body)
    return any(turn.speaker == "assistant" and words(turn.text) == said for turn in conversation)


async def _send(
    session: TenantSession,
    runtime: Runtime,
    claimed: Claim,
    row: OutreachRecord,
    composed: Compose,
    answered: ModelAnswer,
) -> None:
    contact = await contacts_repository.get(session, row["contact_id"])
    persona = await repository.persona(session, row["persona_id"])
    owed = await _owed(session, row, contact, persona)
    if owed is not None or contact is None or persona is None:  # changed while composing
        await _finish_as(session, claimed, row, owed or End("skipped", "erased"))
        return
    address = contact["phone_e164"] or ""
    when = await lawful.lawful_at(session, address, latest=row["wait_until"])
    if when is None or when > session.now():  # the minute passed while composing
        await (
            _later(session, claimed, when)
            if when
            else _finish_as(session, claimed, row, End("dropped", "quiet_hours"))
        )
        return
    body = (answered.reply or "").strip()
    if not body:
        await _finish_as(session, claimed, row, End("skipped", "no_reply"))
        return
    if _repeats(body, composed.prompt.conversation):
        await _finish_as(session, claimed, row, End("dropped", "repeated"))
        return
    signer = await persona_texts.signer(session, contact, persona)
    text, broken = await service.outgoing(
        session,
        persona,
        contact=contact,
        signer=signer,
        body=safe_words.strip_added(body, service.added(persona, signer))
        + " "
        + outreach.opt_out_line(composed.language),
        disclose=composed.disclose,
        segments_allowed=runtime.settings.ai_max_segments,
        language=composed.language,
        from_model=True,
    )
    if broken is not None:
        await _finish_as(session, claimed, row, End("dropped", f"reply_rule:{broken}"))
        return
    channel = _channel(persona)
    waiting = await lawful.waits(session, channel, address, ai=True)
    if waiting is not None:
        later = await lawful.lawful_at(session, address, latest=row["wait_until"])
        if later is not None and later > session.now():
            await _later(session, claimed, later)
        else:
            await _finish_as(session, claimed, row, End("dropped", waiting))
        return
    if not await _release(session, row["id"], claimed.token, status="sent", outcome="sent"):
        return
    values: dict[str, object] = {
        "channel": channel,
        "contact_id": contact["id"],
        "body": text,
        "ai_generated": True,
    }
    try:
        message = await messaging.send(
            session,
            messaging.request_from(values),
            email_from=runtime.settings.email_from,
            ai_job_id=row["id"],
        )
    except ComplianceBlocked as refused:  # recorded by the send path, as every refusal is
        reason = str((refused.details or {}).get("reason", "refused"))
        await outreach.update(session, row["id"], status="dropped", outcome=reason)
        await outreach.record_dropped(session, row, reason)
        await _campaign_not_reached(session, row, reason)
        AI_OUTCOMES.labels("outreach_dropped", reason).inc()
        return
    await outreach.update(session, row["id"], message_id=message["id"])
    AI_OUTCOMES.labels("outreach_sent", row["kind"]).inc()
    logs.event(
        log,
        "ai outreach sent",
        ai_outreach_id=row["id"],
        workspace_id=session.workspace_id,
        contact_id=contact["id"],
        message_id=message["id"],
        kind=row["kind"],
        step=row["step"],
    )
    campaign_channel = (
        await campaign_repository.channel_of_enrolment(session, row["enrolment_id"])
        if row["kind"] == outreach.CAMPAIGN and row["enrolment_id"] is not None
        else None
    )
    if await outreach.call_after_text(session, persona, row, message, channel=campaign_channel):
        return  # the follow-ups go on after the call (outreach.after_call)
    next_id = await outreach.after_ai_text(
        session, persona, contact_id=contact["id"], message=message, done=row["step"]
    )
    if next_id is None and row["kind"] == outreach.FOLLOW_UP:
        await outreach.record_stopped(session, row, "end_of_list")


def _logged(claimed: Claim, outcome: str, reason: str, **more: Any) -> None:
    logs.event(
        log,
        "ai outreach",
        ai_outreach_id=claimed.outreach_id,
        workspace_id=claimed.workspace_id,
        outcome=outcome,
        reason=reason,
        **more,
    )
