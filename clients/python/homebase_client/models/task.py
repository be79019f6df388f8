from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_priority import TaskPriority
from ..models.task_status import TaskStatus

T = TypeVar("T", bound="Task")


@_attrs_define
class Task:
    """
    Attributes:
        id (str):
        title (str):
        contact_id (None | str):
        assignee_id (None | str):
        due_at (datetime.datetime | None):
        status (TaskStatus):
        notes (None | str):
        priority (TaskPriority):
        source (str): api; automation when an automation's create_task step made it; ai when the AI responder handed the
            lead to a person (docs/ai.md).
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    title: str
    contact_id: None | str
    assignee_id: None | str
    due_at: datetime.datetime | None
    status: TaskStatus
    notes: None | str
    priority: TaskPriority
    source: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        contact_id: None | str
        contact_id = self.contact_id

        assignee_id: None | str
        assignee_id = self.assignee_id

        due_at: None | str
        if isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        status = self.status.value

        notes: None | str
        notes = self.notes

        priority = self.priority.value

        source = self.source

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "contact_id": contact_id,
                "assignee_id": assignee_id,
                "due_at": due_at,
                "status": status,
                "notes": notes,
                "priority": priority,
                "source": source,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))

        def _parse_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id"))

        def _parse_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        due_at = _parse_due_at(d.pop("due_at"))

        status = TaskStatus(d.pop("status"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        priority = TaskPriority(d.pop("priority"))

        source = d.pop("source")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        task = cls(
            id=id,
            title=title,
            contact_id=contact_id,
            assignee_id=assignee_id,
            due_at=due_at,
            status=status,
            notes=notes,
            priority=priority,
            source=source,
            created_at=created_at,
            updated_at=updated_at,
        )

        task.additional_properties = d
        return task

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
