"""The steps an automation is made of, validated the same way when loaded and when run.

Texts and titles may use the placeholders {first_name}, {last_name}, {full_name} and
{persona_name}; anything else in braces is refused when the automation is loaded.
"""

import string
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    field_validator,
    model_validator,
)

from homebase.contacts.records import ContactRecord
from homebase.contacts.schemas import ContactStage
from homebase.kit.emails import header_safe
from homebase.messaging.schemas import MessageChannel

PLACEHOLDERS = frozenset({"first_name", "last_name", "full_name", "persona_name"})
MAX_WAIT_SECONDS = 365 * 86400
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
# SMS, WHATSAPP or EMAIL; lower case accepted, as POST /messages does.
ChannelName = Annotated[
    MessageChannel, BeforeValidator(lambda v: v.upper() if isinstance(v, str) else v)
]


def _check_placeholders(text: str) -> str:
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as error:
        raise ValueError(f"unbalanced braces ({error})") from error
    if names - PLACEHOLDERS:  # not named: an error repeats no submitted text
        raise ValueError(
            "holds a placeholder that is not one of "
            f"{', '.join('{' + name + '}' for name in sorted(PLACEHOLDERS))}"
        )
    return text


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SendMessageStep(_Step):
    """An AI-composed message through a persona: the template, then the persona's
    signature. It passes every compliance gate, as POST /messages does."""

    type: Literal["send_message"]
    persona_id: Id
    channel: ChannelName
    template: Annotated[str, StringConstraints(min_length=1, max_length=1200)]
    subject: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = Field(
        None, description="Email only, and required there. One line."
    )

    @field_validator("subject")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        # It becomes the Subject header, as POST /messages' subject does.
        if value is not None and not header_safe(value):
            raise ValueError("must be one line: no line breaks or control characters")
        return value

    @model_validator(mode="after")
    def _valid(self) -> "SendMessageStep":
        _check_placeholders(self.template)
        if (self.channel == MessageChannel.EMAIL) != (self.subject is not None):
            raise ValueError("subject is required for email and only for email")
        return self


class WaitStep(_Step):
    """Pauses the enrolment; the next step runs on the first tick after the wait."""

    type: Literal["wait"]
    days: Annotated[int, Field(ge=0, le=365)] = 0
    hours: Annotated[int, Field(ge=0, le=8760)] = 0
    minutes: Annotated[int, Field(ge=0, le=525600)] = 0
    seconds: Annotated[int, Field(ge=0, le=MAX_WAIT_SECONDS)] = 0

    @property
    def total_seconds(self) -> int:
        return self.days * 86400 + self.hours * 3600 + self.minutes * 60 + self.seconds

    @model_validator(mode="after")
    def _valid(self) -> "WaitStep":
        if not 0 < self.total_seconds <= MAX_WAIT_SECONDS:
            raise ValueError("a wait lasts more than 0 seconds and at most 365 days")
        return self


class CreateTaskStep(_Step):
    """A follow-up task for a human; assignee_id null means the contact's owner when the
    owner is a member of the workspace."""

    type: Literal["create_task"]
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=160)]
    assignee_id: Id | None = None
    due_in_minutes: Annotated[int, Field(ge=0, le=525600)] | None = None
    notes: Annotated[str, StringConstraints(max_length=2000)] | None = None

    @model_validator(mode="after")
    def _valid(self) -> "CreateTaskStep":
        _check_placeholders(self.title)
        return self


class MoveStageStep(_Step):
    """Moves the contact to this stage through the contacts service (contact.stage_changed
    when it changes)."""

    type: Literal["move_stage"]
    stage: ContactStage


class AiTextStep(_Step):
    """A text the AI composes as the workspace's responder persona (docs/ai.md, "First
    touch and follow-ups"): with its disclosure when due and the opt-out line,
    `ai_generated: true`, through every gate, waiting for the lead's lawful hours. `brief`
    is the workspace's own words for what the text is about, given to the model."""

    type: Literal["ai_text"]
    brief: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


Step = Annotated[
    SendMessageStep | WaitStep | CreateTaskStep | MoveStageStep | AiTextStep,
    Field(discriminator="type"),
]
Steps = Annotated[list[Step], Field(min_length=1, max_length=50)]
STEP = TypeAdapter(Step)


AnyStep = SendMessageStep | WaitStep | CreateTaskStep | MoveStageStep | AiTextStep


# `raw`: a step's stored JSON (AutomationRecord.steps), checked here
def parse(raw: dict[str, Any]) -> AnyStep:
    return STEP.validate_python(raw)


def fill(template: str, contact: ContactRecord, persona_name: str = "") -> str:
    first = contact.get("first_name") or "there"
    last = contact.get("last_name") or ""
    full = " ".join(part for part in (contact.get("first_name"), last) if part) or first
    return template.format_map(
        {"first_name": first, "last_name": last, "full_name": full, "persona_name": persona_name}
    )
