"""What the AI sends unasked: a new lead's first touch and the follow-ups to its
unanswered texts (docs/ai.md, "First touch and follow-ups").

A first touch is queued by the lead's creation (`first_touch`: the responder persona's
first-touch settings, cached per workspace for TTL_SECONDS as routing's inputs are, and,
when it texts first, one insert into `ai_outreach`), due the
persona's `first_touch_delay_seconds` later; an import that asks for it spaces its
leads' first touches at HOMEBASE_AI_FIRST_TOUCH_PER_MINUTE per workspace. Every other
rule is the worker's, when the text is due (ai/outreach_jobs.py): the contact not
erased, paused or suppressed, no message either way in the last 24 hours, the lawful
hours of the lead's number (compliance/lawful_hours.py), the send path's gates.

A follow-up is queued when an AI text goes out (a first touch, a follow-up, or a reply
to the lead: `after_ai_text`), due the persona's next `follow_ups` duration after it.
The lead's answer ends the pending step (the worker finds it answered) and the AI's
next text starts the list again (ai/cadence.py).

A persona whose first touch is `call` queues a `call` row instead of the text; one whose
first touch is `text_then_call` (and a `text_then_call` campaign) queues, when its text
goes out, a `call` row due `call_after_text_minutes` later (`call_after_text`), which the
lead's answer ends as it ends a follow-up. The worker places the call through
voice/service.place_ai_call, every gate of a call checked there (docs/voice.md).
"""

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import bindparam, func, text

from homebase.ai import action_rules, actions, cadence
from homebase.ai import repository as ai_repository
from homebase.ai.records import OutreachRecord
from homebase.automations.campaign_schemas import CampaignSkipReason
from homebase.automations.reach_outcomes import Deferred, Reached, ReachOutcome, Refused
from homebase.automations.records import CampaignEnrolmentRecord, CampaignRecord, PersonaRecord
from homebase.automations.render import call_after_text as call_after_text_minutes
from homebase.automations.render import first_touch_delay
from homebase.compliance import lawful_hours
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.kit.ids import new_id
from homebase.messaging import repository as messaging_repository
from homebase.messaging.records import MessageRecord
from homebase.models import AiOutreach, Message
from homebase.models.ai_outreach import OPEN_WHERE

outreach = AiOutreach.__table__
messages = Message.__table__
personas = ai_repository.personas
FIRST_TOUCH = "first_touch"
FOLLOW_UP = "follow_up"
CALL = "call"
CALLS_FIRST = "call"  # a persona's first_touch that calls instead of texting
TEXT_THEN_CALL = "text_then_call"  # a first touch (or campaign) that calls after its text
FIRST_TOUCHES = ("text", CALLS_FIRST, TEXT_THEN_CALL)
OPEN = ("queued", "composing")
WAIT_AT_MOST = lawful_hours.HORIZON  # a text waits this long for a lawful minute, then drops
CONVERSATION_ON = timedelta(hours=24)  # any message either way this recently: no first touch
# The carrier's opt-out line every unasked text carries, by language (else English).
OPT_OUT_LINES = {"en": "Reply STOP to opt out.", "es": "Responda STOP para cancelar."}

# The responder persona's first-touch settings (the partial unique index on the
# responder), kept compiled, read at most once per TTL_SECONDS per workspace and process:
# personas change only through fixtures, whose loader drops this process's copy
# (`forget_responder`); another process's load is seen within TTL_SECONDS.
TTL_SECONDS = 2.0
_responders: dict[str, tuple[float, "FirstTouch | None"]] = {}
_FIRST_TOUCH_PERSONA = tenant_select(
    personas,
    personas.c.id,
    personas.c.first_touch,
    personas.c.first_touch_delay_seconds,
).where(personas.c.responder.is_(True))
_LATEST_IMPORT_DUE = tenant_select(outreach, func.max(outreach.c.due_at).label("due_at")).where(
    outreach.c.origin == "import", outreach.c.due_at >= bindparam("since")
)


@dataclass(frozen=True)
class FirstTouch:
    """The responder persona's first-touch settings: None for a workspace that texts
    no new lead first."""

    persona_id: str
    delay: timedelta
    kind: str  # the row it queues: FIRST_TOUCH (a text) or CALL


