from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AiHandoffData")


@_attrs_define
class AiHandoffData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        contact_id (str):
        task_id (str): the handoff's task
        priority (str): the task's: low, normal or high
        reason (str): asked_for_person, commission, legal, lending, fair_housing, model, language, ...
        summary (str): what the lead wants, what was learned, what was promised (masked)
        assignee_id (None | str | Unset): the contact's owner, else the persona's handoff_assignee
        due_at (None | str | Unset): handoff_minutes counted inside the persona's showing hours
        urgency (None | str | Unset): the model's: low, normal or high; null when it gave none
        ai_job_id (None | str | Unset): the AI job that handed off
        message_id (None | str | Unset): the text that handed off without a job (no_calls)
    """

    event_id: str
    occurred_at: datetime.datetime
    contact_id: str
    task_id: str
    priority: str
    reason: str
    summary: str
    assignee_id: None | str | Unset = UNSET
    due_at: None | str | Unset = UNSET
    urgency: None | str | Unset = UNSET
    ai_job_id: None | str | Unset = UNSET
    message_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        contact_id = self.contact_id

        task_id = self.task_id

        priority = self.priority

        reason = self.reason

        summary = self.summary

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        due_at: None | str | Unset
        if isinstance(self.due_at, Unset):
            due_at = UNSET
        else:
            due_at = self.due_at

        urgency: None | str | Unset
        if isinstance(self.urgency, Unset):
            urgency = UNSET
        else:
            urgency = self.urgency

        ai_job_id: None | str | Unset
        if isinstance(self.ai_job_id, Unset):
            ai_job_id = UNSET
        else:
            ai_job_id = self.ai_job_id

        message_id: None | str | Unset
        if isinstance(self.message_id, Unset):
            message_id = UNSET
        else:
            message_id = self.message_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "contact_id": contact_id,
                "task_id": task_id,
                "priority": priority,
                "reason": reason,
                "summary": summary,
            }
        )
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if due_at is not UNSET:
            field_dict["due_at"] = due_at
        if urgency is not UNSET:
            field_dict["urgency"] = urgency
        if ai_job_id is not UNSET:
            field_dict["ai_job_id"] = ai_job_id
        if message_id is not UNSET:
            field_dict["message_id"] = message_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        contact_id = d.pop("contact_id")

        task_id = d.pop("task_id")

        priority = d.pop("priority")

        reason = d.pop("reason")

        summary = d.pop("summary")

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        def _parse_due_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        due_at = _parse_due_at(d.pop("due_at", UNSET))

        def _parse_urgency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        urgency = _parse_urgency(d.pop("urgency", UNSET))

        def _parse_ai_job_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ai_job_id = _parse_ai_job_id(d.pop("ai_job_id", UNSET))

        def _parse_message_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message_id = _parse_message_id(d.pop("message_id", UNSET))

        ai_handoff_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            contact_id=contact_id,
            task_id=task_id,
            priority=priority,
            reason=reason,
            summary=summary,
            assignee_id=assignee_id,
            due_at=due_at,
            urgency=urgency,
            ai_job_id=ai_job_id,
            message_id=message_id,
        )

        ai_handoff_data.additional_properties = d
        return ai_handoff_data

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
