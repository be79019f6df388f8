from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.export_format import ExportFormat
from ..models.export_object import ExportObject
from ..models.export_status import ExportStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_narrowed_filters import ExportNarrowedFilters


T = TypeVar("T", bound="ExportNarrowed")


@_attrs_define
class ExportNarrowed:
    """A Export narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other member
    only when `fields` names it. Without `fields` the answer is a whole Export.

        Attributes:
            id (str):
            pii_masked (bool): Whether the file was made for a credential without contacts:read:pii: every row masked as the
                list masks it for such a credential (emails, phones, and the phone numbers and emails inside free text). An
                export made unmasked is shown only to credentials holding contacts:read:pii.
            object_ (ExportObject | Unset):
            format_ (ExportFormat | Unset):
            status (ExportStatus | Unset):
            filters (ExportNarrowedFilters | Unset): The filters as validated.
            fields (None | str | Unset):
            rows (int | Unset): Rows written; final once completed.
            created_at (datetime.datetime | Unset):
            started_at (datetime.datetime | None | Unset):
            finished_at (datetime.datetime | None | Unset):
            expires_at (datetime.datetime | None | Unset): When the file is removed.
            download_url (None | str | Unset): While completed: a signed link to the file, valid five minutes and needing no
                credential; each read of the export gives a fresh one.
            download_url_expires_at (datetime.datetime | None | Unset):
            failure_reason (None | str | Unset):
    """

    id: str
    pii_masked: bool
    object_: ExportObject | Unset = UNSET
    format_: ExportFormat | Unset = UNSET
    status: ExportStatus | Unset = UNSET
    filters: ExportNarrowedFilters | Unset = UNSET
    fields: None | str | Unset = UNSET
    rows: int | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    download_url: None | str | Unset = UNSET
    download_url_expires_at: datetime.datetime | None | Unset = UNSET
    failure_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

        object_: str | Unset = UNSET
        if not isinstance(self.object_, Unset):
            object_ = self.object_.value

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        fields: None | str | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        else:
            fields = self.fields

        rows = self.rows

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        download_url: None | str | Unset
        if isinstance(self.download_url, Unset):
            download_url = UNSET
        else:
            download_url = self.download_url

        download_url_expires_at: None | str | Unset
        if isinstance(self.download_url_expires_at, Unset):
            download_url_expires_at = UNSET
        elif isinstance(self.download_url_expires_at, datetime.datetime):
            download_url_expires_at = self.download_url_expires_at.isoformat()
        else:
            download_url_expires_at = self.download_url_expires_at

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pii_masked": pii_masked,
            }
        )
        if object_ is not UNSET:
            field_dict["object"] = object_
        if format_ is not UNSET:
            field_dict["format"] = format_
        if status is not UNSET:
            field_dict["status"] = status
        if filters is not UNSET:
            field_dict["filters"] = filters
        if fields is not UNSET:
            field_dict["fields"] = fields
        if rows is not UNSET:
            field_dict["rows"] = rows
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if download_url is not UNSET:
            field_dict["download_url"] = download_url
        if download_url_expires_at is not UNSET:
            field_dict["download_url_expires_at"] = download_url_expires_at
        if failure_reason is not UNSET:
            field_dict["failure_reason"] = failure_reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_narrowed_filters import ExportNarrowedFilters

        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

        _object_ = d.pop("object", UNSET)
        object_: ExportObject | Unset
        if isinstance(_object_, Unset):
            object_ = UNSET
        else:
            object_ = ExportObject(_object_)

        _format_ = d.pop("format", UNSET)
        format_: ExportFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = ExportFormat(_format_)

        _status = d.pop("status", UNSET)
        status: ExportStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ExportStatus(_status)

        _filters = d.pop("filters", UNSET)
        filters: ExportNarrowedFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = ExportNarrowedFilters.from_dict(_filters)

        def _parse_fields(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))

        rows = d.pop("rows", UNSET)

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        def _parse_started_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_download_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        download_url = _parse_download_url(d.pop("download_url", UNSET))

        def _parse_download_url_expires_at(
            data: object,
        ) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                download_url_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return download_url_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        download_url_expires_at = _parse_download_url_expires_at(
            d.pop("download_url_expires_at", UNSET)
        )

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason", UNSET))

        export_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
            object_=object_,
            format_=format_,
            status=status,
            filters=filters,
            fields=fields,
            rows=rows,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            expires_at=expires_at,
            download_url=download_url,
            download_url_expires_at=download_url_expires_at,
            failure_reason=failure_reason,
        )

        export_narrowed.additional_properties = d
        return export_narrowed

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