async def _first_touch_persona(session: TenantSession) -> FirstTouch | None:
    cached = _responders.get(session.workspace_id)
    if cached is not None and time.monotonic() - cached[0] < TTL_SECONDS:
        return cached[1]
    row = await session.fetch_one(_FIRST_TOUCH_PERSONA)
    found = None
    if row is not None and row["first_touch"] in FIRST_TOUCHES:
        delay = first_touch_delay(cast("PersonaRecord", row))
        kind = CALL if row["first_touch"] == CALLS_FIRST else FIRST_TOUCH
        found = FirstTouch(row["id"], timedelta(seconds=delay), kind)
    _responders[session.workspace_id] = (time.monotonic(), found)
    return found


def forget_responder(workspace_id: str) -> None:
    """A persona was loaded: the next lead reads the responder's settings again."""
    _responders.pop(workspace_id, None)


def opt_out_line(language: str | None) -> str:
    return OPT_OUT_LINES.get(language or "en", OPT_OUT_LINES["en"])


async def first_touch(
    session: TenantSession,
    *,
    contact_id: str | None,
    lead_id: str,
    allowed: bool,
    origin: str = "lead",
    per_minute: int | None = None,
) -> str | None:
    """Queues the lead's first touch when its consent allows AI outreach (`allowed`:
    leads.render.ai_outbound_allowed) and the responder persona reaches new leads first
    (a text, or a call); the row's id, or None. An import's (`origin` import) are spaced
    `per_minute` a minute."""
    if contact_id is None or not allowed:
        return None
    persona = await _first_touch_persona(session)
    if persona is None:
        return None
    now = session.now()
    due = now + persona.delay
    if origin == "import" and per_minute:
        gap = timedelta(seconds=60 / per_minute)
        latest = await session.fetch_one(_LATEST_IMPORT_DUE, {"since": now - gap})
        if latest is not None and latest["due_at"] is not None:
            due = max(due, latest["due_at"] + gap)
    # None: the contact has one open already (a follow-up, another lead's)
    return await _queue(
        session,
        persona_id=persona.persona_id,
        contact_id=contact_id,
        kind=persona.kind,
        origin=origin,
        due=due,
        lead_id=lead_id,
    )


async def call_after_text(
    session: TenantSession,
    persona: PersonaRecord,
    row: OutreachRecord,
    message: MessageRecord,
    *,
    channel: str | None,
) -> str | None:
    """The AI's text `message` (queued for `row`) went out: when the persona's first touch
    is text_then_call (a first touch) or the campaign's `channel` is (a campaign's text),
    the call after it is queued, due call_after_text_minutes after the text. Its id, or
    None: no call follows this text."""
    calls_after = (row["kind"] == FIRST_TOUCH and persona["first_touch"] == TEXT_THEN_CALL) or (
        row["kind"] == CAMPAIGN and channel == TEXT_THEN_CALL
    )
    if not calls_after:
        return None
    minutes = call_after_text_minutes(persona)
    return await _queue(
        session,
        persona_id=persona["id"],
        contact_id=row["contact_id"],
        kind=CALL,
        origin=row["origin"],
        due=message["created_at"] + timedelta(minutes=minutes),
        lead_id=row["lead_id"],
        after_message_id=message["id"],
        enrolment_id=row["enrolment_id"],
    )


async def after_call(
    session: TenantSession, persona: PersonaRecord, row: OutreachRecord
) -> str | None:
    """The call after the AI's text was placed: the persona's follow-ups to that text go
    on, measured from now; the new row's id, or None."""
    if not persona["follow_ups"] or row["after_message_id"] is None:
        return None
    message = await messaging_repository.get(session, row["after_message_id"])
    if message is None:
        return None
    return await _follow_up(
        session, persona, row["contact_id"], message, done=0, anchor_at=session.now()
    )


AUTOMATION = "automation"
CAMPAIGN = "campaign"
_RESPONDER = tenant_select(personas, personas.c.id).where(personas.c.responder.is_(True))
CAMPAIGN_RETRY = timedelta(minutes=10)  # a contact with an AI text under way: try again then


async def responder_id(session: TenantSession) -> str | None:
    """The workspace's responder persona's id, if it has one."""
    row = await session.fetch_one(_RESPONDER)
    return str(row["id"]) if row is not None else None


async def automation_text(
    session: TenantSession, *, contact_id: str, enrolment_id: str, step: int
) -> str | None:
    """Queues the AI text of an automation's `ai_text` step, due now, as the responder
    persona: the row's id; None when the workspace has no responder or the contact has
    an AI text under way (the step waits for it)."""
    persona_id = await responder_id(session)
    if persona_id is None:
        return None
    return await _queue(
        session,
        persona_id=persona_id,
        contact_id=contact_id,
        kind=AUTOMATION,
        origin=AUTOMATION,
        due=session.now(),
        enrolment_id=enrolment_id,
        enrolment_step=step,
    )


