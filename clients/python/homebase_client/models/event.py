from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """A timeline entry: a note, a stage change, and (as those areas arrive) calls,
    messages and lead activity.

        Attributes:
            id (str):
            contact_id (str):
            type_ (str): note, stage_changed; later also lead_created, lead_assigned, message, call and more.
            title (str):
            body (None | str):
            data (EventData):
            actor (None | str): Id of the credential that caused it, if any.
            occurred_at (datetime.datetime):
    """

    id: str
    contact_id: str
    type_: str
    title: str
    body: None | str
    data: EventData
    actor: None | str
    occurred_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id = self.contact_id

        type_ = self.type_

        title = self.title

        body: None | str
        body = self.body

        data = self.data.to_dict()

        actor: None | str
        actor = self.actor

        occurred_at = self.occurred_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contact_id": contact_id,
                "type": type_,
                "title": title,
                "body": body,
                "data": data,
                "actor": actor,
                "occurred_at": occurred_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data import EventData

        d = dict(src_dict)
        id = d.pop("id")

        contact_id = d.pop("contact_id")

        type_ = d.pop("type")

        title = d.pop("title")

        def _parse_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        body = _parse_body(d.pop("body"))

        data = EventData.from_dict(d.pop("data"))

        def _parse_actor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor = _parse_actor(d.pop("actor"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        event = cls(
            id=id,
            contact_id=contact_id,
            type_=type_,
            title=title,
            body=body,
            data=data,
            actor=actor,
            occurred_at=occurred_at,
        )

        event.additional_properties = d
        return event

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
