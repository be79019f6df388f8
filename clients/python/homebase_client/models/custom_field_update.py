from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomFieldUpdate")


@_attrs_define
class CustomFieldUpdate:
    """Any subset of label and choices (a select's). Removing a choice that some record's
    value holds is refused (409, details.choices_in_use): change those values first.

        Attributes:
            label (str | Unset):
            choices (list[str] | Unset): The values a select may hold: 1 to 100 distinct strings of 1 to 80 characters, in
                order.
    """

    label: str | Unset = UNSET
    choices: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        choices: list[str] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = self.choices

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if label is not UNSET:
            field_dict["label"] = label
        if choices is not UNSET:
            field_dict["choices"] = choices

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label", UNSET)

        choices = cast(list[str], d.pop("choices", UNSET))

        custom_field_update = cls(
            label=label,
            choices=choices,
        )

        return custom_field_update
