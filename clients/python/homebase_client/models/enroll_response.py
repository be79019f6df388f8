from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.enrolment_status import EnrolmentStatus

T = TypeVar("T", bound="EnrollResponse")


@_attrs_define
class EnrollResponse:
    """
    Attributes:
        id (str):
        automation_id (str):
        contact_id (str):
        status (EnrolmentStatus):
        step_index (int): The next step to run, from 0.
        next_run_at (datetime.datetime | None): When the engine runs it next; null once finished.
        attempts (int): Failed tries of the current step (retried with backoff, then failed).
        last_error (None | str):
        finished_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        created (bool): false: the contact already had an active enrolment in this automation; this is that enrolment.
    """

    id: str
    automation_id: str
    contact_id: str
    status: EnrolmentStatus
    step_index: int
    next_run_at: datetime.datetime | None
    attempts: int
    last_error: None | str
    finished_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    created: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        automation_id = self.automation_id

        contact_id = self.contact_id

        status = self.status.value

        step_index = self.step_index

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        attempts = self.attempts

        last_error: None | str
        last_error = self.last_error

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        created = self.created

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "automation_id": automation_id,
                "contact_id": contact_id,
                "status": status,
                "step_index": step_index,
                "next_run_at": next_run_at,
                "attempts": attempts,
                "last_error": last_error,
                "finished_at": finished_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        automation_id = d.pop("automation_id")

        contact_id = d.pop("contact_id")

        status = EnrolmentStatus(d.pop("status"))

        step_index = d.pop("step_index")

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at"))

        attempts = d.pop("attempts")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

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

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        created = d.pop("created")

        enroll_response = cls(
            id=id,
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
            created=created,
        )

        enroll_response.additional_properties = d
        return enroll_response

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
