from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.import_row_kind import ImportRowKind

if TYPE_CHECKING:
    from ..models.import_field_error import ImportFieldError


T = TypeVar("T", bound="ImportRowErrors")


@_attrs_define
class ImportRowErrors:
    """
    Attributes:
        index (int): The row's position in the request's `rows`, from 0.
        line (int | None): A file's row: the CSV line where the row starts (the header is line 1; a quoted newline
            counts as the file does). Null for rows sent as JSON.
        kind (ImportRowKind):
        errors (list[ImportFieldError]):
    """

    index: int
    line: int | None
    kind: ImportRowKind
    errors: list[ImportFieldError]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        line: int | None
        line = self.line

        kind = self.kind.value

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "line": line,
                "kind": kind,
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.import_field_error import ImportFieldError

        d = dict(src_dict)
        index = d.pop("index")

        def _parse_line(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        line = _parse_line(d.pop("line"))

        kind = ImportRowKind(d.pop("kind"))

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = ImportFieldError.from_dict(errors_item_data)

            errors.append(errors_item)

        import_row_errors = cls(
            index=index,
            line=line,
            kind=kind,
            errors=errors,
        )

        import_row_errors.additional_properties = d
        return import_row_errors

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
