from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, with_config
from pydantic.config import JsonDict, JsonValue
from typing_extensions import TypedDict

from homebase.automations.steps import Step
from homebase.kit.wire import WireTime
from homebase.messaging.schemas import MessageChannel

Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
_WHEN = "2026-11-20T17:04:05.123Z"
_PERSONA_ID = "prs_01jd3v6k8h2k3m4n5p6q7r8s9t"
_AUTOMATION_ID = "aut_01jd3v6k8h2k3m4n5p6q7r8s9t"
_CONTACT_ID = "con_01jd3v6k8h2k3m4n5p6q7r8s9t"


class CampaignStatus(StrEnum):
    draft = "draft"
    active = "active"
    paused = "paused"
    completed = "completed"


class CampaignChannel(StrEnum):
    """How a campaign reaches a contact: a text, a call, or a text and then a call when
    the text draws no answer (the AI's first-touch path decides the call's time)."""

    text = "text"
    call = "call"
    text_then_call = "text_then_call"


class EnrolmentStatus(StrEnum):
    active = "active"
    completed = "completed"
    stopped = "stopped"
    failed = "failed"


# What the AI does on an answering machine (docs/voice.md).
VoicemailChoice = Literal["hang_up", "leave"]


class PersonaAction(StrEnum):
    """A tool the AI may call as a persona (docs/ai.md, "Actions")."""

    book_showing = "book_showing"
    reschedule_showing = "reschedule_showing"
    cancel_showing = "cancel_showing"
    set_qualification = "set_qualification"
    set_stage = "set_stage"
    add_tags = "add_tags"
    create_follow_up_task = "create_follow_up_task"
    opt_out = "opt_out"
    hand_off = "hand_off"


class PersonaFirstTouch(StrEnum):
    """What the responder persona sends a new lead unasked (docs/ai.md, "First touch
    and follow-ups"; docs/voice.md): nothing (`off`, the default), a text, an AI call,
    or a text and, when it goes unanswered, a call."""

    off = "off"
    text = "text"
    call = "call"
    text_then_call = "text_then_call"


