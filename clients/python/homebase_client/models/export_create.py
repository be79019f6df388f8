from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.export_format import ExportFormat
from ..models.export_object import ExportObject
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_create_filters import ExportCreateFilters


T = TypeVar("T", bound="ExportCreate")


@_attrs_define
class ExportCreate:
    """
    Attributes:
        object_ (ExportObject):
        format_ (ExportFormat | Unset):
        filters (ExportCreateFilters | Unset): The list's own query filters, as an object: the members GET /v1/<object>
            takes (besides cursor, limit and fields), with the same rules; e.g. contacts: stage, source, tag, q, owner_id;
            deals: pipeline_id, stage_id, contact_id, owner_id, status; messages: contact_id, channel, direction, status. An
            unknown member is a 400 naming filters.<member>.
        fields (None | str | Unset): Comma-separated allow-list of the item's members, the same rule as the list's
            fields parameter; id (and pii_masked) is always included. Omit for every member.
    """

    object_: ExportObject
    format_: ExportFormat | Unset = UNSET
    filters: ExportCreateFilters | Unset = UNSET
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
        from ..models.export_create_filters import ExportCreateFilters

        d = dict(src_dict)
        object_ = ExportObject(d.pop("object"))

        _format_ = d.pop("format", UNSET)
        format_: ExportFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = ExportFormat(_format_)

        _filters = d.pop("filters", UNSET)
        filters: ExportCreateFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = ExportCreateFilters.from_dict(_filters)

        def _parse_fields(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))

        export_create = cls(
            object_=object_,
            format_=format_,
            filters=filters,
            fields=fields,
        )

        return export_create
