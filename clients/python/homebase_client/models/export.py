from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.export_format import ExportFormat
from ..models.export_object import ExportObject
from ..models.export_status import ExportStatus

if TYPE_CHECKING:
    from ..models.export_filters import ExportFilters


T = TypeVar("T", bound="Export")


@_attrs_define
class Export:
    """
    Attributes:
        id (str):
        object_ (ExportObject):
        format_ (ExportFormat):
        status (ExportStatus):
        filters (ExportFilters): The filters as validated.
        fields (None | str):
        pii_masked (bool): Whether the file was made for a credential without contacts:read:pii: every row masked as the
            list masks it for such a credential (emails, phones, and the phone numbers and emails inside free text). An
            export made unmasked is shown only to credentials holding contacts:read:pii.
        rows (int): Rows written; final once completed.
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        expires_at (datetime.datetime | None): When the file is removed.
        download_url (None | str): While completed: a signed link to the file, valid five minutes and needing no
            credential; each read of the export gives a fresh one.
        download_url_expires_at (datetime.datetime | None):
        failure_reason (None | str):
    """

    id: str
    object_: ExportObject
    format_: ExportFormat
    status: ExportStatus
    filters: ExportFilters
    fields: None | str
    pii_masked: bool
    rows: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    expires_at: datetime.datetime | None
    download_url: None | str
    download_url_expires_at: datetime.datetime | None
    failure_reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        format_ = self.format_.value

        status = self.status.value

        filters = self.filters.to_dict()

        fields: None | str
        fields = self.fields

        pii_masked = self.pii_masked

        rows = self.rows

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        download_url: None | str
        download_url = self.download_url

        download_url_expires_at: None | str
        if isinstance(self.download_url_expires_at, datetime.datetime):
            download_url_expires_at = self.download_url_expires_at.isoformat()
        else:
            download_url_expires_at = self.download_url_expires_at

        failure_reason: None | str
        failure_reason = self.failure_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "format": format_,
                "status": status,
                "filters": filters,
                "fields": fields,
                "pii_masked": pii_masked,
                "rows": rows,
                "created_at": created_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "expires_at": expires_at,
                "download_url": download_url,
                "download_url_expires_at": download_url_expires_at,
                "failure_reason": failure_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_filters import ExportFilters

        d = dict(src_dict)
        id = d.pop("id")

        object_ = ExportObject(d.pop("object"))

        format_ = ExportFormat(d.pop("format"))

        status = ExportStatus(d.pop("status"))

        filters = ExportFilters.from_dict(d.pop("filters"))

        def _parse_fields(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        fields = _parse_fields(d.pop("fields"))

        pii_masked = d.pop("pii_masked")

        rows = d.pop("rows")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        def _parse_download_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        download_url = _parse_download_url(d.pop("download_url"))

        def _parse_download_url_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                download_url_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return download_url_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        download_url_expires_at = _parse_download_url_expires_at(
            d.pop("download_url_expires_at")
        )

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))

        export = cls(
            id=id,
            object_=object_,
            format_=format_,
            status=status,
            filters=filters,
            fields=fields,
            pii_masked=pii_masked,
            rows=rows,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            expires_at=expires_at,
            download_url=download_url,
            download_url_expires_at=download_url_expires_at,
            failure_reason=failure_reason,
        )

        export.additional_properties = d
        return export

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
