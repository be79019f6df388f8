from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.import_match_key import ImportMatchKey
from ..models.import_object import ImportObject
from ..models.import_status import ImportStatus
from ..models.invalid_cell import InvalidCell

if TYPE_CHECKING:
    from ..models.import_counts import ImportCounts
    from ..models.import_job_refused_by_reason import ImportJobRefusedByReason


T = TypeVar("T", bound="ImportJob")


@_attrs_define
class ImportJob:
    """
    Attributes:
        id (str):
        object_ (ImportObject):
        status (ImportStatus):
        match_on (list[ImportMatchKey]):
        skip_routing (bool):
        first_touch (bool): Leads: the import queues the AI's first texts (false: it texts nobody).
        dry_run (bool): Counts only: the import writes no record.
        on_invalid_cell (InvalidCell): What a row's invalid value the import may leave out does to the row.
        file_name (None | str): The uploaded file's name (a console import), else null.
        counts (ImportCounts):
        refused_by_reason (ImportJobRefusedByReason): Refused rows by reason: `field: message` (as GET
            /v1/imports/{id}/errors gives them) to the rows refused for it. A row refused for two reasons counts under both;
            a warning is no reason. Grows a batch at a time, as `counts`.
        progress (float): Rows processed / rows, from 0 to 1.
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
    """

    id: str
    object_: ImportObject
    status: ImportStatus
    match_on: list[ImportMatchKey]
    skip_routing: bool
    first_touch: bool
    dry_run: bool
    on_invalid_cell: InvalidCell
    file_name: None | str
    counts: ImportCounts
    refused_by_reason: ImportJobRefusedByReason
    progress: float
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_.value

        status = self.status.value

        match_on = []
        for match_on_item_data in self.match_on:
            match_on_item = match_on_item_data.value
            match_on.append(match_on_item)

        skip_routing = self.skip_routing

        first_touch = self.first_touch

        dry_run = self.dry_run

        on_invalid_cell = self.on_invalid_cell.value

        file_name: None | str
        file_name = self.file_name

        counts = self.counts.to_dict()

        refused_by_reason = self.refused_by_reason.to_dict()

        progress = self.progress

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "status": status,
                "match_on": match_on,
                "skip_routing": skip_routing,
                "first_touch": first_touch,
                "dry_run": dry_run,
                "on_invalid_cell": on_invalid_cell,
                "file_name": file_name,
                "counts": counts,
                "refused_by_reason": refused_by_reason,
                "progress": progress,
                "created_at": created_at,
                "started_at": started_at,
                "finished_at": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.import_counts import ImportCounts
        from ..models.import_job_refused_by_reason import ImportJobRefusedByReason

        d = dict(src_dict)
        id = d.pop("id")

        object_ = ImportObject(d.pop("object"))

        status = ImportStatus(d.pop("status"))

        match_on = []
        _match_on = d.pop("match_on")
        for match_on_item_data in _match_on:
            match_on_item = ImportMatchKey(match_on_item_data)

            match_on.append(match_on_item)

        skip_routing = d.pop("skip_routing")

        first_touch = d.pop("first_touch")

        dry_run = d.pop("dry_run")

        on_invalid_cell = InvalidCell(d.pop("on_invalid_cell"))

        def _parse_file_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        file_name = _parse_file_name(d.pop("file_name"))

        counts = ImportCounts.from_dict(d.pop("counts"))

        refused_by_reason = ImportJobRefusedByReason.from_dict(
            d.pop("refused_by_reason")
        )

        progress = d.pop("progress")

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

        import_job = cls(
            id=id,
            object_=object_,
            status=status,
            match_on=match_on,
            skip_routing=skip_routing,
            first_touch=first_touch,
            dry_run=dry_run,
            on_invalid_cell=on_invalid_cell,
            file_name=file_name,
            counts=counts,
            refused_by_reason=refused_by_reason,
            progress=progress,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
        )

        import_job.additional_properties = d
        return import_job

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
