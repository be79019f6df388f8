from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.appointment_outcome import AppointmentOutcome
from ..models.appointment_status import AppointmentStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentExportFilters")


@_attrs_define
class AppointmentExportFilters:
    """
    Attributes:
        contact_id (None | str | Unset):
        created_by (None | str | Unset):
        assignee_id (None | str | Unset):
        outcome (AppointmentOutcome | None | Unset):
        status (AppointmentStatus | None | Unset):
        starts_after (datetime.datetime | None | Unset): starts_at at or after; inclusive.
        starts_before (datetime.datetime | None | Unset): starts_at before; exclusive.
        updated_after (datetime.datetime | None | Unset): Only records changed after this time (updated_at strictly
            greater), oldest change first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A change
            is listed once it is a few seconds old (the settle delay, 5 s by default), and then never behind a position a
            walk has passed. To resume, pass the last record's updated_at: records stamped in that same millisecond may come
            again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking are as usual. The next
            pages need only the cursor: it holds the walk's position and wins over updated_after.
    """

    contact_id: None | str | Unset = UNSET
    created_by: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    outcome: AppointmentOutcome | None | Unset = UNSET
    status: AppointmentStatus | None | Unset = UNSET
    starts_after: datetime.datetime | None | Unset = UNSET
    starts_before: datetime.datetime | None | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        created_by: None | str | Unset
        if isinstance(self.created_by, Unset):
            created_by = UNSET
        else:
            created_by = self.created_by

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        elif isinstance(self.outcome, AppointmentOutcome):
            outcome = self.outcome.value
        else:
            outcome = self.outcome

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, AppointmentStatus):
            status = self.status.value
        else:
            status = self.status

        starts_after: None | str | Unset
        if isinstance(self.starts_after, Unset):
            starts_after = UNSET
        elif isinstance(self.starts_after, datetime.datetime):
            starts_after = self.starts_after.isoformat()
        else:
            starts_after = self.starts_after

        starts_before: None | str | Unset
        if isinstance(self.starts_before, Unset):
            starts_before = UNSET
        elif isinstance(self.starts_before, datetime.datetime):
            starts_before = self.starts_before.isoformat()
        else:
            starts_before = self.starts_before

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
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if status is not UNSET:
            field_dict["status"] = status
        if starts_after is not UNSET:
            field_dict["starts_after"] = starts_after
        if starts_before is not UNSET:
            field_dict["starts_before"] = starts_before
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

        def _parse_created_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        created_by = _parse_created_by(d.pop("created_by", UNSET))

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        def _parse_outcome(data: object) -> AppointmentOutcome | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = AppointmentOutcome(data)

                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppointmentOutcome | None | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        def _parse_status(data: object) -> AppointmentStatus | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = AppointmentStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppointmentStatus | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_starts_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_after_type_0 = datetime.datetime.fromisoformat(data)

                return starts_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_after = _parse_starts_after(d.pop("starts_after", UNSET))

        def _parse_starts_before(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_before_type_0 = datetime.datetime.fromisoformat(data)

                return starts_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_before = _parse_starts_before(d.pop("starts_before", UNSET))

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

        appointment_export_filters = cls(
            contact_id=contact_id,
            created_by=created_by,
            assignee_id=assignee_id,
            outcome=outcome,
            status=status,
            starts_after=starts_after,
            starts_before=starts_before,
            updated_after=updated_after,
        )

        return appointment_export_filters
