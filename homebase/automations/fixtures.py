"""load-fixtures kinds `personas`, `automations` and `campaigns` (docs/fixtures.md).

Items name each other by ref ("persona": "ava") or by id; an invalid definition (an
unknown step type, a persona that does not use the step's channel, an unknown
placeholder, a member who is not in the workspace, a second responder) is refused with
the item's path."""

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)
from sqlalchemy import Table

from homebase.ai import cadence, outreach
from homebase.ai.languages import DEFAULT as DEFAULT_LANGUAGES
from homebase.ai.tools import TOOLS
from homebase.automations import repository
from homebase.automations.persona_texts import CHECKED
from homebase.automations.schemas import CampaignChannel, CampaignStatus
from homebase.automations.steps import ChannelName, Steps
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.errors import AdminError, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.kit.urls import WebUrl
from homebase.messaging.schemas import MessageChannel
from homebase.workspaces import references

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
# The channels an AI responder answers on: it replies to inbound texts.
TEXT_CHANNELS = frozenset({MessageChannel.SMS, MessageChannel.WHATSAPP})


def _text(max_length: int) -> StringConstraints:
    return StringConstraints(strip_whitespace=True, min_length=1, max_length=max_length)


def _e164(value: str) -> str:
    number = to_e164(value)
    if number is None:
        raise ValueError("is not a phone number (E.164, e.g. +14155550100)")
    return number


Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Clock = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
ShowingSpan = Annotated[list[Clock], Field(min_length=2, max_length=2)]
FieldKey = Annotated[str, StringConstraints(min_length=1, max_length=64)]
TagName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


def _tool(name: str) -> str:
    if name not in TOOLS:
        raise ValueError(f"'{name[:40]}' is not a tool: one of {', '.join(TOOLS)}")
    return name


Tool = Annotated[str, AfterValidator(_tool)]


def _duration(text: str) -> str:
    cadence.duration(text)  # raises ValueError naming the value
    return text.strip().upper()


Duration = Annotated[str, StringConstraints(max_length=40), AfterValidator(_duration)]


LanguageCode = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")]
# The persona's own texts, in its fields and in each translation: they may hold the
# placeholders of automations/persona_texts.py; any other is refused, naming the field.
# The disclosure opens a reply, which must still fit its SMS segments (docs/fixtures.md).
Disclosure = Annotated[str, _text(160), CHECKED]
HandoffReply = Annotated[str, _text(300), CHECKED]
Signature = Annotated[str, StringConstraints(max_length=300), CHECKED]


class PersonaTranslation(BaseModel):
    """The persona's texts in one language (docs/ai.md, "The lead's language")."""

    model_config = ConfigDict(extra="forbid")

    disclosure: Disclosure | None = None
    handoff_reply: HandoffReply | None = None
    signature: Signature | None = None
    opt_out_confirmation: Annotated[str, _text(300), CHECKED] | None = None


def _opens_first(hours: dict[str, list[str]]) -> dict[str, list[str]]:
    for day, (opens, closes) in hours.items():
        if opens >= closes:
            raise ValueError(f"{day}: opens at {opens}, which is not before {closes}")
    return hours


class PersonaFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, _text(80)]
    tone: Annotated[str, _text(200)]
    channels: Annotated[list[ChannelName], Field(min_length=1, max_length=3)]
    signature: Signature | None = None
    instructions: Annotated[str, _text(4000)] | None = None
    responder: bool = False
    disclosure: Disclosure | None = None
    handoff_reply: HandoffReply | None = None
    handoff_assignee: Annotated[str, _text(40)] | None = None
    # Minutes of showing hours a handoff's task has before it is due (docs/ai.md).
    handoff_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    links: Annotated[list[WebUrl], Field(max_length=10)] | None = None
    phone: Annotated[str, StringConstraints(max_length=64), AfterValidator(_e164)] | None = None
    # What the AI may do as this persona (docs/ai.md, "Actions"); none when left out.
    actions: Annotated[list[Tool], Field(max_length=len(TOOLS))] | None = None
    showing_hours: Annotated[dict[Day, ShowingSpan], AfterValidator(_opens_first)] | None = None
    showing_minutes: Annotated[int, Field(ge=15, le=240)] | None = None
    qualification_fields: Annotated[list[FieldKey], Field(max_length=20)] | None = None
    tags: Annotated[list[TagName], Field(max_length=30)] | None = None
    # The languages the AI answers in (ISO 639-1; default en, es) and its texts in each.
    languages: Annotated[list[LanguageCode], Field(min_length=1, max_length=20)] | None = None
    translations: dict[LanguageCode, PersonaTranslation] | None = None
    # What the AI sends unasked (docs/ai.md, "First touch and follow-ups"): off unless set.
    first_touch: Literal["off", "text", "call", "text_then_call"] = "off"
    first_touch_delay_seconds: Annotated[int, Field(ge=0, le=86400)] = 30
    call_after_text_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    follow_ups: Annotated[list[Duration], Field(max_length=10)] | None = None
    # AI phone calls (docs/voice.md): off by default; an answering machine is hung up on
    # unless voicemail is "leave".
    voice: bool = False
    voicemail: Literal["hang_up", "leave"] | None = None
    voicemail_text: Annotated[str, _text(500)] | None = None

    @model_validator(mode="after")
    def _translated_languages(self) -> "PersonaFixture":
        languages = self.languages or list(DEFAULT_LANGUAGES)
        for language in self.translations or {}:
            if language not in languages:
                raise ValueError(
                    f"translations: '{language}' is not one of the persona's languages "
                    f"({', '.join(languages)})"
                )
        return self


class AutomationFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    description: Annotated[str, StringConstraints(max_length=500)] | None = None
    enabled: bool = True
    steps: Steps


class CampaignFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    persona_id: str | None = None
    automation_id: str | None = None
    status: CampaignStatus = CampaignStatus.draft
    audience: Annotated[str, StringConstraints(max_length=500)] | None = None
    # What the AI is to achieve, given to its prompt: bounded, as a persona's instructions.
    goal: Annotated[str, _text(1000)] | None = None
    channel: CampaignChannel = CampaignChannel.text
    rate_per_hour: Annotated[int, Field(ge=1, le=3600)] = 30
    ends_at: AwareDatetime | None = None


# `values`: a fixture's checked values (model_dump), the columns of its table
def _stamp(session: TenantSession, prefix: str, values: dict[str, Any]) -> dict[str, Any]:
    now = session.now()
    return {"id": new_id(prefix), **values, "created_at": now, "updated_at": now}


async def _must_exist(session: TenantSession, table: Table, row_id: str | None, what: str) -> None:
    if row_id is not None and not await repository.exists(session, table, row_id):
        raise AdminError(f"{what}: no {what} '{row_id}' in this workspace")


async def _check_responder(session: TenantSession, data: PersonaFixture) -> None:
    """The rules the table cannot say: the handoff assignee is a member; a responder
    answers texts and opens with its disclosure, and a workspace has one (the partial
    unique index holds that too, against a concurrent load)."""
    if data.handoff_assignee is not None and not await references.member_exists(
        session, data.handoff_assignee
    ):
        raise ValidationFailed.for_field(
            "handoff_assignee", f"'{data.handoff_assignee}' is not a member of this workspace"
        )
    if not data.responder:
        for name in ("first_touch", "follow_ups"):
            if getattr(data, name) not in ("off", None, []):
                raise ValidationFailed.for_field(
                    name, "only the responder persona texts unasked: set responder true"
                )
        return
    if data.disclosure is None:
        raise ValidationFailed.for_field("disclosure", "is required when responder is true")
    if data.first_touch in ("call", "text_then_call") and not data.voice:
        raise ValidationFailed.for_field(
            "first_touch", f"'{data.first_touch}' places AI calls: set voice true"
        )
    if not TEXT_CHANNELS.intersection(data.channels):
        raise ValidationFailed.for_field(
            "channels",
            "a responder answers texts: it must use SMS or WHATSAPP "
            f"(it uses {', '.join(dict.fromkeys(channel.value for channel in data.channels))})",
        )
    existing = await repository.responder(session)
    if existing is not None:
        raise ValidationFailed.for_field(
            "responder",
            f"the workspace already has a responder, {existing['name']} ({existing['id']}); "
            "a workspace has at most one",
        )


