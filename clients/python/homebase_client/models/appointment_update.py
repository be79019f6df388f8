from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.appointment_outcome import AppointmentOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentUpdate")


@_attrs_define
class AppointmentUpdate:
    """Any subset. Move it by sending starts_at and ends_at together (one alone is
    refused); record what happened with outcome. title, starts_at, ends_at and outcome
    may not be null (a wrong outcome is corrected by sending another); location, notes
    and assignee_id accept null to clear them. contact_id and created_by are fixed.

        Attributes:
            title (str | Unset):
            starts_at (datetime.datetime | Unset): Send with ends_at.
            ends_at (datetime.datetime | Unset): Send with starts_at; strictly after it.
            location (None | str | Unset):
            notes (None | str | Unset):
            assignee_id (None | str | Unset): A member (user id) of this workspace.
            outcome (AppointmentOutcome | Unset):
    """

    title: str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    location: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    outcome: AppointmentOutcome | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
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
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
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

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        _outcome = d.pop("outcome", UNSET)
        outcome: AppointmentOutcome | Unset
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = AppointmentOutcome(_outcome)

        appointment_update = cls(
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            location=location,
            notes=notes,
            assignee_id=assignee_id,
            outcome=outcome,
        )

        return appointment_update
