"""What a handoff gives the person who takes it (docs/ai.md, "Handoff"): the task's title,
priority, due time and summary. ai/service.py's one handoff step writes them.

- title: "Call Bella Ruiz: asked for a person": the contact's name (else "the lead"),
  then the reason's phrase (PHRASES, one per reason);
- priority: the model's `urgency` through PRIORITIES (normal when it gave none);
- due: the persona's `handoff_minutes` (default 15) counted inside its showing hours in
  the workspace's time zone (ai/showings.due_within_hours);
- summary: two or three lines, what the lead wants, what was learned, what was promised,
  each masked by value (kit.masking.mask_freeform) before it is cut, so a task or an
  event shown without contacts:read:pii carries no phone number or email address.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from homebase.ai import actions, repository, showings, tools
from homebase.automations.records import PersonaRecord
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.masking import mask_freeform
from homebase.workspaces.time_zone import time_zone

# A reason's phrase, after "Call <name>: " in the task's title and in the timeline's entry.
PHRASES = {
    "asked_for_person": "asked for a person",
    "commission": "asked about commission",
    "legal": "asked a legal question",
    "lending": "asked about lending",
    "model": "the assistant handed off",
    "reply_rule": "a reply broke a rule and was not sent",
    "provider_error": "the AI model did not answer",
    "compliance": "a compliance gate refused the reply",
    "daily_limit": "the daily limit of AI replies was reached",
    "no_calls": "asked not to be called",
    "unverified_commitment": "a reply claimed what was not done, and was not sent",
    "working_with_agent": "works with another agent",
    "no_reply": "the assistant had no answer twice",
    "fair_housing": "asked about schools, safety or who lives nearby",
    "language": "writes in a language the assistant does not answer in",
}
# The model's urgency (the hand_off tool's, or the answer's `urgency` member) as the
# task's priority; none, or an unknown one: normal.
PRIORITIES = {"low": "low", "normal": "normal", "high": "high"}
DEFAULT_PRIORITY = "normal"
LINE_CHARS = 160  # of each summary line's text, after masking
TITLE_CHARS = 200  # a task's title


@dataclass(frozen=True)
class Handoff:
    """Why the AI hands the lead to a person, and what the model said of it."""

    reason: str
    detail: str | None = None  # the model's own words, a broken rule, a gate's reason
    urgency: str | None = None  # low | normal | high, when the model gave one
    done: Sequence[actions.Performed] = field(default_factory=tuple)  # acted on in the job
    language: str | None = None  # the conversation's, as the model read it: the holding text's


def phrase(reason: str) -> str:
    return PHRASES.get(reason, reason.replace("_", " "))


def title(contact: ContactRecord, reason: str) -> str:
    parts = (contact["first_name"], contact["last_name"])
    name = " ".join(" ".join(part.split()) for part in parts if part and part.strip())
    return f"Call {name or 'the lead'}: {phrase(reason)}"[:TITLE_CHARS]


def priority(urgency: str | None) -> str:
    return PRIORITIES.get((urgency or "").strip().lower(), DEFAULT_PRIORITY)


async def due_at(session: TenantSession, persona: PersonaRecord | None) -> datetime:
    hours = showings.hours_of(persona["showing_hours"] if persona is not None else None)
    minutes = (persona["handoff_minutes"] if persona is not None else None) or (
        showings.HANDOFF_MINUTES
    )
    zone = await time_zone(session)
    return showings.due_within_hours(session.now(), zone, hours, minutes)


def masked(text: str | None) -> str | None:
    """One summary line's text, on one line, every phone number and email address in it
    masked by value (kit.masking.mask_freeform) before it is cut to LINE_CHARS, so no cut
    leaves part of a number unmasked; None when blank. A handoff's summary and an AI
    call's (voice/summaries.py) are both made of such lines."""
    if not text or not text.strip():
        return None
    done: str = mask_freeform(" ".join(text.split()))
    return done[:LINE_CHARS]


def _line(label: str, text: str | None) -> str | None:
    kept = masked(text)
    return f"{label}: {kept}" if kept else None


async def summary(
    session: TenantSession,
    contact: ContactRecord,
    persona: PersonaRecord | None,
    *,
    handoff: Handoff,
    texts: Sequence[str],
    told: str | None,
) -> str:
    """Two or three lines: `Wants:` (the model's words when it handed off, else the lead's
    texts), `Learned:` (the lead's source, the stage, the persona's qualification values
    on the contact; left out when nothing), `Promised:` (what the job did: a showing
    booked or moved, a follow-up task; the holding text `told`; "nothing yet")."""
    wants = handoff.detail if handoff.reason == "model" and handoff.detail else None
    lines = [
        _line("Wants", wants or " / ".join(texts) or phrase(handoff.reason)),
        _line("Learned", await _learned(session, contact, persona)),
        _line("Promised", await _promised(session, handoff.done, told) or "nothing yet"),
    ]
    return "\n".join(line for line in lines if line)


async def _learned(
    session: TenantSession, contact: ContactRecord, persona: PersonaRecord | None
) -> str:
    facts = []
    lead = await repository.latest_lead(session, contact["id"])
    if lead is not None and lead["source"]:
        facts.append(f"source {lead['source']}")
    facts.append(f"stage {contact['stage']}")
    keys = (persona["qualification_fields"] if persona is not None else None) or []
    if keys:
        values = await actions.qualification(session, contact)
        facts += [f"{key} {values[key]}" for key in keys if values.get(key) not in (None, "")]
    return ", ".join(facts)


async def _promised(
    session: TenantSession, done: Sequence[actions.Performed], told: str | None
) -> str:
    promised = []
    zone = await time_zone(session)
    for item in done:
        if item.outcome == actions.REFUSED:
            continue
        if item.tool in (tools.BOOK, tools.RESCHEDULE) and item.object_id:
            showing = await repository.appointment(session, item.object_id)
            when = f" {showings.describe_one(showing['starts_at'], zone)}" if showing else ""
            verb = "booked" if item.tool == tools.BOOK else "moved to"
            promised.append(f"showing {verb}{when}")
        elif item.tool == tools.CANCEL:
            promised.append("showing cancelled")
        elif item.tool == tools.TASK:
            promised.append("a follow-up task")
    if told:
        promised.append(f'told them "{told}"')
    return "; ".join(promised)
