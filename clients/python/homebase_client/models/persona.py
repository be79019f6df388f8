from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel

T = TypeVar("T", bound="Persona")


@_attrs_define
class Persona:
    """
    Attributes:
        id (str):
        name (str):
        tone (str): How the persona writes.
        channels (list[MessageChannel]): Where its messages may go.
        signature (None | str): Appended to every message it sends.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    tone: str
    channels: list[MessageChannel]
    signature: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tone = self.tone

        channels = []
        for channels_item_data in self.channels:
            channels_item = channels_item_data.value
            channels.append(channels_item)

        signature: None | str
        signature = self.signature

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "tone": tone,
                "channels": channels,
                "signature": signature,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        tone = d.pop("tone")

        channels = []
        _channels = d.pop("channels")
        for channels_item_data in _channels:
            channels_item = MessageChannel(channels_item_data)

            channels.append(channels_item)

        def _parse_signature(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        signature = _parse_signature(d.pop("signature"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        persona = cls(
            id=id,
            name=name,
            tone=tone,
            channels=channels,
            signature=signature,
            created_at=created_at,
            updated_at=updated_at,
        )

        persona.additional_properties = d
        return persona

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
