from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.appointment_outcome import AppointmentOutcome
from ..models.appointment_status import AppointmentStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentNarrowed")


@_attrs_define
class AppointmentNarrowed:
    """A Appointment narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Appointment.

        Attributes:
            id (str):
            contact_id (str | Unset): Kept when the contact is anonymized.
            title (str | Unset): [redacted] once the contact is anonymized.
            starts_at (datetime.datetime | Unset):
            ends_at (datetime.datetime | Unset):
            location (None | str | Unset): Null once the contact is anonymized.
            notes (None | str | Unset): Null once the contact is anonymized.
            created_by (None | str | Unset):
            assignee_id (None | str | Unset):
            outcome (AppointmentOutcome | None | Unset): What happened: showed, no_show or cancelled (the spec's showed, no-
                show, cancelled). Null until recorded.
            outcome_recorded_at (datetime.datetime | None | Unset):
            status (AppointmentStatus | Unset): Derived from outcome: scheduled (none yet), done (showed or no_show),
                cancelled.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    contact_id: str | Unset = UNSET
    title: str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    location: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    created_by: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    outcome: AppointmentOutcome | None | Unset = UNSET
    outcome_recorded_at: datetime.datetime | None | Unset = UNSET
    status: AppointmentStatus | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id = self.contact_id

        title = self.title

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

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

        outcome_recorded_at: None | str | Unset
        if isinstance(self.outcome_recorded_at, Unset):
            outcome_recorded_at = UNSET
        elif isinstance(self.outcome_recorded_at, datetime.datetime):
            outcome_recorded_at = self.outcome_recorded_at.isoformat()
        else:
            outcome_recorded_at = self.outcome_recorded_at

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if title is not UNSET:
            field_dict["title"] = title
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if location is not UNSET:
            field_dict["location"] = location
        if notes is not UNSET:
            field_dict["notes"] = notes
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if outcome_recorded_at is not UNSET:
            field_dict["outcome_recorded_at"] = outcome_recorded_at
        if status is not UNSET:
            field_dict["status"] = status
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        contact_id = d.pop("contact_id", UNSET)

        title = d.pop("title", UNSET)

        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)

        _ends_at = d.pop("ends_at", UNSET)
        ends_at: datetime.datetime | Unset
        if isinstance(_ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = datetime.datetime.fromisoformat(_ends_at)

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

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

        def _parse_outcome_recorded_at(
            data: object,
        ) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_recorded_at_type_0 = datetime.datetime.fromisoformat(data)

                return outcome_recorded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        outcome_recorded_at = _parse_outcome_recorded_at(
            d.pop("outcome_recorded_at", UNSET)
        )

        _status = d.pop("status", UNSET)
        status: AppointmentStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = AppointmentStatus(_status)

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        appointment_narrowed = cls(
            id=id,
            contact_id=contact_id,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            location=location,
            notes=notes,
            created_by=created_by,
            assignee_id=assignee_id,
            outcome=outcome,
            outcome_recorded_at=outcome_recorded_at,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )

        appointment_narrowed.additional_properties = d
        return appointment_narrowed

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
