from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_priority import TaskPriority
from ..models.task_status import TaskStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="TaskCreate")


@_attrs_define
class TaskCreate:
    """title is required. The same title, contact_id, assignee_id and due_at sent again
    within 60 seconds returns the existing task (created false) instead of a second one.

        Attributes:
            title (str):
            contact_id (None | str | Unset): A contact of this workspace.
            assignee_id (None | str | Unset): A member (user) of this workspace.
            due_at (datetime.datetime | None | Unset): ISO 8601 with a time zone.
            status (TaskStatus | Unset):
            notes (None | str | Unset): Not part of what makes two tasks identical.
            priority (TaskPriority | Unset):
    """

    title: str
    contact_id: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    due_at: datetime.datetime | None | Unset = UNSET
    status: TaskStatus | Unset = UNSET
    notes: None | str | Unset = UNSET
    priority: TaskPriority | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        due_at: None | str | Unset
        if isinstance(self.due_at, Unset):
            due_at = UNSET
        elif isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        priority: str | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if due_at is not UNSET:
            field_dict["due_at"] = due_at
        if status is not UNSET:
            field_dict["status"] = status
        if notes is not UNSET:
            field_dict["notes"] = notes
        if priority is not UNSET:
            field_dict["priority"] = priority

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        def _parse_due_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        due_at = _parse_due_at(d.pop("due_at", UNSET))

        _status = d.pop("status", UNSET)
        status: TaskStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = TaskStatus(_status)

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        _priority = d.pop("priority", UNSET)
        priority: TaskPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = TaskPriority(_priority)

        task_create = cls(
            title=title,
            contact_id=contact_id,
            assignee_id=assignee_id,
            due_at=due_at,
            status=status,
            notes=notes,
            priority=priority,
        )

        return task_create
