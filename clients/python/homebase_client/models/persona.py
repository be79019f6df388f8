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
        instructions (None | str): What the AI is for and must not do, given to the model as its instructions.
        responder (bool): True for the workspace's AI responder (at most one): the persona the AI answers leads' inbound
            texts as.
        disclosure (None | str): Opens the responder's first reply: says an automated assistant is writing, and for
            whom. Up to 160 characters.
        handoff_reply (None | str): What the responder answers when it hands the conversation to a person.
        handoff_assignee (None | str): The workspace member a handed-off conversation goes to (a user id).
        links (list[str]): The page URLs (absolute http or https) the responder's replies may carry, besides the
            workspace's listings' own `url`; empty when none.
        phone (None | str): The persona's business number in E.164, the one number its replies may give. The business's,
            not a contact's: never masked.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    tone: str
    channels: list[MessageChannel]
    signature: None | str
    instructions: None | str
    responder: bool
    disclosure: None | str
    handoff_reply: None | str
    handoff_assignee: None | str
    links: list[str]
    phone: None | str
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

        instructions: None | str
        instructions = self.instructions

        responder = self.responder

        disclosure: None | str
        disclosure = self.disclosure

        handoff_reply: None | str
        handoff_reply = self.handoff_reply

        handoff_assignee: None | str
        handoff_assignee = self.handoff_assignee

        links = self.links

        phone: None | str
        phone = self.phone

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
                "instructions": instructions,
                "responder": responder,
                "disclosure": disclosure,
                "handoff_reply": handoff_reply,
                "handoff_assignee": handoff_assignee,
                "links": links,
                "phone": phone,
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

        def _parse_instructions(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        instructions = _parse_instructions(d.pop("instructions"))

        responder = d.pop("responder")

        def _parse_disclosure(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disclosure = _parse_disclosure(d.pop("disclosure"))

        def _parse_handoff_reply(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handoff_reply = _parse_handoff_reply(d.pop("handoff_reply"))

        def _parse_handoff_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handoff_assignee = _parse_handoff_assignee(d.pop("handoff_assignee"))

        links = cast(list[str], d.pop("links"))

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        persona = cls(
            id=id,
            name=name,
            tone=tone,
            channels=channels,
            signature=signature,
            instructions=instructions,
            responder=responder,
            disclosure=disclosure,
            handoff_reply=handoff_reply,
            handoff_assignee=handoff_assignee,
            links=links,
            phone=phone,
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
