from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.lead_assigned_data_lead import LeadAssignedDataLead


T = TypeVar("T", bound="LeadAssignedData")


@_attrs_define
class LeadAssignedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        lead_id (str):
        lead (LeadAssignedDataLead): the lead, as in lead.created
        contact_id (None | str | Unset):
        assignee_id (None | str | Unset):
        previous_assignee_id (None | str | Unset):
        rule_id (None | str | Unset):
        method (None | str | Unset):
        reason (None | str | Unset):
    """

    event_id: str
    occurred_at: datetime.datetime
    lead_id: str
    lead: LeadAssignedDataLead
    contact_id: None | str | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    previous_assignee_id: None | str | Unset = UNSET
    rule_id: None | str | Unset = UNSET
    method: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        lead_id = self.lead_id

        lead = self.lead.to_dict()

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

        previous_assignee_id: None | str | Unset
        if isinstance(self.previous_assignee_id, Unset):
            previous_assignee_id = UNSET
        else:
            previous_assignee_id = self.previous_assignee_id

        rule_id: None | str | Unset
        if isinstance(self.rule_id, Unset):
            rule_id = UNSET
        else:
            rule_id = self.rule_id

        method: None | str | Unset
        if isinstance(self.method, Unset):
            method = UNSET
        else:
            method = self.method

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "lead_id": lead_id,
                "lead": lead,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if previous_assignee_id is not UNSET:
            field_dict["previous_assignee_id"] = previous_assignee_id
        if rule_id is not UNSET:
            field_dict["rule_id"] = rule_id
        if method is not UNSET:
            field_dict["method"] = method
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.lead_assigned_data_lead import LeadAssignedDataLead

        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        lead_id = d.pop("lead_id")

        lead = LeadAssignedDataLead.from_dict(d.pop("lead"))

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

        def _parse_previous_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        previous_assignee_id = _parse_previous_assignee_id(
            d.pop("previous_assignee_id", UNSET)
        )

        def _parse_rule_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rule_id = _parse_rule_id(d.pop("rule_id", UNSET))

        def _parse_method(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        method = _parse_method(d.pop("method", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        lead_assigned_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            lead_id=lead_id,
            lead=lead,
            contact_id=contact_id,
            assignee_id=assignee_id,
            previous_assignee_id=previous_assignee_id,
            rule_id=rule_id,
            method=method,
            reason=reason,
        )

        lead_assigned_data.additional_properties = d
        return lead_assigned_data

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