# A persona as GET /v1/personas/{id} sends it (render.persona). No docstring: it would
# become the schema's description.
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": _PERSONA_ID,
                "name": "Ava",
                "tone": "warm, brief, never pushy",
                "channels": ["SMS", "EMAIL"],
                "signature": "Ava, Reyes Realty assistant",
                "instructions": (
                    "Qualify buyers and sellers and offer showings of our listings. "
                    "Never quote commission or give legal or lending advice."
                ),
                "responder": True,
                "disclosure": "Automated assistant for {agent_name}, writing on their behalf.",
                "handoff_reply": "Thanks! {agent_first_name} will text you back shortly.",
                "handoff_assignee": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "handoff_minutes": 15,
                "links": ["https://reyes-realty.example.com/"],
                "phone": "+14155550100",
                "actions": ["book_showing", "set_qualification", "hand_off"],
                "showing_hours": {
                    "mon": ["09:00", "18:00"],
                    "sat": ["10:00", "16:00"],
                },
                "showing_minutes": 30,
                "qualification_fields": ["timeline", "pre_approved"],
                "tags": ["buyer", "relocating"],
                "languages": ["en", "es"],
                "translations": {
                    "es": {
                        "disclosure": "Asistente automatizado de {agent_name}.",
                        "signature": "Ava, Reyes Realty",
                    }
                },
                "first_touch": "text",
                "first_touch_delay_seconds": 30,
                "call_after_text_minutes": 10,
                "follow_ups": ["PT10M", "P1D", "P3D", "P7D", "P30D"],
                "voice": True,
                "voicemail": "leave",
                "voicemail_text": None,
                "created_at": _WHEN,
                "updated_at": _WHEN,
            }
        ]
    }
)
class Persona(TypedDict):
    id: str
    name: str
    tone: Annotated[str, Field(description="How the persona writes.")]
    channels: Annotated[list[MessageChannel], Field(description="Where its messages may go.")]
    signature: Annotated[str | None, Field(description="Appended to every message it sends.")]
    instructions: Annotated[
        str | None,
        Field(
            description="What the AI is for and must not do, given to the model as its "
            "instructions."
        ),
    ]
    responder: Annotated[
        bool,
        Field(
            description="True for the workspace's AI responder (at most one): the persona the AI "
            "answers leads' inbound texts as."
        ),
    ]
    disclosure: Annotated[
        str | None,
        Field(
            description="Opens the responder's first reply: says an automated assistant is "
            "writing, and for whom. Up to 160 characters. It, handoff_reply and signature may "
            "hold {agent_first_name}, {agent_name} (the contact's owner, else the workspace's "
            "name), {persona_name} and {workspace_name}."
        ),
    ]
    handoff_reply: Annotated[
        str | None,
        Field(description="What the responder answers when it hands the conversation to a person."),
    ]
    handoff_assignee: Annotated[
        str | None,
        Field(
            description="The workspace member a handed-off conversation goes to when the "
            "contact has no owner (a user id)."
        ),
    ]
    handoff_minutes: Annotated[
        int,
        Field(
            description="Minutes, counted inside showing_hours, before a handoff's task is "
            "due (default 15)."
        ),
    ]
    links: Annotated[
        list[str],
        Field(
            description="The page URLs (absolute http or https) the responder's replies may "
            "carry, besides the workspace's listings' own `url`; empty when none."
        ),
    ]
    phone: Annotated[
        str | None,
        Field(
            description="The persona's business number in E.164, the one number its replies may "
            "give. The business's, not a contact's: never masked."
        ),
    ]
    actions: Annotated[
        list[PersonaAction],
        Field(
            description='The tools the AI may use as this persona (docs/ai.md, "Actions"); '
            "empty: it only answers, acting on nothing."
        ),
    ]
    showing_hours: Annotated[
        dict[str, list[str]],
        Field(
            description="When showings may be booked, by weekday (mon ... sun) as [opens, "
            "closes] in the workspace's time_zone; a day left out has none. Default Monday to "
            "Saturday 09:00-18:00."
        ),
    ]
    showing_minutes: Annotated[int, Field(description="How long a showing the AI books lasts.")]
    qualification_fields: Annotated[
        list[str],
        Field(description="The contact custom fields (keys) set_qualification may write."),
    ]
    tags: Annotated[list[str], Field(description="The only tags add_tags may add.")]
    languages: Annotated[
        list[str],
        Field(
            description="The languages (ISO 639-1) the AI answers in (default en, es); a lead "
            "writing in another is handed to a person."
        ),
    ]
    translations: Annotated[
        dict[str, dict[str, str]],
        Field(
            description="By language, the persona's disclosure, handoff_reply, signature and "
            "opt_out_confirmation in it; a text left out is the persona's own field."
        ),
    ]
    first_touch: Annotated[
        PersonaFirstTouch,
        Field(
            description="What the responder sends a lead created with consent on record "
            "(ai_outbound_allowed), unasked, inside the lawful hours of the lead's number: `off` "
            "(the default); `text`, the AI's first text with the disclosure and the opt-out line, "
            "first_touch_delay_seconds after the lead; `call`, an AI call then instead (with "
            "consent to an artificial voice, ai_voice, and the persona's voice on); "
            "`text_then_call`, the text, then a call call_after_text_minutes later if the lead "
            "has not answered it."
        ),
    ]
    first_touch_delay_seconds: Annotated[
        int,
        Field(description="Seconds after the lead's creation its first touch is due (default 30)."),
    ]
    call_after_text_minutes: Annotated[
        int,
        Field(
            description="With first_touch `text_then_call` (or a `text_then_call` campaign): "
            "minutes after the AI's text, unanswered, that it calls (default 10)."
        ),
    ]
    follow_ups: Annotated[
        list[str],
        Field(
            description="ISO 8601 durations (e.g. PT10M, P1D): each a follow-up text, measured "
            "from the AI's previous text the lead has not answered; empty: none."
        ),
    ]
    voice: Annotated[
        bool,
        Field(
            description="Whether the AI places and answers phone calls as this persona "
            "(docs/voice.md); false by default."
        ),
    ]
    voicemail: Annotated[
        VoicemailChoice,
        Field(
            description="On an answering machine: hang_up (the default), or leave "
            "voicemail_text, opened by the call's disclosure."
        ),
    ]
    voicemail_text: Annotated[
        str | None,
        Field(description="The short message left on an answering machine; null: the service's."),
    ]
    created_at: WireTime
    updated_at: WireTime


