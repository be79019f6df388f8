from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FailedConditionOut")


@_attrs_define
class FailedConditionOut:
    """
    Attributes:
        condition (str): The rule condition that failed, e.g. source, zip, price_min.
        expected (Any): What the rule asks for.
        actual (Any): What the lead has (null when absent).
        message (str):
    """

    condition: str
    expected: Any
    actual: Any
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        condition = self.condition

        expected = self.expected

        actual = self.actual

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "condition": condition,
                "expected": expected,
                "actual": actual,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        condition = d.pop("condition")

        expected = d.pop("expected")

        actual = d.pop("actual")

        message = d.pop("message")

        failed_condition_out = cls(
            condition=condition,
            expected=expected,
            actual=actual,
            message=message,
        )

        failed_condition_out.additional_properties = d
        return failed_condition_out

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
