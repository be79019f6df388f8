from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageReceivedData")


@_attrs_define
class MessageReceivedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): message id
        channel (str): SMS, WHATSAPP or EMAIL
        direction (str): OUTBOUND|INBOUND
        status (str):
        ai_generated (bool): composed by the AI
        contact_id (None | str | Unset):
        from_ (None | str | Unset): masked
        to (None | str | Unset): masked
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    channel: str
    direction: str
    status: str
    ai_generated: bool
    contact_id: None | str | Unset = UNSET
    from_: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        channel = self.channel

        direction = self.direction

        status = self.status

        ai_generated = self.ai_generated

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "channel": channel,
                "direction": direction,
                "status": status,
                "ai_generated": ai_generated,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        channel = d.pop("channel")

        direction = d.pop("direction")

        status = d.pop("status")

        ai_generated = d.pop("ai_generated")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        message_received_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            channel=channel,
            direction=direction,
            status=status,
            ai_generated=ai_generated,
            contact_id=contact_id,
            from_=from_,
            to=to,
        )

        message_received_data.additional_properties = d
        return message_received_data

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
