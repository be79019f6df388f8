from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SavedSearchSentData")


@_attrs_define
class SavedSearchSentData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        saved_search_id (str):
        name (str):
        contact_id (str):
        listing_ids (list[str]):
        channel (str): EMAIL or SMS
        sent_at (str):
    """

    event_id: str
    occurred_at: datetime.datetime
    saved_search_id: str
    name: str
    contact_id: str
    listing_ids: list[str]
    channel: str
    sent_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        saved_search_id = self.saved_search_id

        name = self.name

        contact_id = self.contact_id

        listing_ids = self.listing_ids

        channel = self.channel

        sent_at = self.sent_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "saved_search_id": saved_search_id,
                "name": name,
                "contact_id": contact_id,
                "listing_ids": listing_ids,
                "channel": channel,
                "sent_at": sent_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        saved_search_id = d.pop("saved_search_id")

        name = d.pop("name")

        contact_id = d.pop("contact_id")

        listing_ids = cast(list[str], d.pop("listing_ids"))

        channel = d.pop("channel")

        sent_at = d.pop("sent_at")

        saved_search_sent_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            saved_search_id=saved_search_id,
            name=name,
            contact_id=contact_id,
            listing_ids=listing_ids,
            channel=channel,
            sent_at=sent_at,
        )

        saved_search_sent_data.additional_properties = d
        return saved_search_sent_data

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
