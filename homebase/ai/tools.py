"""The tools the model may call (docs/ai.md, "Actions"): their definitions for the Chat
Completions `tools` member and the validation of every call's arguments, in code, for
every provider (some servers ignore `strict`).

A persona's `actions` names the tools it may use; a persona without actions is offered
none and answers as it always has. Each definition is strict-mode valid: every object
closed (`additionalProperties: false`) with every property required, no open object
anywhere. A tool's enums come from the persona (its `qualification_fields`, its `tags`),
so the model is told the only values the service takes; the service checks them again.

Pure: no I/O. `parsed` turns a call into a typed Action or the reason it is refused,
which the service answers as the call's tool result.
"""

import json
from datetime import datetime
from typing import Annotated, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from homebase.ai.prompt import JsonSchema, ToolCall, ToolDefinition

BOOK = "book_showing"
RESCHEDULE = "reschedule_showing"
CANCEL = "cancel_showing"
QUALIFY = "set_qualification"
STAGE = "set_stage"
TAGS = "add_tags"
TASK = "create_follow_up_task"
OPT_OUT = "opt_out"
HAND_OFF = "hand_off"
TOOLS = (BOOK, RESCHEDULE, CANCEL, QUALIFY, STAGE, TAGS, TASK, OPT_OUT, HAND_OFF)
STAGES = ("HOT_LEAD", "NURTURE")
URGENCIES = ("low", "normal", "high")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _moment(value: str) -> datetime:
    """An ISO 8601 time with its UTC offset: a time without one is refused, never guessed."""
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("must be an ISO 8601 date and time with its UTC offset") from None
    if moment.tzinfo is None:
        raise ValueError("must carry its UTC offset, e.g. 2026-12-05T11:00:00-05:00")
    return moment


class Book(_Arguments):
    listing_id: Id
    starts_at: Annotated[str, StringConstraints(max_length=40)]

    def start(self) -> datetime:
        return _moment(self.starts_at)


class Reschedule(_Arguments):
    appointment_id: Id
    starts_at: Annotated[str, StringConstraints(max_length=40)]

    def start(self) -> datetime:
        return _moment(self.starts_at)


class Cancel(_Arguments):
    appointment_id: Id


class Pair(_Arguments):
    key: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    value: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class Qualify(_Arguments):
    values: Annotated[list[Pair], Field(min_length=1, max_length=10)]


class Stage(_Arguments):
    stage: Literal["HOT_LEAD", "NURTURE"]


class Tags(_Arguments):
    tags: Annotated[list[Annotated[str, StringConstraints(max_length=40)]], Field(min_length=1)]


class Task(_Arguments):
    due_at: Annotated[str, StringConstraints(max_length=40)]
    note: Text

    def due(self) -> datetime:
        return _moment(self.due_at)


class OptOut(_Arguments):
    pass


class HandOff(_Arguments):
    reason: Text
    summary: Text
    urgency: Literal["low", "normal", "high"]


ARGUMENTS: dict[str, type[_Arguments]] = {
    BOOK: Book,
    RESCHEDULE: Reschedule,
    CANCEL: Cancel,
    QUALIFY: Qualify,
    STAGE: Stage,
    TAGS: Tags,
    TASK: Task,
    OPT_OUT: OptOut,
    HAND_OFF: HandOff,
}
Action = Book | Reschedule | Cancel | Qualify | Stage | Tags | Task | OptOut | HandOff


def parsed(call: ToolCall, allowed: tuple[str, ...]) -> tuple[Action | None, str | None]:
    """(the call's arguments, typed, None) or (None, why it is refused): a tool the
    persona does not allow, arguments that are not a JSON object, a member missing, extra
    or of the wrong type, a time without its offset."""
    model = ARGUMENTS.get(call.name)
    if model is None or call.name not in allowed:
        return None, f"{call.name} is not a tool you may use"
    try:
        data = json.loads(call.arguments or "{}")
    except ValueError:
        return None, "the arguments are not JSON"
    if not isinstance(data, dict):
        return None, "the arguments are not a JSON object"
    try:
        action = cast(Action, model.model_validate(data))
        if isinstance(action, Book | Reschedule):
            action.start()
        if isinstance(action, Task):
            action.due()
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'arguments'}: {item['msg']}"
            for item in error.errors()[:5]
        )
        return None, f"invalid arguments ({problems})"
    except ValueError as error:
        return None, f"invalid arguments ({error})"
    return action, None


def _closed(properties: dict[str, JsonSchema]) -> JsonSchema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _function(name: str, description: str, properties: dict[str, JsonSchema]) -> ToolDefinition:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "strict": True,
            "parameters": _closed(properties),
        },
    }


_TIME = "ISO 8601 with the UTC offset, e.g. 2026-12-05T11:00:00-05:00"


def definitions(
    actions: tuple[str, ...], *, qualification_fields: tuple[str, ...], tags: tuple[str, ...]
) -> tuple[ToolDefinition, ...]:
    """The `tools` member for a persona's actions, in TOOLS order. A tool whose enum
    would be empty (no qualification fields, no tags) is not offered."""
    string: JsonSchema = {"type": "string"}
    specs: dict[str, ToolDefinition] = {
        BOOK: _function(
            BOOK,
            "Book a showing of a listing for the lead at one of the free slots. Call it only "
            "when the lead has agreed to a day and time.",
            {
                "listing_id": {**string, "description": "The listing's id."},
                "starts_at": {**string, "description": f"The slot's start, {_TIME}."},
            },
        ),
        RESCHEDULE: _function(
            RESCHEDULE,
            "Move one of the lead's upcoming showings to another free slot.",
            {
                "appointment_id": {**string, "description": "The appointment's id."},
                "starts_at": {**string, "description": f"The new start, {_TIME}."},
            },
        ),
        CANCEL: _function(
            CANCEL,
            "Cancel one of the lead's upcoming showings, when the lead asks to.",
            {"appointment_id": {**string, "description": "The appointment's id."}},
        ),
        STAGE: _function(
            STAGE,
            "Mark the lead HOT_LEAD (ready to act soon) or NURTURE (interested, not soon).",
            {"stage": {"type": "string", "enum": list(STAGES)}},
        ),
        TASK: _function(
            TASK,
            "Create a follow-up task for the lead's agent.",
            {
                "due_at": {**string, "description": f"When it is due, {_TIME}."},
                "note": {**string, "description": "What to follow up on, briefly."},
            },
        ),
        OPT_OUT: _function(
            OPT_OUT,
            "The lead asks, in any words or language, to stop receiving messages or to be "
            "left alone. Nothing else of your answer is sent.",
            {},
        ),
        HAND_OFF: _function(
            HAND_OFF,
            "Hand the conversation to a person on the team.",
            {
                "reason": {**string, "description": "Why a person should take over."},
                "summary": {**string, "description": "What the lead wants, in a sentence."},
                "urgency": {"type": "string", "enum": list(URGENCIES)},
            },
        ),
    }
    if qualification_fields:
        pair = _closed(
            {
                "key": {"type": "string", "enum": list(qualification_fields)},
                "value": {
                    **string,
                    "description": "As text: a choice's exact words, a number's digits, "
                    "true or false.",
                },
            }
        )
        specs[QUALIFY] = _function(
            QUALIFY,
            "Record what the lead told you about their search.",
            {"values": {"type": "array", "items": pair}},
        )
    if tags:
        specs[TAGS] = _function(
            TAGS,
            "Tag the lead.",
            {"tags": {"type": "array", "items": {"type": "string", "enum": list(tags)}}},
        )
    return tuple(specs[name] for name in TOOLS if name in actions and name in specs)
