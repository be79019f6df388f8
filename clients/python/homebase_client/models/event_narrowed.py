from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_narrowed_data import EventNarrowedData


T = TypeVar("T", bound="EventNarrowed")


@_attrs_define
class EventNarrowed:
    """A Event narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Event.

        Attributes:
            id (str):
            contact_id (str | Unset):
            type_ (str | Unset): note, stage_changed; later also lead_created, lead_assigned, message, call and more.
            title (str | Unset):
            body (None | str | Unset):
            data (EventNarrowedData | Unset):
            actor (None | str | Unset): Id of the credential that caused it, if any.
            occurred_at (datetime.datetime | Unset):
    """

    id: str
    contact_id: str | Unset = UNSET
    type_: str | Unset = UNSET
    title: str | Unset = UNSET
    body: None | str | Unset = UNSET
    data: EventNarrowedData | Unset = UNSET
    actor: None | str | Unset = UNSET
    occurred_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id = self.contact_id

        type_ = self.type_

        title = self.title

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        actor: None | str | Unset
        if isinstance(self.actor, Unset):
            actor = UNSET
        else:
            actor = self.actor

        occurred_at: str | Unset = UNSET
        if not isinstance(self.occurred_at, Unset):
            occurred_at = self.occurred_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if title is not UNSET:
            field_dict["title"] = title
        if body is not UNSET:
            field_dict["body"] = body
        if data is not UNSET:
            field_dict["data"] = data
        if actor is not UNSET:
            field_dict["actor"] = actor
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_narrowed_data import EventNarrowedData

        d = dict(src_dict)
        id = d.pop("id")

        contact_id = d.pop("contact_id", UNSET)

        type_ = d.pop("type", UNSET)

        title = d.pop("title", UNSET)

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        _data = d.pop("data", UNSET)
        data: EventNarrowedData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = EventNarrowedData.from_dict(_data)

        def _parse_actor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor = _parse_actor(d.pop("actor", UNSET))

        _occurred_at = d.pop("occurred_at", UNSET)
        occurred_at: datetime.datetime | Unset
        if isinstance(_occurred_at, Unset):
            occurred_at = UNSET
        else:
            occurred_at = datetime.datetime.fromisoformat(_occurred_at)

        event_narrowed = cls(
            id=id,
            contact_id=contact_id,
            type_=type_,
            title=title,
            body=body,
            data=data,
            actor=actor,
            occurred_at=occurred_at,
        )

        event_narrowed.additional_properties = d
        return event_narrowed

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
