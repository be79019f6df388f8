from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.pipeline_stage import PipelineStage


T = TypeVar("T", bound="Pipeline")


@_attrs_define
class Pipeline:
    """
    Attributes:
        id (str):
        key (str): Stable name within the workspace: buyer, seller, ...
        name (str):
        position (int): Display order among the workspace's pipelines.
        stages (list[PipelineStage]): In order.
        created_at (datetime.datetime):
    """

    id: str
    key: str
    name: str
    position: int
    stages: list[PipelineStage]
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        key = self.key

        name = self.name

        position = self.position

        stages = []
        for stages_item_data in self.stages:
            stages_item = stages_item_data.to_dict()
            stages.append(stages_item)

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "key": key,
                "name": name,
                "position": position,
                "stages": stages,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pipeline_stage import PipelineStage

        d = dict(src_dict)
        id = d.pop("id")

        key = d.pop("key")

        name = d.pop("name")

        position = d.pop("position")

        stages = []
        _stages = d.pop("stages")
        for stages_item_data in _stages:
            stages_item = PipelineStage.from_dict(stages_item_data)

            stages.append(stages_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        pipeline = cls(
            id=id,
            key=key,
            name=name,
            position=position,
            stages=stages,
            created_at=created_at,
        )

        pipeline.additional_properties = d
        return pipeline

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
