from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_error import FieldError


T = TypeVar("T", bound="ErrorDetails")


@_attrs_define
class ErrorDetails:
    """Members by error code; other codes may add their own (compliance_blocked:
    message_id, status, recorded, reason). `remedy` is on every error.

        Attributes:
            remedy (None | str | Unset): What to do next, on every error: by error code, and for compliance_blocked by the
                refusing gate's reason (details.reason).
            errors (list[FieldError] | None | Unset): validation_failed: each failing field.
            missing_scope (None | str | Unset): insufficient_scope: the scope the endpoint needs.
    """

    remedy: None | str | Unset = UNSET
    errors: list[FieldError] | None | Unset = UNSET
    missing_scope: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        remedy: None | str | Unset
        if isinstance(self.remedy, Unset):
            remedy = UNSET
        else:
            remedy = self.remedy

        errors: list[dict[str, Any]] | None | Unset
        if isinstance(self.errors, Unset):
            errors = UNSET
        elif isinstance(self.errors, list):
            errors = []
            for errors_type_0_item_data in self.errors:
                errors_type_0_item = errors_type_0_item_data.to_dict()
                errors.append(errors_type_0_item)

        else:
            errors = self.errors

        missing_scope: None | str | Unset
        if isinstance(self.missing_scope, Unset):
            missing_scope = UNSET
        else:
            missing_scope = self.missing_scope

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if remedy is not UNSET:
            field_dict["remedy"] = remedy
        if errors is not UNSET:
            field_dict["errors"] = errors
        if missing_scope is not UNSET:
            field_dict["missing_scope"] = missing_scope

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_error import FieldError

        d = dict(src_dict)

        def _parse_remedy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        remedy = _parse_remedy(d.pop("remedy", UNSET))

        def _parse_errors(data: object) -> list[FieldError] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                errors_type_0 = []
                _errors_type_0 = data
                for errors_type_0_item_data in _errors_type_0:
                    errors_type_0_item = FieldError.from_dict(errors_type_0_item_data)

                    errors_type_0.append(errors_type_0_item)

                return errors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[FieldError] | None | Unset, data)

        errors = _parse_errors(d.pop("errors", UNSET))

        def _parse_missing_scope(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        missing_scope = _parse_missing_scope(d.pop("missing_scope", UNSET))

        error_details = cls(
            remedy=remedy,
            errors=errors,
            missing_scope=missing_scope,
        )

        error_details.additional_properties = d
        return error_details

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
