from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.appointments_export_create_object import AppointmentsExportCreateObject
from ..models.export_format import ExportFormat
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appointment_export_filters import AppointmentExportFilters


T = TypeVar("T", bound="AppointmentsExportCreate")


@_attrs_define
class AppointmentsExportCreate:
    """An export of GET /v1/appointments (needs appointments:read).

    Attributes:
        object_ (AppointmentsExportCreateObject): appointments: the list to export.
        format_ (ExportFormat | Unset):
        filters (AppointmentExportFilters | Unset):
        fields (None | str | Unset): Comma-separated allow-list of the item's members, the same rule as the fields
            parameter of GET /v1/appointments; id (and pii_masked) is always included. Omit for every member.
    """

    object_: AppointmentsExportCreateObject
    format_: ExportFormat | Unset = UNSET
    filters: AppointmentExportFilters | Unset = UNSET
    fields: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        fields: None | str | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        else:
            fields = self.fields

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
            }
        )
        if format_ is not UNSET:
            field_dict["format"] = format_
        if filters is not UNSET:
            field_dict["filters"] = filters
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.appointment_export_filters import AppointmentExportFilters

        d = dict(src_dict)
        object_ = AppointmentsExportCreateObject(d.pop("object"))

        _format_ = d.pop("format", UNSET)
        format_: ExportFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = ExportFormat(_format_)

        _filters = d.pop("filters", UNSET)
        filters: AppointmentExportFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = AppointmentExportFilters.from_dict(_filters)

        def _parse_fields(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))

        appointments_export_create = cls(
            object_=object_,
            format_=format_,
            filters=filters,
            fields=fields,
        )

        return appointments_export_create
