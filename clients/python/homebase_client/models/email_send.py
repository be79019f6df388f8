from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.email_send_channel import EmailSendChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="EmailSend")


@_attrs_define
class EmailSend:
    """An email: `subject` is required; `from` is refused (the workspace's sender address
    is used).

        Attributes:
            channel (EmailSendChannel): EMAIL. `email` is accepted too and deprecated (as is any other casing, which the
                enum cannot list); answered in upper case.
            subject (str): The subject line. One line: no line breaks (CR, LF) or other control characters (a tab is
                allowed).
            contact_id (None | str | Unset): The recipient contact: its phone (texts) or email (email). Give exactly one of
                contact_id and to (both or neither: 400 naming `to`).
            ai_generated (bool | Unset): True when an AI composed the text. Default: False.
            to (None | str | Unset): Or one bare address matching the contact email pattern (no display name, comment,
                quotes, angle brackets or list); linked to the contact with that address, if any, and compared with the
                suppression list lower-cased. Give exactly one of contact_id and to (both or neither: 400 naming `to`).
            body (str | Unset): The text. Required unless the deprecated `text` is sent instead.
            text (str | Unset): Deprecated: the same as `body`, which replaces it. Send one of them, never both.
    """

    channel: EmailSendChannel
    subject: str
    contact_id: None | str | Unset = UNSET
    ai_generated: bool | Unset = False
    to: None | str | Unset = UNSET
    body: str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        subject = self.subject

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

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "channel": channel,
                "subject": subject,
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
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        channel = EmailSendChannel(d.pop("channel"))

        subject = d.pop("subject")

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

        text = d.pop("text", UNSET)

        email_send = cls(
            channel=channel,
            subject=subject,
            contact_id=contact_id,
            ai_generated=ai_generated,
            to=to,
            body=body,
            text=text,
        )

        return email_send
