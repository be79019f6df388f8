"""The AI responder's rows as the code carries them: the `ai_jobs` and `ai_actions` tables'
(models/ai_job.py, models/ai_action.py), typed, and what its reads select of other tables
(a persona is automations' PersonaRecord; what the AI reads of a listing, ListingFactsRow,
and of an appointment, ShowingRow, the partial reads a tool is checked against).

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime

from pydantic import JsonValue
from typing_extensions import TypedDict


class AiJobRecord(TypedDict):
    id: str
    contact_id: str
    persona_id: str
    channel: str  # SMS | WHATSAPP
    status: str  # queued | composing | replied | ...
    inbound_count: int  # inbound texts this job answers
    composed_count: int  # the count its compose began at
    last_inbound_id: str
    last_inbound_at: datetime
    attempts: int  # model calls that failed or broke off
    next_attempt_at: datetime | None
    lease_token: str | None
    lease_expires_at: datetime | None
    outcome: str | None  # replied, handoff reason, ...
    reply_message_id: str | None
    created_at: datetime
    updated_at: datetime


class OutreachRecord(TypedDict):
    """A text the AI owes a contact unasked (models/ai_outreach.py, ai/outreach.py)."""

    id: str
    contact_id: str
    persona_id: str
    lead_id: str | None
    kind: str  # first_touch | follow_up | automation | campaign | call
    step: int  # 0 for a first touch; a follow-up's place in the persona's list, from 1
    after_message_id: str | None  # the AI text a follow-up (or a call after it) follows
    origin: str  # lead | import | cadence | automation | campaign
    status: str  # queued | composing | sent | dropped | stopped | skipped
    due_at: datetime
    wait_until: datetime  # lawful hours wait no longer
    attempts: int
    lease_token: str | None
    lease_expires_at: datetime | None
    outcome: str | None
    message_id: str | None
    voice_call_id: str | None  # the AI call a `call` row placed
    enrolment_id: str | None  # the automation step (ai_text) or campaign that queued it
    enrolment_step: int | None
    created_at: datetime
    updated_at: datetime


class AiJobChanges(TypedDict, total=False):
    """Columns a job's step changes (jobs.py)."""

    status: str
    composed_count: int
    attempts: int
    next_attempt_at: datetime | None
    lease_token: str | None
    lease_expires_at: datetime | None
    outcome: str | None
    reply_message_id: str | None
    updated_at: datetime


class Readiness(TypedDict):
    """repository.READINESS: the responder's id and channels, the workspace's status, and
    the number's suppression and consent."""

    id: str
    channels: list[str]
    status: str
    suppressed: bool
    consented: bool


class Text(TypedDict):
    """A text of the conversation as a reply reads it (repository.conversation)."""

    direction: str  # INBOUND | OUTBOUND
    body: str | None
    ai_generated: bool
    ai_job_id: str | None
    status: str


class Unanswered(TypedDict):
    """A text the reply answers (repository.unanswered)."""

    id: str
    direction: str
    body: str | None


class LatestLead(TypedDict):
    """What a reply reads of the contact's latest lead (repository.latest_lead)."""

    source: str
    context: dict[str, JsonValue]  # the client's free-form members, kept whole


class ActionRecord(TypedDict):
    """A row of `ai_actions` (models/ai_action.py): ids and outcomes only."""

    id: str
    ai_job_id: str
    contact_id: str
    tool: str
    outcome: str
    object_id: str | None
    created_at: datetime


class ListingFactsRow(TypedDict):
    """What the AI reads of a listing: to show it, and to book a showing of it."""

    id: str
    address: str
    city: str
    status: str
    price_cents: int | None
    beds: int | None
    baths: float | None
    url: str | None


class ShowingRow(TypedDict):
    """What the AI reads of an appointment: to list it, move it or cancel it."""

    id: str
    contact_id: str
    title: str
    starts_at: datetime
    ends_at: datetime
    outcome: str | None


class HandoffEvent(TypedDict):
    """The `ai.handoff` event's data (webhooks/catalogue_docs.py documents it)."""

    contact_id: str
    task_id: str
    assignee_id: str | None
    due_at: str | None
    priority: str  # the task's: low | normal | high
    reason: str
    urgency: str | None  # the model's, when it gave one
    summary: str  # masked by value (ai/handoff.py)
    ai_job_id: str | None
    message_id: str | None


class Window(TypedDict):
    """The range GET /v1/ai/stats counts over (ai/stats.py), checked."""

    start: datetime
    end: datetime
    persona_id: str | None
