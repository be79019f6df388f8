from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_text_step import AiTextStep
    from ..models.create_task_step import CreateTaskStep
    from ..models.move_stage_step import MoveStageStep
    from ..models.send_message_step import SendMessageStep
    from ..models.wait_step import WaitStep


T = TypeVar("T", bound="AutomationNarrowed")


@_attrs_define
class AutomationNarrowed:
    """A Automation narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Automation.

        Attributes:
            id (str):
            name (str | Unset):
            description (None | str | Unset):
            enabled (bool | Unset): Only enabled automations accept enrolments.
            steps (list[AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep] | Unset): Run in order;
                see docs/automations.md.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    name: str | Unset = UNSET
    description: None | str | Unset = UNSET
    enabled: bool | Unset = UNSET
    steps: (
        list[AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep]
        | Unset
    ) = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_task_step import CreateTaskStep
        from ..models.move_stage_step import MoveStageStep
        from ..models.send_message_step import SendMessageStep
        from ..models.wait_step import WaitStep

        id = self.id

        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        steps: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.steps, Unset):
            steps = []
            for steps_item_data in self.steps:
                steps_item: dict[str, Any]
                if (
                    isinstance(steps_item_data, SendMessageStep)
                    or isinstance(steps_item_data, WaitStep)
                    or isinstance(steps_item_data, CreateTaskStep)
                    or isinstance(steps_item_data, MoveStageStep)
                ):
                    steps_item = steps_item_data.to_dict()
                else:
                    steps_item = steps_item_data.to_dict()

                steps.append(steps_item)

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if steps is not UNSET:
            field_dict["steps"] = steps
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_text_step import AiTextStep
        from ..models.create_task_step import CreateTaskStep
        from ..models.move_stage_step import MoveStageStep
        from ..models.send_message_step import SendMessageStep
        from ..models.wait_step import WaitStep

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        _steps = d.pop("steps", UNSET)
        steps: (
            list[
                AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep
            ]
            | Unset
        ) = UNSET
        if _steps is not UNSET:
            steps = []
            for steps_item_data in _steps:

                def _parse_steps_item(
                    data: object,
                ) -> (
                    AiTextStep
                    | CreateTaskStep
                    | MoveStageStep
                    | SendMessageStep
                    | WaitStep
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        steps_item_type_0 = SendMessageStep.from_dict(data)

                        return steps_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        steps_item_type_1 = WaitStep.from_dict(data)

                        return steps_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        steps_item_type_2 = CreateTaskStep.from_dict(data)

                        return steps_item_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        steps_item_type_3 = MoveStageStep.from_dict(data)

                        return steps_item_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    steps_item_type_4 = AiTextStep.from_dict(data)

                    return steps_item_type_4

                steps_item = _parse_steps_item(steps_item_data)

                steps.append(steps_item)

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        automation_narrowed = cls(
            id=id,
            name=name,
            description=description,
            enabled=enabled,
            steps=steps,
            created_at=created_at,
            updated_at=updated_at,
        )

        automation_narrowed.additional_properties = d
        return automation_narrowed

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
