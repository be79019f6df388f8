from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.lead_export_filters_unlinked_only_type_0 import (
    LeadExportFiltersUnlinkedOnlyType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="LeadExportFilters")


@_attrs_define
class LeadExportFilters:
    """
    Attributes:
        contact_id (None | str | Unset):
        unlinked_only (LeadExportFiltersUnlinkedOnlyType0 | None | Unset): true: only leads not linked to any contact.
        updated_after (datetime.datetime | None | Unset): Only records changed after this time (updated_at strictly
            greater), oldest change first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A change
            is listed once it is a few seconds old (the settle delay, 5 s by default), and then never behind a position a
            walk has passed. To resume, pass the last record's updated_at: records stamped in that same millisecond may come
            again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking are as usual. The next
            pages need only the cursor: it holds the walk's position and wins over updated_after.
    """

    contact_id: None | str | Unset = UNSET
    unlinked_only: LeadExportFiltersUnlinkedOnlyType0 | None | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        unlinked_only: None | str | Unset
        if isinstance(self.unlinked_only, Unset):
            unlinked_only = UNSET
        elif isinstance(self.unlinked_only, LeadExportFiltersUnlinkedOnlyType0):
            unlinked_only = self.unlinked_only.value
        else:
            unlinked_only = self.unlinked_only

        updated_after: None | str | Unset
        if isinstance(self.updated_after, Unset):
            updated_after = UNSET
        elif isinstance(self.updated_after, datetime.datetime):
            updated_after = self.updated_after.isoformat()
        else:
            updated_after = self.updated_after

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if unlinked_only is not UNSET:
            field_dict["unlinked_only"] = unlinked_only
        if updated_after is not UNSET:
            field_dict["updated_after"] = updated_after

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_unlinked_only(
            data: object,
        ) -> LeadExportFiltersUnlinkedOnlyType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                unlinked_only_type_0 = LeadExportFiltersUnlinkedOnlyType0(data)

                return unlinked_only_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LeadExportFiltersUnlinkedOnlyType0 | None | Unset, data)

        unlinked_only = _parse_unlinked_only(d.pop("unlinked_only", UNSET))

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

        lead_export_filters = cls(
            contact_id=contact_id,
            unlinked_only=unlinked_only,
            updated_after=updated_after,
        )

        return lead_export_filters
