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

from ..models.contact_stage import ContactStage

T = TypeVar("T", bound="MoveStageStep")


@_attrs_define
class MoveStageStep:
    """Moves the contact to this stage through the contacts service (contact.stage_changed
    when it changes).

        Attributes:
            type_ (Literal['move_stage']):
            stage (ContactStage):
    """

    type_: Literal["move_stage"]
    stage: ContactStage

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        stage = self.stage.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "stage": stage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["move_stage"], d.pop("type"))
        if type_ != "move_stage":
            raise ValueError(f"type must match const 'move_stage', got '{type_}'")

        stage = ContactStage(d.pop("stage"))

        move_stage_step = cls(
            type_=type_,
            stage=stage,
        )

        return move_stage_step
