from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentOutcomeData")


@_attrs_define
class AppointmentOutcomeData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): appointment id
        contact_id (str):
        title (str):
        starts_at (str):
        ends_at (str):
        status (str): scheduled, done or cancelled
        created_at (str):
        updated_at (str):
        location (None | str | Unset):
        created_by (None | str | Unset): member
        assignee_id (None | str | Unset): member
        outcome (None | str | Unset): showed, no_show or cancelled
        outcome_recorded_at (None | str | Unset):
        previous_outcome (None | str | Unset): null the first time
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    contact_id: str
    title: str
    starts_at: str
    ends_at: str
    status: str
    created_at: str
    updated_at: str
    location: None | str | Unset = UNSET
    created_by: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    outcome: None | str | Unset = UNSET
    outcome_recorded_at: None | str | Unset = UNSET
    previous_outcome: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        contact_id = self.contact_id

        title = self.title

        starts_at = self.starts_at

        ends_at = self.ends_at

        status = self.status

        created_at = self.created_at

        updated_at = self.updated_at

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

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
        else:
            outcome = self.outcome

        outcome_recorded_at: None | str | Unset
        if isinstance(self.outcome_recorded_at, Unset):
            outcome_recorded_at = UNSET
        else:
            outcome_recorded_at = self.outcome_recorded_at

        previous_outcome: None | str | Unset
        if isinstance(self.previous_outcome, Unset):
            previous_outcome = UNSET
        else:
            previous_outcome = self.previous_outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "contact_id": contact_id,
                "title": title,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if location is not UNSET:
            field_dict["location"] = location
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if outcome_recorded_at is not UNSET:
            field_dict["outcome_recorded_at"] = outcome_recorded_at
        if previous_outcome is not UNSET:
            field_dict["previous_outcome"] = previous_outcome

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        contact_id = d.pop("contact_id")

        title = d.pop("title")

        starts_at = d.pop("starts_at")

        ends_at = d.pop("ends_at")

        status = d.pop("status")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

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

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        def _parse_outcome_recorded_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome_recorded_at = _parse_outcome_recorded_at(
            d.pop("outcome_recorded_at", UNSET)
        )

        def _parse_previous_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        previous_outcome = _parse_previous_outcome(d.pop("previous_outcome", UNSET))

        appointment_outcome_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            contact_id=contact_id,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            location=location,
            created_by=created_by,
            assignee_id=assignee_id,
            outcome=outcome,
            outcome_recorded_at=outcome_recorded_at,
            previous_outcome=previous_outcome,
        )

        appointment_outcome_data.additional_properties = d
        return appointment_outcome_data

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
