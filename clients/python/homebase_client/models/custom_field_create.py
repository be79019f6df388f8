from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.custom_field_object import CustomFieldObject
from ..models.custom_field_type import CustomFieldType
from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomFieldCreate")


@_attrs_define
class CustomFieldCreate:
    """A new custom field of contacts or deals: at most 100 live fields per object
    (409 beyond), its key unique among the object's live fields (409) and never changed.

        Attributes:
            object_ (CustomFieldObject):
            key (str): The name values are sent and filtered by (`custom_fields.<key>`, `custom.<key>=`): a lower-case
                letter, then up to 39 lower-case letters, digits or underscores. Immutable.
            label (str): Display name, 1 to 80 characters.
            type_ (CustomFieldType):
            choices (list[str] | None | Unset):
    """

    object_: CustomFieldObject
    key: str
    label: str
    type_: CustomFieldType
    choices: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        key = self.key

        label = self.label

        type_ = self.type_.value

        choices: list[str] | None | Unset
        if isinstance(self.choices, Unset):
            choices = UNSET
        elif isinstance(self.choices, list):
            choices = self.choices

        else:
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

        type_ = CustomFieldType(d.pop("type"))

        def _parse_choices(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                choices_type_0 = cast(list[str], data)

                return choices_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        choices = _parse_choices(d.pop("choices", UNSET))

        custom_field_create = cls(
            object_=object_,
            key=key,
            label=label,
            type_=type_,
            choices=choices,
        )

        return custom_field_create
