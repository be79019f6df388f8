from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.deal_status import DealStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="DealExportFilters")


@_attrs_define
class DealExportFilters:
    """
    Attributes:
        pipeline_id (None | str | Unset):
        stage_id (None | str | Unset):
        contact_id (None | str | Unset):
        owner_id (None | str | Unset):
        status (DealStatus | None | Unset):
        updated_after (datetime.datetime | None | Unset): Only records changed after this time (updated_at strictly
            greater), oldest change first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A change
            is listed once it is a few seconds old (the settle delay, 5 s by default), and then never behind a position a
            walk has passed. To resume, pass the last record's updated_at: records stamped in that same millisecond may come
            again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking are as usual. The next
            pages need only the cursor: it holds the walk's position and wins over updated_after.
    """

    pipeline_id: None | str | Unset = UNSET
    stage_id: None | str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    status: DealStatus | None | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pipeline_id: None | str | Unset
        if isinstance(self.pipeline_id, Unset):
            pipeline_id = UNSET
        else:
            pipeline_id = self.pipeline_id

        stage_id: None | str | Unset
        if isinstance(self.stage_id, Unset):
            stage_id = UNSET
        else:
            stage_id = self.stage_id

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, DealStatus):
            status = self.status.value
        else:
            status = self.status

        updated_after: None | str | Unset
        if isinstance(self.updated_after, Unset):
            updated_after = UNSET
        elif isinstance(self.updated_after, datetime.datetime):
            updated_after = self.updated_after.isoformat()
        else:
            updated_after = self.updated_after

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if pipeline_id is not UNSET:
            field_dict["pipeline_id"] = pipeline_id
        if stage_id is not UNSET:
            field_dict["stage_id"] = stage_id
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if status is not UNSET:
            field_dict["status"] = status
        if updated_after is not UNSET:
            field_dict["updated_after"] = updated_after

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_pipeline_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        pipeline_id = _parse_pipeline_id(d.pop("pipeline_id", UNSET))

        def _parse_stage_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stage_id = _parse_stage_id(d.pop("stage_id", UNSET))

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("owner_id", UNSET))

        def _parse_status(data: object) -> DealStatus | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = DealStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DealStatus | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_updated_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_after_type_0 = datetime.datetime.fromisoformat(data)

                return updated_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_after = _parse_updated_after(d.pop("updated_after", UNSET))

        deal_export_filters = cls(
            pipeline_id=pipeline_id,
            stage_id=stage_id,
            contact_id=contact_id,
            owner_id=owner_id,
            status=status,
            updated_after=updated_after,
        )

        return deal_export_filters
