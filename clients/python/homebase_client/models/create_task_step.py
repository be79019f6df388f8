from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateTaskStep")


@_attrs_define
class CreateTaskStep:
    """A follow-up task for a human; assignee_id null means the contact's owner when the
    owner is a member of the workspace.

        Attributes:
            type_ (Literal['create_task']):
            title (str):
            assignee_id (None | str | Unset):
            due_in_minutes (int | None | Unset):
            notes (None | str | Unset):
    """

    type_: Literal["create_task"]
    title: str
    assignee_id: None | str | Unset = UNSET
    due_in_minutes: int | None | Unset = UNSET
    notes: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        due_in_minutes: int | None | Unset
        if isinstance(self.due_in_minutes, Unset):
            due_in_minutes = UNSET
        else:
            due_in_minutes = self.due_in_minutes

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "title": title,
            }
        )
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if due_in_minutes is not UNSET:
            field_dict["due_in_minutes"] = due_in_minutes
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["create_task"], d.pop("type"))
        if type_ != "create_task":
            raise ValueError(f"type must match const 'create_task', got '{type_}'")

        title = d.pop("title")

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        def _parse_due_in_minutes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        due_in_minutes = _parse_due_in_minutes(d.pop("due_in_minutes", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        create_task_step = cls(
            type_=type_,
            title=title,
            assignee_id=assignee_id,
            due_in_minutes=due_in_minutes,
            notes=notes,
        )

        return create_task_step
