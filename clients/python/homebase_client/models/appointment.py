from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.appointment_outcome import AppointmentOutcome
from ..models.appointment_status import AppointmentStatus

T = TypeVar("T", bound="Appointment")


@_attrs_define
class Appointment:
    """
    Attributes:
        id (str):
        contact_id (str): Kept when the contact is anonymized.
        title (str): [redacted] once the contact is anonymized.
        starts_at (datetime.datetime):
        ends_at (datetime.datetime):
        location (None | str): Null once the contact is anonymized.
        notes (None | str): Null once the contact is anonymized.
        created_by (None | str):
        assignee_id (None | str):
        outcome (AppointmentOutcome | None): What happened: showed, no_show or cancelled (the spec's showed, no-show,
            cancelled). Null until recorded.
        outcome_recorded_at (datetime.datetime | None):
        status (AppointmentStatus): Derived from outcome: scheduled (none yet), done (showed or no_show), cancelled.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    contact_id: str
    title: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    location: None | str
    notes: None | str
    created_by: None | str
    assignee_id: None | str
    outcome: AppointmentOutcome | None
    outcome_recorded_at: datetime.datetime | None
    status: AppointmentStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id = self.contact_id

        title = self.title

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        location: None | str
        location = self.location

        notes: None | str
        notes = self.notes

        created_by: None | str
        created_by = self.created_by

        assignee_id: None | str
        assignee_id = self.assignee_id

        outcome: None | str
        if isinstance(self.outcome, AppointmentOutcome):
            outcome = self.outcome.value
        else:
            outcome = self.outcome

        outcome_recorded_at: None | str
        if isinstance(self.outcome_recorded_at, datetime.datetime):
            outcome_recorded_at = self.outcome_recorded_at.isoformat()
        else:
            outcome_recorded_at = self.outcome_recorded_at

        status = self.status.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contact_id": contact_id,
                "title": title,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "location": location,
                "notes": notes,
                "created_by": created_by,
                "assignee_id": assignee_id,
                "outcome": outcome,
                "outcome_recorded_at": outcome_recorded_at,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        contact_id = d.pop("contact_id")

        title = d.pop("title")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        def _parse_location(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        location = _parse_location(d.pop("location"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        def _parse_created_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_by = _parse_created_by(d.pop("created_by"))

        def _parse_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id"))

        def _parse_outcome(data: object) -> AppointmentOutcome | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = AppointmentOutcome(data)

                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppointmentOutcome | None, data)

        outcome = _parse_outcome(d.pop("outcome"))

        def _parse_outcome_recorded_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_recorded_at_type_0 = datetime.datetime.fromisoformat(data)

                return outcome_recorded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        outcome_recorded_at = _parse_outcome_recorded_at(d.pop("outcome_recorded_at"))

        status = AppointmentStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        appointment = cls(
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

        appointment.additional_properties = d
        return appointment

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
