from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.enrolment_status import EnrolmentStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="EnrollResponseNarrowed")


@_attrs_define
class EnrollResponseNarrowed:
    """A EnrollResponse narrowed by the `fields` query parameter: only `id`, `created` are always present; every other
    member only when `fields` names it. Without `fields` the answer is a whole EnrollResponse.

        Attributes:
            id (str):
            created (bool): false: the contact already had an active enrolment in this automation; this is that enrolment.
            automation_id (str | Unset):
            contact_id (str | Unset):
            status (EnrolmentStatus | Unset):
            step_index (int | Unset): The next step to run, from 0.
            next_run_at (datetime.datetime | None | Unset): When the engine runs it next; null once finished.
            attempts (int | Unset): Failed tries of the current step (retried with backoff, then failed).
            last_error (None | str | Unset):
            finished_at (datetime.datetime | None | Unset):
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    created: bool
    automation_id: str | Unset = UNSET
    contact_id: str | Unset = UNSET
    status: EnrolmentStatus | Unset = UNSET
    step_index: int | Unset = UNSET
    next_run_at: datetime.datetime | None | Unset = UNSET
    attempts: int | Unset = UNSET
    last_error: None | str | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created = self.created

        automation_id = self.automation_id

        contact_id = self.contact_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        step_index = self.step_index

        next_run_at: None | str | Unset
        if isinstance(self.next_run_at, Unset):
            next_run_at = UNSET
        elif isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        attempts = self.attempts

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

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
                "created": created,
            }
        )
        if automation_id is not UNSET:
            field_dict["automation_id"] = automation_id
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if status is not UNSET:
            field_dict["status"] = status
        if step_index is not UNSET:
            field_dict["step_index"] = step_index
        if next_run_at is not UNSET:
            field_dict["next_run_at"] = next_run_at
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        created = d.pop("created")

        automation_id = d.pop("automation_id", UNSET)

        contact_id = d.pop("contact_id", UNSET)

        _status = d.pop("status", UNSET)
        status: EnrolmentStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = EnrolmentStatus(_status)

        step_index = d.pop("step_index", UNSET)

        def _parse_next_run_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at", UNSET))

        attempts = d.pop("attempts", UNSET)

        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

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

        enroll_response_narrowed = cls(
            id=id,
            created=created,
            automation_id=automation_id,
            contact_id=contact_id,
            status=status,
            step_index=step_index,
            next_run_at=next_run_at,
            attempts=attempts,
            last_error=last_error,
            finished_at=finished_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        enroll_response_narrowed.additional_properties = d
        return enroll_response_narrowed

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
