from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ImportCounts")


@_attrs_define
class ImportCounts:
    """
    Attributes:
        rows (int): Rows in the import.
        created (int):
        updated (int): Rows that matched a contact and changed it.
        unchanged (int): Rows that matched a contact already holding them.
        failed (int): Rows refused; GET /v1/imports/{id}/errors says why.
        warnings (int): Rows written with a value left out or doubtful (an invalid cell skipped, a phone that is no
            valid number); GET /v1/imports/{id}/errors?kind=warning.
        unmatchable (int): Rows that carried none of match_on's keys: each created a contact, and importing the file
            again creates it again.
    """

    rows: int
    created: int
    updated: int
    unchanged: int
    failed: int
    warnings: int
    unmatchable: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rows = self.rows

        created = self.created

        updated = self.updated

        unchanged = self.unchanged

        failed = self.failed

        warnings = self.warnings

        unmatchable = self.unmatchable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rows": rows,
                "created": created,
                "updated": updated,
                "unchanged": unchanged,
                "failed": failed,
                "warnings": warnings,
                "unmatchable": unmatchable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rows = d.pop("rows")

        created = d.pop("created")

        updated = d.pop("updated")

        unchanged = d.pop("unchanged")

        failed = d.pop("failed")

        warnings = d.pop("warnings")

        unmatchable = d.pop("unmatchable")

        import_counts = cls(
            rows=rows,
            created=created,
            updated=updated,
            unchanged=unchanged,
            failed=failed,
            warnings=warnings,
            unmatchable=unmatchable,
        )

        import_counts.additional_properties = d
        return import_counts

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
