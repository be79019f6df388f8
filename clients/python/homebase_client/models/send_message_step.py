from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.message_channel import MessageChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="SendMessageStep")


@_attrs_define
class SendMessageStep:
    """An AI-composed message through a persona: the template, then the persona's
    signature. It passes every compliance gate, as POST /messages does.

        Attributes:
            type_ (Literal['send_message']):
            persona_id (str):
            channel (MessageChannel):
            template (str):
            subject (None | str | Unset): Email only, and required there. One line.
    """

    type_: Literal["send_message"]
    persona_id: str
    channel: MessageChannel
    template: str
    subject: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        persona_id = self.persona_id

        channel = self.channel.value

        template = self.template

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "persona_id": persona_id,
                "channel": channel,
                "template": template,
            }
        )
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["send_message"], d.pop("type"))
        if type_ != "send_message":
            raise ValueError(f"type must match const 'send_message', got '{type_}'")

        persona_id = d.pop("persona_id")

        channel = MessageChannel(d.pop("channel"))

        template = d.pop("template")

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        send_message_step = cls(
            type_=type_,
            persona_id=persona_id,
            channel=channel,
            template=template,
            subject=subject,
        )

        return send_message_step
