from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.custom_field_object import CustomFieldObject
from ..models.custom_plain_field_create_type import CustomPlainFieldCreateType
from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomPlainFieldCreate")


@_attrs_define
class CustomPlainFieldCreate:
    """A text, number, date or boolean field: it has no choices.

    Attributes:
        object_ (CustomFieldObject):
        key (str): The name values are sent and filtered by (`custom_fields.<key>`, `custom.<key>=`): a lower-case
            letter, then up to 39 lower-case letters, digits or underscores. Immutable.
        label (str): Display name, 1 to 80 characters.
        type_ (CustomPlainFieldCreateType): What values hold: text (1 to 1000 characters, trimmed), number (a finite
            JSON number, at most 1e15 in magnitude), date (YYYY-MM-DD), boolean, single_select (one of choices),
            multi_select (an array of at most 50 distinct choices). Never changes.
        choices (None | Unset): Only a select has choices: null or left out here (a list is 400 naming choices).
    """

    object_: CustomFieldObject
    key: str
    label: str
    type_: CustomPlainFieldCreateType
    choices: None | Unset = UNSET

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
            }
        )
        if choices is not UNSET:
            field_dict["choices"] = choices

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = CustomFieldObject(d.pop("object"))

        key = d.pop("key")

        label = d.pop("label")

        type_ = CustomPlainFieldCreateType(d.pop("type"))

        choices = d.pop("choices", UNSET)

        custom_plain_field_create = cls(
            object_=object_,
            key=key,
            label=label,
            type_=type_,
            choices=choices,
        )

        return custom_plain_field_create
