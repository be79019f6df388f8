from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AutomationRunData")


@_attrs_define
class AutomationRunData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): enrolment id (a campaign's: its campaign enrolment's)
        contact_id (str):
        status (str): active (an enrolment), reached (a campaign's reach)
        enrolled_at (str):
        automation_id (None | str | Unset): null for a campaign that names no automation
        automation_name (None | str | Unset): null when automation_id is
        campaign_id (None | str | Unset): the campaign that reached the contact; null for an enrol
        steps (int | None | Unset): step count (0 without an automation)
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    contact_id: str
    status: str
    enrolled_at: str
    automation_id: None | str | Unset = UNSET
    automation_name: None | str | Unset = UNSET
    campaign_id: None | str | Unset = UNSET
    steps: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        contact_id = self.contact_id

        status = self.status

        enrolled_at = self.enrolled_at

        automation_id: None | str | Unset
        if isinstance(self.automation_id, Unset):
            automation_id = UNSET
        else:
            automation_id = self.automation_id

        automation_name: None | str | Unset
        if isinstance(self.automation_name, Unset):
            automation_name = UNSET
        else:
            automation_name = self.automation_name

        campaign_id: None | str | Unset
        if isinstance(self.campaign_id, Unset):
            campaign_id = UNSET
        else:
            campaign_id = self.campaign_id

        steps: int | None | Unset
        if isinstance(self.steps, Unset):
            steps = UNSET
        else:
            steps = self.steps

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "contact_id": contact_id,
                "status": status,
                "enrolled_at": enrolled_at,
            }
        )
        if automation_id is not UNSET:
            field_dict["automation_id"] = automation_id
        if automation_name is not UNSET:
            field_dict["automation_name"] = automation_name
        if campaign_id is not UNSET:
            field_dict["campaign_id"] = campaign_id
        if steps is not UNSET:
            field_dict["steps"] = steps

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        contact_id = d.pop("contact_id")

        status = d.pop("status")

        enrolled_at = d.pop("enrolled_at")

        def _parse_automation_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        automation_id = _parse_automation_id(d.pop("automation_id", UNSET))

        def _parse_automation_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        automation_name = _parse_automation_name(d.pop("automation_name", UNSET))

        def _parse_campaign_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        campaign_id = _parse_campaign_id(d.pop("campaign_id", UNSET))

        def _parse_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        steps = _parse_steps(d.pop("steps", UNSET))

        automation_run_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            contact_id=contact_id,
            status=status,
            enrolled_at=enrolled_at,
            automation_id=automation_id,
            automation_name=automation_name,
            campaign_id=campaign_id,
            steps=steps,
        )

        automation_run_data.additional_properties = d
        return automation_run_data

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
