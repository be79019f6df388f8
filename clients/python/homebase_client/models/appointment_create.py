from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentCreate")


@_attrs_define
class AppointmentCreate:
    """contact_id, title, starts_at and ends_at are required; ends_at must be after
    starts_at. created_by is the member whose connected calendar receives the event.

        Attributes:
            contact_id (str): A contact of this workspace.
            title (str):
            starts_at (datetime.datetime): With a UTC offset.
            ends_at (datetime.datetime): Strictly after starts_at.
            location (None | str | Unset):
            notes (None | str | Unset):
            created_by (None | str | Unset): A member (user id) of this workspace. The appointment is pushed to this
                member's connected calendar, if any.
            assignee_id (None | str | Unset): A member (user id) of this workspace. Who attends; defaults to created_by.
    """

    contact_id: str
    title: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    location: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    created_by: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contact_id = self.contact_id

        title = self.title

        starts_at = self.starts_at.isoformat()

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contact_id": contact_id,
                "title": title,
                "starts_at": starts_at,
                "ends_at": ends_at,
            }
        )
        if location is not UNSET:
            field_dict["location"] = location
        if notes is not UNSET:
            field_dict["notes"] = notes
        if created_by is not UNSET:
            field_dict["created_by"] = created_by
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contact_id = d.pop("contact_id")

        title = d.pop("title")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

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

        appointment_create = cls(
            contact_id=contact_id,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            location=location,
            notes=notes,
            created_by=created_by,
            assignee_id=assignee_id,
        )

        return appointment_create