# `item`: a fixture file's JSON object, checked by PersonaFixture (a boundary)
async def load_persona(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    if isinstance(item.get("handoff_assignee"), str):
        item["handoff_assignee"] = resolve_ref(refs, item["handoff_assignee"], "handoff_assignee")
    data = PersonaFixture.model_validate(item)
    await _check_responder(session, data)
    channels = list(dict.fromkeys(channel.value for channel in data.channels))
    links = None if data.links is None else list(dict.fromkeys(data.links))
    values = {**data.model_dump(), "channels": channels, "links": links}
    for name in ("actions", "qualification_fields", "tags", "languages"):
        values[name] = None if values[name] is None else list(dict.fromkeys(values[name]))
    values["first_touch"] = None if data.first_touch == "off" else data.first_touch
    values["follow_ups"] = data.follow_ups or None
    values["follow_ups_since"] = session.now() if data.follow_ups else None
    if data.translations is not None:
        values["translations"] = {
            language: texts.model_dump(exclude_none=True)
            for language, texts in data.translations.items()
        }
    row = _stamp(session, "prs", values)
    await repository.insert(session, repository.personas, row)
    outreach.forget_responder(session.workspace_id)  # its first touch is read anew
    row_id: str = row["id"]
    return row_id


async def _resolve_steps(session: TenantSession, raw_steps: Any, refs: Refs) -> Any:
    """Refs to ids in the raw steps (persona, assignee) before validation."""
    if not isinstance(raw_steps, list):
        return raw_steps
    resolved = []
    for raw in raw_steps:
        step = dict(raw) if isinstance(raw, dict) else raw
        if isinstance(step, dict):
            if "persona" in step:
                step["persona_id"] = resolve_ref(refs, step.pop("persona"), "persona")
            if "assignee" in step:
                step["assignee_id"] = resolve_ref(refs, step.pop("assignee"), "assignee")
        resolved.append(step)
    return resolved


async def _check_steps(session: TenantSession, data: AutomationFixture) -> None:
    for index, step in enumerate(data.steps):
        where = f"steps.{index}"
        if step.type == "send_message":
            persona = await repository.persona(session, step.persona_id)
            if persona is None:
                raise AdminError(
                    f"{where}.persona: no persona '{step.persona_id}' in this workspace"
                )
            if step.channel.value not in persona["channels"]:
                raise AdminError(
                    f"{where}.channel: persona {persona['name']} does not use "
                    f"{step.channel.value} (it uses {', '.join(persona['channels'])})"
                )
        if step.type == "ai_text" and await repository.responder(session) is None:
            raise AdminError(
                f"{where}: an ai_text step speaks as the workspace's responder persona; "
                "load one first"
            )
        if (
            step.type == "create_task"
            and step.assignee_id is not None
            and not await references.member_exists(session, step.assignee_id)
        ):
            raise AdminError(
                f"{where}.assignee: '{step.assignee_id}' is not a member of this workspace"
            )


# `item`: a fixture file's JSON object, checked by AutomationFixture (a boundary)
async def load_automation(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    item["steps"] = await _resolve_steps(session, item.get("steps"), refs)
    data = AutomationFixture.model_validate(item)
    await _check_steps(session, data)
    row = _stamp(session, "aut", {**data.model_dump(mode="json")})
    await repository.insert(session, repository.automations, row)
    row_id: str = row["id"]
    return row_id


# `item`: a fixture file's JSON object, checked by CampaignFixture (a boundary)
async def load_campaign(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    for name in ("persona", "automation"):
        if name in item:
            item[f"{name}_id"] = resolve_ref(refs, item.pop(name), name)
    data = CampaignFixture.model_validate(item)
    await _must_exist(session, repository.personas, data.persona_id, "persona")
    await _must_exist(session, repository.automations, data.automation_id, "automation")
    values = {**data.model_dump(mode="json"), "ends_at": data.ends_at, "next_reach_at": None}
    row = _stamp(session, "cmp", values)
    await repository.insert(session, repository.campaigns, row)
    row_id: str = row["id"]
    return row_id
