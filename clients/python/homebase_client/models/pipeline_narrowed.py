from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pipeline_stage import PipelineStage


T = TypeVar("T", bound="PipelineNarrowed")


@_attrs_define
class PipelineNarrowed:
    """A Pipeline narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Pipeline.

        Attributes:
            id (str):
            key (str | Unset): Stable name within the workspace: buyer, seller, ...
            name (str | Unset):
            position (int | Unset): Display order among the workspace's pipelines.
            stages (list[PipelineStage] | Unset): In order.
            created_at (datetime.datetime | Unset):
    """

    id: str
    key: str | Unset = UNSET
    name: str | Unset = UNSET
    position: int | Unset = UNSET
    stages: list[PipelineStage] | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        key = self.key

        name = self.name

        position = self.position

        stages: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.stages, Unset):
            stages = []
            for stages_item_data in self.stages:
                stages_item = stages_item_data.to_dict()
                stages.append(stages_item)

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if key is not UNSET:
            field_dict["key"] = key
        if name is not UNSET:
            field_dict["name"] = name
        if position is not UNSET:
            field_dict["position"] = position
        if stages is not UNSET:
            field_dict["stages"] = stages
        if created_at is not UNSET:
            field_dict["created_at"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pipeline_stage import PipelineStage

        d = dict(src_dict)
        id = d.pop("id")

        key = d.pop("key", UNSET)

        name = d.pop("name", UNSET)

        position = d.pop("position", UNSET)

        _stages = d.pop("stages", UNSET)
        stages: list[PipelineStage] | Unset = UNSET
        if _stages is not UNSET:
            stages = []
            for stages_item_data in _stages:
                stages_item = PipelineStage.from_dict(stages_item_data)

                stages.append(stages_item)

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        pipeline_narrowed = cls(
            id=id,
            key=key,
            name=name,
            position=position,
            stages=stages,
            created_at=created_at,
        )

        pipeline_narrowed.additional_properties = d
        return pipeline_narrowed

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
