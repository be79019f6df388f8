from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LeadCreatedData")


@_attrs_define
class LeadCreatedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): lead id
        source (str):
        ai_outbound_allowed (bool):
        routing_status (str):
        contact_id (None | str | Unset):
        phone (None | str | Unset): masked
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    source: str
    ai_outbound_allowed: bool
    routing_status: str
    contact_id: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        source = self.source

        ai_outbound_allowed = self.ai_outbound_allowed

        routing_status = self.routing_status

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "source": source,
                "ai_outbound_allowed": ai_outbound_allowed,
                "routing_status": routing_status,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if phone is not UNSET:
            field_dict["phone"] = phone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        source = d.pop("source")

        ai_outbound_allowed = d.pop("ai_outbound_allowed")

        routing_status = d.pop("routing_status")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        lead_created_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            source=source,
            ai_outbound_allowed=ai_outbound_allowed,
            routing_status=routing_status,
            contact_id=contact_id,
            phone=phone,
        )

        lead_created_data.additional_properties = d
        return lead_created_data

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
