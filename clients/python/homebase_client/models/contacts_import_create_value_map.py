from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ContactsImportCreateValueMap")


@_attrs_define
class ContactsImportCreateValueMap:
    """Values to replace before a row is checked: `{field: {value as found: value or null}}`, a field being `stage`,
    `owner_id` or `custom_fields.<key>`. A found value matches exactly, else ignoring case and surrounding spaces; null
    leaves the member out of the row. An `owner_id` that is no member's id is also looked up as a member's email (any
    case) or full name (when exactly one member has it). At most 1000 values a field.

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contacts_import_create_value_map = cls()

        contacts_import_create_value_map.additional_properties = d
        return contacts_import_create_value_map

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
