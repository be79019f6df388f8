from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RuleRef")


@_attrs_define
class RuleRef:
    """
    Attributes:
        id (str):
        name (str):
        position (int):
        method (str): agent, round_robin or first_available.
        is_fallback (bool):
    """

    id: str
    name: str
    position: int
    method: str
    is_fallback: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        position = self.position

        method = self.method

        is_fallback = self.is_fallback

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "position": position,
                "method": method,
                "is_fallback": is_fallback,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        position = d.pop("position")

        method = d.pop("method")

        is_fallback = d.pop("is_fallback")

        rule_ref = cls(
            id=id,
            name=name,
            position=position,
            method=method,
            is_fallback=is_fallback,
        )

        rule_ref.additional_properties = d
        return rule_ref

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
