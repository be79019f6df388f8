from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FieldError")


@_attrs_define
class FieldError:
    """One failing field of a validation_failed error.

    Attributes:
        field (str): Dotted path of the member (`tags.1`), or the query parameter's name.
        in_ (str): `body` or `query` (`header` for a malformed Content-Length).
        message (str): Why it failed.
        type_ (str): A stable machine-readable kind, e.g. missing, extra_forbidden, string_too_long, value_error.
    """

    field: str
    in_: str
    message: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        in_ = self.in_

        message = self.message

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "field": field,
                "in": in_,
                "message": message,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        in_ = d.pop("in")

        message = d.pop("message")

        type_ = d.pop("type")

        field_error = cls(
            field=field,
            in_=in_,
            message=message,
            type_=type_,
        )

        field_error.additional_properties = d
        return field_error

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
