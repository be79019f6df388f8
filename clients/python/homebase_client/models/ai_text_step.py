from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="AiTextStep")


@_attrs_define
class AiTextStep:
    """A text the AI composes as the workspace's responder persona (docs/ai.md, "First
    touch and follow-ups"): with its disclosure when due and the opt-out line,
    `ai_generated: true`, through every gate, waiting for the lead's lawful hours. `brief`
    is the workspace's own words for what the text is about, given to the model.

        Attributes:
            type_ (Literal['ai_text']):
            brief (str):
    """

    type_: Literal["ai_text"]
    brief: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        brief = self.brief

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "brief": brief,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["ai_text"], d.pop("type"))
        if type_ != "ai_text":
            raise ValueError(f"type must match const 'ai_text', got '{type_}'")

        brief = d.pop("brief")

        ai_text_step = cls(
            type_=type_,
            brief=brief,
        )

        return ai_text_step
