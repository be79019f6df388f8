from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_text_step import AiTextStep
    from ..models.create_task_step import CreateTaskStep
    from ..models.move_stage_step import MoveStageStep
    from ..models.send_message_step import SendMessageStep
    from ..models.wait_step import WaitStep


T = TypeVar("T", bound="Automation")


@_attrs_define
class Automation:
    """
    Attributes:
        id (str):
        name (str):
        description (None | str):
        enabled (bool): Only enabled automations accept enrolments.
        steps (list[AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep]): Run in order; see
            docs/automations.md.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    description: None | str
    enabled: bool
    steps: list[
        AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep
    ]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_task_step import CreateTaskStep
        from ..models.move_stage_step import MoveStageStep
        from ..models.send_message_step import SendMessageStep
        from ..models.wait_step import WaitStep

        id = self.id

        name = self.name

        description: None | str
        description = self.description

        enabled = self.enabled

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

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "description": description,
                "enabled": enabled,
                "steps": steps,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

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

        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        enabled = d.pop("enabled")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:

            def _parse_steps_item(
                data: object,
            ) -> (
                AiTextStep | CreateTaskStep | MoveStageStep | SendMessageStep | WaitStep
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

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        automation = cls(
            id=id,
            name=name,
            description=description,
            enabled=enabled,
            steps=steps,
            created_at=created_at,
            updated_at=updated_at,
        )

        automation.additional_properties = d
        return automation

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
