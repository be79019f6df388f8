from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ContactUpdateCustomFields")


@_attrs_define
class ContactUpdateCustomFields:
    """Custom field values by key (GET /v1/custom-fields). On create, the values to set; on update, merged into the
    record's: a key sent replaces its value, null removes it, keys not sent are kept. Each value is checked against its
    field's type; an unknown key or a bad value is 400 naming custom_fields.<key>. At most 100 members; a multi_select
    value at most 50 choices. The record's custom_fields after the write are at most 32768 bytes as compact UTF-8 JSON
    (no spaces, characters as themselves), keyed as GET shows them unmasked: 400 naming custom_fields beyond, unless the
    write does not grow a record already past it.

    """

    additional_properties: dict[str, bool | float | list[str] | None | str] = (
        _attrs_field(init=False, factory=dict)
    )

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if isinstance(prop, list):
                field_dict[prop_name] = prop

            else:
                field_dict[prop_name] = prop

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contact_update_custom_fields = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(
                data: object,
            ) -> bool | float | list[str] | None | str:
                if data is None:
                    return data
                try:
                    if not isinstance(data, list):
                        raise TypeError()
                    additional_property_type_3 = cast(list[str], data)

                    return additional_property_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(bool | float | list[str] | None | str, data)

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        contact_update_custom_fields.additional_properties = additional_properties
        return contact_update_custom_fields

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> bool | float | list[str] | None | str:
        return self.additional_properties[key]

    def __setitem__(
        self, key: str, value: bool | float | list[str] | None | str
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
