from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="PersonaNarrowed")


@_attrs_define
class PersonaNarrowed:
    """A Persona narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Persona.

        Attributes:
            id (str):
            name (str | Unset):
            tone (str | Unset): How the persona writes.
            channels (list[MessageChannel] | Unset): Where its messages may go.
            signature (None | str | Unset): Appended to every message it sends.
            instructions (None | str | Unset): What the AI is for and must not do, given to the model as its instructions.
            responder (bool | Unset): True for the workspace's AI responder (at most one): the persona the AI answers leads'
                inbound texts as.
            disclosure (None | str | Unset): Opens the responder's first reply: says an automated assistant is writing, and
                for whom. Up to 160 characters.
            handoff_reply (None | str | Unset): What the responder answers when it hands the conversation to a person.
            handoff_assignee (None | str | Unset): The workspace member a handed-off conversation goes to (a user id).
            links (list[str] | Unset): The page URLs (absolute http or https) the responder's replies may carry, besides the
                workspace's listings' own `url`; empty when none.
            phone (None | str | Unset): The persona's business number in E.164, the one number its replies may give. The
                business's, not a contact's: never masked.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    name: str | Unset = UNSET
    tone: str | Unset = UNSET
    channels: list[MessageChannel] | Unset = UNSET
    signature: None | str | Unset = UNSET
    instructions: None | str | Unset = UNSET
    responder: bool | Unset = UNSET
    disclosure: None | str | Unset = UNSET
    handoff_reply: None | str | Unset = UNSET
    handoff_assignee: None | str | Unset = UNSET
    links: list[str] | Unset = UNSET
    phone: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tone = self.tone

        channels: list[str] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = []
            for channels_item_data in self.channels:
                channels_item = channels_item_data.value
                channels.append(channels_item)

        signature: None | str | Unset
        if isinstance(self.signature, Unset):
            signature = UNSET
        else:
            signature = self.signature

        instructions: None | str | Unset
        if isinstance(self.instructions, Unset):
            instructions = UNSET
        else:
            instructions = self.instructions

        responder = self.responder

        disclosure: None | str | Unset
        if isinstance(self.disclosure, Unset):
            disclosure = UNSET
        else:
            disclosure = self.disclosure

        handoff_reply: None | str | Unset
        if isinstance(self.handoff_reply, Unset):
            handoff_reply = UNSET
        else:
            handoff_reply = self.handoff_reply

        handoff_assignee: None | str | Unset
        if isinstance(self.handoff_assignee, Unset):
            handoff_assignee = UNSET
        else:
            handoff_assignee = self.handoff_assignee

        links: list[str] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = self.links

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if tone is not UNSET:
            field_dict["tone"] = tone
        if channels is not UNSET:
            field_dict["channels"] = channels
        if signature is not UNSET:
            field_dict["signature"] = signature
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
        if responder is not UNSET:
            field_dict["responder"] = responder
        if disclosure is not UNSET:
            field_dict["disclosure"] = disclosure
        if handoff_reply is not UNSET:
            field_dict["handoff_reply"] = handoff_reply
        if handoff_assignee is not UNSET:
            field_dict["handoff_assignee"] = handoff_assignee
        if links is not UNSET:
            field_dict["links"] = links
        if phone is not UNSET:
            field_dict["phone"] = phone
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        tone = d.pop("tone", UNSET)

        _channels = d.pop("channels", UNSET)
        channels: list[MessageChannel] | Unset = UNSET
        if _channels is not UNSET:
            channels = []
            for channels_item_data in _channels:
                channels_item = MessageChannel(channels_item_data)

                channels.append(channels_item)

        def _parse_signature(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signature = _parse_signature(d.pop("signature", UNSET))

        def _parse_instructions(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        instructions = _parse_instructions(d.pop("instructions", UNSET))

        responder = d.pop("responder", UNSET)

        def _parse_disclosure(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disclosure = _parse_disclosure(d.pop("disclosure", UNSET))

        def _parse_handoff_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        handoff_reply = _parse_handoff_reply(d.pop("handoff_reply", UNSET))

        def _parse_handoff_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        handoff_assignee = _parse_handoff_assignee(d.pop("handoff_assignee", UNSET))

        links = cast(list[str], d.pop("links", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        persona_narrowed = cls(
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

        persona_narrowed.additional_properties = d
        return persona_narrowed

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
