from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.o_auth_error_body_error import OAuthErrorBodyError

T = TypeVar("T", bound="OAuthErrorBody")


@_attrs_define
class OAuthErrorBody:
    """
    Attributes:
        error (OAuthErrorBodyError):
        error_description (str):
    """

    error: OAuthErrorBodyError
    error_description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error.value

        error_description = self.error_description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "error_description": error_description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        error = OAuthErrorBodyError(d.pop("error"))

        error_description = d.pop("error_description")

        o_auth_error_body = cls(
            error=error,
            error_description=error_description,
        )

        o_auth_error_body.additional_properties = d
        return o_auth_error_body

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
