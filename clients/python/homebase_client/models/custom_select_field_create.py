from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.custom_field_object import CustomFieldObject
from ..models.custom_select_field_create_type import CustomSelectFieldCreateType

T = TypeVar("T", bound="CustomSelectFieldCreate")


@_attrs_define
class CustomSelectFieldCreate:
    """A single_select or multi_select field: its choices are required.

    Attributes:
        object_ (CustomFieldObject):
        key (str): The name values are sent and filtered by (`custom_fields.<key>`, `custom.<key>=`): a lower-case
            letter, then up to 39 lower-case letters, digits or underscores. Immutable.
        label (str): Display name, 1 to 80 characters.
        type_ (CustomSelectFieldCreateType): What values hold: text (1 to 1000 characters, trimmed), number (a finite
            JSON number, at most 1e15 in magnitude), date (YYYY-MM-DD), boolean, single_select (one of choices),
            multi_select (an array of at most 50 distinct choices). Never changes.
        choices (list[str]): The values a select may hold: 1 to 100 distinct strings of 1 to 80 characters, in order.
    """

    object_: CustomFieldObject
    key: str
    label: str
    type_: CustomSelectFieldCreateType
    choices: list[str]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        key = self.key

        label = self.label

        type_ = self.type_.value

        choices = self.choices

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "key": key,
                "label": label,
                "type": type_,
                "choices": choices,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = CustomFieldObject(d.pop("object"))

        key = d.pop("key")

        label = d.pop("label")

        type_ = CustomSelectFieldCreateType(d.pop("type"))

        choices = cast(list[str], d.pop("choices"))

        custom_select_field_create = cls(
            object_=object_,
            key=key,
            label=label,
            type_=type_,
            choices=choices,
        )

        return custom_select_field_create
