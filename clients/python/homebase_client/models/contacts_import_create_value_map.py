from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ContactsImportCreateValueMap")


@_attrs_define
class ContactsImportCreateValueMap:
    """Values to replace before a row is checked: `{field: {value as found: value or null}}`, a field being `stage`,
    `owner_id` or `custom_fields.<key>`. A found value matches exactly, else ignoring case and surrounding spaces; null
    leaves the member out of the row. An `owner_id` that is no member's id is also looked up as a member's email (any
    case) or full name (when exactly one member has it). At most 1000 values a field.

    """

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        contacts_import_create_value_map = cls()

        return contacts_import_create_value_map