async def campaign_touch(
    session: TenantSession, enrolment: CampaignEnrolmentRecord, campaign: CampaignRecord
) -> ReachOutcome:
    """A campaign's reach (automations/reach.py): its text to the enrolled contact, due
    now, as the responder persona, about the campaign's `goal` (the workspace's words, read
    by the worker from the campaign). The worker applies a first touch's rules when it is
    due. (A `call` campaign calls instead: automations/reach.py.)"""
    persona_id = await responder_id(session)
    if persona_id is None:
        return Refused(CampaignSkipReason.refused)
    queued = await _queue(
        session,
        persona_id=persona_id,
        contact_id=enrolment["contact_id"],
        kind=CAMPAIGN,
        origin=CAMPAIGN,
        due=session.now(),
        enrolment_id=enrolment["id"],
    )
    if queued is None:
        return Deferred(session.now() + CAMPAIGN_RETRY)
    return Reached(queued)


async def _queue(
    session: TenantSession,
    *,
    persona_id: str,
    contact_id: str,
    kind: str,
    origin: str,
    due: datetime,
    lead_id: str | None = None,
    step: int = 0,
    after_message_id: str | None = None,
    enrolment_id: str | None = None,
    enrolment_step: int | None = None,
) -> str | None:
    """An unasked AI text of `kind` queued, due at `due` (waiting for a lawful minute at
    most WAIT_AT_MOST past it), as `persona_id`: the row's id, or None when the contact
    has an AI text under way (one open row a contact)."""
    now = session.now()
    row: OutreachRecord = {
        "id": new_id("aio"),
        "contact_id": contact_id,
        "persona_id": persona_id,
        "lead_id": lead_id,
        "kind": kind,
        "step": step,
        "after_message_id": after_message_id,
        "origin": origin,
        "status": "queued",
        "due_at": due,
        "wait_until": due + WAIT_AT_MOST,
        "attempts": 0,
        "lease_token": None,
        "lease_expires_at": None,
        "outcome": None,
        "message_id": None,
        "voice_call_id": None,
        "enrolment_id": enrolment_id,
        "enrolment_step": enrolment_step,
        "created_at": now,
        "updated_at": now,
    }
    if not await _insert_open(session, row):
        return None
    session.mark_work()
    return row["id"]


async def open_for(session: TenantSession, contact_id: str) -> OutreachRecord | None:
    """The contact's open row (queued or composing), if any."""
    row = await session.fetch_one(
        session.select(outreach).where(
            outreach.c.contact_id == contact_id, outreach.c.status.in_(OPEN)
        )
    )
    return cast("OutreachRecord | None", row)


async def _insert_open(session: TenantSession, row: OutreachRecord) -> bool:
    return await session.insert_if_absent(
        outreach,
        row,
        conflict=["workspace_id", "contact_id"],
        index_where=text(OPEN_WHERE),
    )


async def get(session: TenantSession, outreach_id: str) -> OutreachRecord | None:
    row = await session.fetch_one(session.select(outreach).where(outreach.c.id == outreach_id))
    return cast("OutreachRecord | None", row)


async def update(session: TenantSession, outreach_id: str, **values: object) -> int:
    statement = session.update(outreach).where(outreach.c.id == outreach_id)
    return await session.execute(statement.values(**values, updated_at=session.now()))


async def after_ai_text(
    session: TenantSession,
    persona: PersonaRecord,
    *,
    contact_id: str,
    message: MessageRecord,
    done: int = 0,
) -> str | None:
    """The AI's text `message` went out (queued) to the contact: a follow-up step still
    queued for an earlier text is over (the lead answered it, or this text replaces it)
    and the next step of the persona's `follow_ups` is queued after this one, `done`
    steps into the list (0: a reply or a first touch starts it). The new row's id, or
    None (no follow-ups, the text predates them, the list is at its end). A persona
    without follow-ups writes nothing here: a step queued before they were turned off
    is stopped by the worker (`follow_ups_off`)."""
    if not persona["follow_ups"]:
        return None
    now = session.now()
    await session.execute(
        session.update(outreach)
        .where(
            outreach.c.contact_id == contact_id,
            outreach.c.kind == FOLLOW_UP,
            outreach.c.status == "queued",
        )
        .values(status="skipped", outcome="answered", updated_at=now)
    )
    return await _follow_up(
        session, persona, contact_id, message, done=done, anchor_at=message["created_at"]
    )


