from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WriteWarning")


@_attrs_define
class WriteWarning:
    """
    Attributes:
        field (str): The member of the body the warning is about.
        code (Literal['phone_not_valid']): phone_not_valid: the phone is not a valid number (phonenumbers'
            is_valid_number, a number without a country code read in the workspace's default_phone_region); it is kept as
            sent, and phone_e164 is what could be read of it (null when nothing).
        message (str):
    """

    field: str
    code: Literal["phone_not_valid"]
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        code = self.code

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "field": field,
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        code = cast(Literal["phone_not_valid"], d.pop("code"))
        if code != "phone_not_valid":
            raise ValueError(f"code must match const 'phone_not_valid', got '{code}'")

        message = d.pop("message")

        write_warning = cls(
            field=field,
            code=code,
            message=message,
        )

        write_warning.additional_properties = d
        return write_warning

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