_STEPS_EXAMPLE: list[JsonValue] = [
    {
        "type": "send_message",
        "persona_id": _PERSONA_ID,
        "channel": "SMS",
        "template": "Hi {first_name}, thanks for asking about the home on Elm St. Any questions?",
        "subject": None,
    },
    {"type": "wait", "days": 2, "hours": 0, "minutes": 0, "seconds": 0},
    {
        "type": "create_task",
        "title": "Call {full_name}",
        "assignee_id": None,
        "due_in_minutes": 60,
        "notes": None,
    },
    {"type": "move_stage", "stage": "NURTURE"},
]


class Automation(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": _AUTOMATION_ID,
                    "name": "New buyer lead follow-up",
                    "description": "Text, wait two days, hand to the agent.",
                    "enabled": True,
                    "steps": _STEPS_EXAMPLE,
                    "created_at": _WHEN,
                    "updated_at": _WHEN,
                }
            ]
        }
    )

    id: str
    name: str
    description: str | None
    enabled: bool = Field(description="Only enabled automations accept enrolments.")
    steps: list[Step] = Field(description="Run in order; see docs/automations.md.")
    created_at: datetime
    updated_at: datetime


# A campaign as GET /v1/campaigns/{id} sends it (render.campaign).
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "cmp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "name": "Spring open houses",
                "persona_id": _PERSONA_ID,
                "automation_id": _AUTOMATION_ID,
                "status": "active",
                "audience": "Buyer leads from Zillow in the last 30 days",
                "goal": "Invite them to Saturday's open house at 12 Elm St and offer a "
                "private showing instead.",
                "channel": "text",
                "rate_per_hour": 30,
                "ends_at": "2026-12-20T00:00:00.000Z",
                "created_at": _WHEN,
                "updated_at": _WHEN,
            }
        ]
    }
)
class Campaign(TypedDict):
    id: str
    name: str
    persona_id: str | None
    automation_id: str | None
    status: CampaignStatus
    audience: Annotated[str | None, Field(description="Who the campaign is for, in words.")]
    goal: Annotated[
        str | None,
        Field(
            description="What the AI is to achieve with each contact, given to its prompt "
            "when it reaches them (up to 1,000 characters)."
        ),
    ]
    channel: Annotated[CampaignChannel, Field(description="How each contact is reached.")]
    rate_per_hour: Annotated[
        int,
        Field(
            description="At most this many contacts are reached an hour (1 to 3,600), "
            "spread evenly: one every 3600 / rate_per_hour seconds."
        ),
    ]
    ends_at: Annotated[
        WireTime | None,
        Field(
            description="From this time no contact is reached: those still pending are "
            "skipped (campaign_ended). Null: the campaign has no end date."
        ),
    ]
    created_at: WireTime
    updated_at: WireTime


class EnrollRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"contact_id": _CONTACT_ID}]}
    )

    contact_id: Id = Field(description="A contact of this workspace.")


_ENROLMENT_EXAMPLE: JsonDict = {
    "id": "enr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "automation_id": _AUTOMATION_ID,
    "contact_id": _CONTACT_ID,
    "status": "active",
    "step_index": 0,
    "next_run_at": _WHEN,
    "attempts": 0,
    "last_error": None,
    "finished_at": None,
    "created_at": _WHEN,
    "updated_at": _WHEN,
}


# An enrolment as GET /v1/automations/{id}/enrolments lists it (render.enrolment).
@with_config(json_schema_extra={"examples": [_ENROLMENT_EXAMPLE]})
class Enrolment(TypedDict):
    id: str
    automation_id: str
    contact_id: str
    status: EnrolmentStatus
    step_index: Annotated[int, Field(description="The next step to run, from 0.")]
    next_run_at: Annotated[
        WireTime | None, Field(description="When the engine runs it next; null once finished.")
    ]
    attempts: Annotated[
        int,
        Field(description="Failed tries of the current step (retried with backoff, then failed)."),
    ]
    last_error: str | None
    finished_at: WireTime | None
    created_at: WireTime
    updated_at: WireTime


@with_config(json_schema_extra={"examples": [{**_ENROLMENT_EXAMPLE, "created": True}]})
class EnrollResponse(Enrolment):
    created: Annotated[
        bool,
        Field(
            description="false: the contact already had an active enrolment "
            "in this automation; this is that enrolment."
        ),
    ]


class EnrolmentFilters(BaseModel):
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    status: EnrolmentStatus | None = None
