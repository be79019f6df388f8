from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.custom_field_object import CustomFieldObject
from ..models.custom_field_type import CustomFieldType

T = TypeVar("T", bound="CustomField")


@_attrs_define
class CustomField:
    """
    Attributes:
        id (str):
        object_ (CustomFieldObject):
        key (str):
        label (str):
        type_ (CustomFieldType):
        choices (list[str] | None): A select's choices, in order; else null.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    object_: CustomFieldObject
    key: str
    label: str
    type_: CustomFieldType
    choices: list[str] | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        key = self.key

        label = self.label

        type_ = self.type_.value

        choices: list[str] | None
        if isinstance(self.choices, list):
            choices = self.choices

        else:
            choices = self.choices

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "key": key,
                "label": label,
                "type": type_,
                "choices": choices,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = CustomFieldObject(d.pop("object"))

        key = d.pop("key")

        label = d.pop("label")

        type_ = CustomFieldType(d.pop("type"))

        def _parse_choices(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                choices_type_0 = cast(list[str], data)

                return choices_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        choices = _parse_choices(d.pop("choices"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        custom_field = cls(
            id=id,
            object_=object_,
            key=key,
            label=label,
            type_=type_,
            choices=choices,
            created_at=created_at,
            updated_at=updated_at,
        )

        custom_field.additional_properties = d
        return custom_field

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