async def _follow_up(
    session: TenantSession,
    persona: PersonaRecord,
    contact_id: str,
    message: MessageRecord,
    *,
    done: int,
    anchor_at: datetime,
) -> str | None:
    """The follow-up after `done` steps to the AI's text `message`, due its duration after
    `anchor_at`: the new row's id, or None (the text predates follow-ups, the list is at
    its end, or the contact has an AI text under way)."""
    if not cadence.counts(message["created_at"], persona["follow_ups_since"]):
        return None
    step = cadence.next_step(persona["follow_ups"], done=done, anchor_at=anchor_at)
    if step is None:
        return None
    return await _queue(
        session,
        persona_id=persona["id"],
        contact_id=contact_id,
        kind=FOLLOW_UP,
        origin="cadence",
        due=step.due,
        step=step.number,
        after_message_id=message["id"],
    )


async def conversation_on(session: TenantSession, contact: ContactRecord) -> bool:
    """Any message to or from the contact's number in the last 24 hours (a refused one
    aside), whether or not it was linked to the contact then."""
    if not contact["phone_e164"]:
        return False
    since = session.now() - CONVERSATION_ON
    row = await session.fetch_one(
        session.select(messages, messages.c.id)
        .where(
            messages.c.counterpart == contact["phone_e164"],
            messages.c.created_at >= since,
            messages.c.blocked_reason.is_(None),
        )
        .limit(1)
    )
    return row is not None


async def answered_since(session: TenantSession, contact_id: str, at: datetime) -> bool:
    """Whether the lead wrote after `at` (the AI's text a follow-up follows)."""
    row = await session.fetch_one(
        session.select(messages, messages.c.id)
        .where(
            messages.c.contact_id == contact_id,
            messages.c.direction == "INBOUND",
            messages.c.created_at > at,
        )
        .limit(1)
    )
    return row is not None


async def standing(
    session: TenantSession, contact: ContactRecord, persona: PersonaRecord
) -> cadence.Standing:
    """What the cadence's stop rules read of the contact now (ai/cadence.py)."""
    suppressed = contact["phone_e164"] is not None and (
        await messaging_repository.active_suppression(session, contact["phone_e164"]) is not None
    )
    booked = bool(await ai_repository.upcoming(session, contact["id"], session.now()))
    values = await actions.qualification(session, contact)
    return cadence.Standing(
        erased=contact["anonymized_at"] is not None,
        suppressed=suppressed,
        paused_reason=contact["ai_paused_reason"] if contact["ai_paused_at"] else None,
        showing_booked=booked,
        stage=contact["stage"],
        working_with_agent=action_rules.stops_soliciting(values),
    )


TITLES = {
    FIRST_TOUCH: "AI first text not sent",
    FOLLOW_UP: "AI follow-up not sent",
    AUTOMATION: "AI text of an automation not sent",
    CAMPAIGN: "AI text of a campaign not sent",
    CALL: "AI call not placed",
}


async def record_dropped(session: TenantSession, row: OutreachRecord, reason: str) -> None:
    """The timeline's `ai_outreach_dropped`: a text the AI owed was given up, and why."""
    await timeline.record(
        session,
        row["contact_id"],
        "ai_outreach_dropped",
        f"{TITLES[row['kind']]} ({reason})",
        data={"ai_outreach_id": row["id"], "kind": row["kind"], "reason": reason},
    )


async def record_stopped(session: TenantSession, row: OutreachRecord, reason: str) -> None:
    """The timeline's `ai_follow_ups_stopped`: the cadence ended for good, and why."""
    await timeline.record(
        session,
        row["contact_id"],
        "ai_follow_ups_stopped",
        f"AI follow-ups stopped ({reason})",
        data={"ai_outreach_id": row["id"], "step": row["step"], "reason": reason},
    )


async def scrub_contact_ai_outreach(session: TenantSession, contact_id: str) -> None:
    """An erasure's part (erasure/registry.py): the contact's open outreach ends, so
    nothing more is sent unasked. Rows keep ids, times and outcomes, never a text."""
    await session.execute(
        session.update(outreach)
        .where(outreach.c.contact_id == contact_id, outreach.c.status.in_(OPEN))
        .values(
            status="skipped",
            outcome="erased",
            lease_token=None,
            lease_expires_at=None,
            updated_at=session.now(),
        )
    )
