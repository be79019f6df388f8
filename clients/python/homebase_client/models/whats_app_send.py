from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.whats_app_send_channel import WhatsAppSendChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="WhatsAppSend")


@_attrs_define
class WhatsAppSend:
    """A WhatsApp message. `subject` is refused (email only).

    Attributes:
        channel (WhatsAppSendChannel): WHATSAPP. `whatsapp` is accepted too and deprecated (as is any other casing,
            which the enum cannot list); answered in upper case.
        contact_id (None | str | Unset): The recipient contact: its phone (texts) or email (email). Give exactly one of
            contact_id and to (both or neither: 400 naming `to`).
        ai_generated (bool | Unset): True when an AI composed the text. Default: False.
        to (None | str | Unset): Or a phone number: E.164 (`+14155550142`) or a US national number; linked to the
            contact with that number, if any. Give exactly one of contact_id and to (both or neither: 400 naming `to`).
        body (str | Unset): The text, at most 1600 characters. Required unless the deprecated `text` is sent instead.
        from_ (None | str | Unset): One of the workspace's sender numbers for the channel. Default: its first carrier-
            approved one.
        text (str | Unset): Deprecated: the same as `body`, which replaces it. Send one of them, never both.
    """

    channel: WhatsAppSendChannel
    contact_id: None | str | Unset = UNSET
    ai_generated: bool | Unset = False
    to: None | str | Unset = UNSET
    body: str | Unset = UNSET
    from_: None | str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        ai_generated = self.ai_generated

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        body = self.body

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "channel": channel,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if ai_generated is not UNSET:
            field_dict["ai_generated"] = ai_generated
        if to is not UNSET:
            field_dict["to"] = to
        if body is not UNSET:
            field_dict["body"] = body
        if from_ is not UNSET:
            field_dict["from"] = from_
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        channel = WhatsAppSendChannel(d.pop("channel"))

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        ai_generated = d.pop("ai_generated", UNSET)

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        body = d.pop("body", UNSET)

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        text = d.pop("text", UNSET)

        whats_app_send = cls(
            channel=channel,
            contact_id=contact_id,
            ai_generated=ai_generated,
            to=to,
            body=body,
            from_=from_,
            text=text,
        )

        return whats_app_send
