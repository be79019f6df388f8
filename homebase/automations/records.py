"""Automations, personas, campaigns and enrolments as the code carries them: the
`automations`, `personas`, `campaigns`, `automation_enrolments` and
`automation_step_runs` tables' rows (models/automation.py, persona.py, campaign.py,
automation_enrolment.py, automation_step_run.py), typed.

Campaign enrolments and the DNC extract: campaign_enrolment.py, dnc_registration.py.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it, but
the engine's (ClaimedEnrolment), which claims an enrolment before any session."""

from datetime import datetime
from typing import Any, Literal

from typing_extensions import TypedDict

EnrolmentState = Literal["active", "completed", "stopped", "failed"]


class AutomationRecord(TypedDict):
    id: str
    name: str
    description: str | None
    enabled: bool
    # each a step's JSON as its fixture wrote it, checked by steps.parse when it runs
    steps: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime


class PersonaRecord(TypedDict):
    id: str
    name: str
    tone: str
    channels: list[str]  # MessageChannel values
    signature: str | None
    instructions: str | None
    responder: bool
    disclosure: str | None
    handoff_reply: str | None
    handoff_assignee: str | None
    handoff_minutes: int | None  # None: ai.handoff.DEFAULT_MINUTES
    links: list[str] | None
    phone: str | None
    actions: list[str] | None  # PersonaAction values; None: it only answers
    showing_hours: dict[str, list[str]] | None  # weekday: [opens, closes]; None: the default
    showing_minutes: int | None
    qualification_fields: list[str] | None
    tags: list[str] | None
    languages: list[str] | None  # None: ai.languages.DEFAULT
    translations: dict[str, dict[str, str]] | None  # language: field: text
    first_touch: str | None  # None: off; text | call | text_then_call
    first_touch_delay_seconds: int | None  # None: 30
    call_after_text_minutes: int | None  # None: 10
    follow_ups: list[str] | None  # ISO 8601 durations; None: none
    follow_ups_since: datetime | None  # when follow-ups were turned on
    voice: bool  # the AI places and answers calls as this persona (docs/voice.md)
    voicemail: str | None  # hang_up | leave; None: hang_up
    voicemail_text: str | None
    created_at: datetime
    updated_at: datetime


class ResponderRef(TypedDict):
    """What repository.responder reads of the workspace's responder persona."""

    id: str
    name: str


class CampaignRecord(TypedDict):
    id: str
    name: str
    persona_id: str | None
    automation_id: str | None
    status: str  # a CampaignStatus value: draft | active | paused | completed
    audience: str | None
    goal: str | None
    channel: str  # a CampaignChannel value: text | call | text_then_call
    rate_per_hour: int
    ends_at: datetime | None
    next_reach_at: datetime | None  # the campaign job's pace
    created_at: datetime
    updated_at: datetime


class ClaimedCampaign(CampaignRecord):
    """A campaign as the campaign job claims it, across workspaces: with its workspace."""

    workspace_id: str


CampaignEnrolmentState = Literal["pending", "reached", "skipped"]


class CampaignEnrolmentRecord(TypedDict):
    id: str
    campaign_id: str
    contact_id: str
    state: CampaignEnrolmentState
    skip_reason: str | None  # a CampaignSkipReason value when skipped
    due_at: datetime
    reference: str | None  # what the reach path made of it (a first-touch job's id)
    actor: str | None
    reached_at: datetime | None
    skipped_at: datetime | None
    created_at: datetime
    updated_at: datetime


class CampaignContactRow(CampaignEnrolmentRecord):
    """A campaign enrolment as its list reads it: with when the contact first replied,
    booked and opted out after it was reached (each None when it has not)."""

    replied_at: datetime | None
    booked_at: datetime | None
    opted_out_at: datetime | None


class CampaignCountRow(TypedDict):
    """A campaign's enrolments of one state and skip reason, counted (its counts' read)."""

    state: CampaignEnrolmentState
    skip_reason: str | None
    total: int
    replied: int
    booked: int
    opted_out: int


class DncRegistrationRecord(TypedDict):
    id: str
    phone_e164: str
    registered_at: datetime
    loaded_at: datetime


class EnrolmentRecord(TypedDict):
    id: str
    automation_id: str
    contact_id: str
    status: EnrolmentState
    step_index: int  # the next step to run
    next_run_at: datetime | None
    attempts: int  # failed tries of the current step
    last_error: str | None
    actor: str | None
    finished_at: datetime | None
    step_wait_until: datetime | None  # a text step waiting for a lawful minute, at most to
    created_at: datetime
    updated_at: datetime


class ClaimedEnrolment(EnrolmentRecord):
    """An enrolment as the engine claims it, across workspaces: with its workspace."""

    workspace_id: str


class EnrolmentChanges(TypedDict, total=False):
    """Columns the engine changes as an enrolment advances, fails or finishes."""

    status: EnrolmentState
    step_index: int
    next_run_at: datetime | None
    attempts: int
    last_error: str | None
    finished_at: datetime | None
    step_wait_until: datetime | None
    updated_at: datetime


class StepRunRecord(TypedDict):
    id: str
    enrolment_id: str
    step_index: int
    step_type: str
    outcome: str  # done | blocked | skipped
    detail: str | None
    message_id: str | None
    task_id: str | None
    created_at: datetime
