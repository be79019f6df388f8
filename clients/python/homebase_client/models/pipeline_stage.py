from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PipelineStage")


@_attrs_define
class PipelineStage:
    """
    Attributes:
        id (str):
        key (str):
        name (str):
        position (int): Order within the pipeline, from 0.
        probability (int | None): Chance of closing from this stage, percent.
    """

    id: str
    key: str
    name: str
    position: int
    probability: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        key = self.key

        name = self.name

        position = self.position

        probability: int | None
        probability = self.probability

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "key": key,
                "name": name,
                "position": position,
                "probability": probability,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        key = d.pop("key")

        name = d.pop("name")

        position = d.pop("position")

        def _parse_probability(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        probability = _parse_probability(d.pop("probability"))

        pipeline_stage = cls(
            id=id,
            key=key,
            name=name,
            position=position,
            probability=probability,
        )

        pipeline_stage.additional_properties = d
        return pipeline_stage

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
