from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReceiveInboundMessageBody")


@_attrs_define
class ReceiveInboundMessageBody:
    """
    Attributes:
        from_ (str): the sender, E.164 (`whatsapp:` prefix for WhatsApp)
        to (str): the workspace's receiving number, E.164 (`whatsapp:` prefix for WhatsApp)
        body (str | Unset): the text
        message_sid (str | Unset): the provider's message id; a retried callback with the same id records nothing twice
    """

    from_: str
    to: str
    body: str | Unset = UNSET
    message_sid: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        body = self.body

        message_sid = self.message_sid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "From": from_,
                "To": to,
            }
        )
        if body is not UNSET:
            field_dict["Body"] = body
        if message_sid is not UNSET:
            field_dict["MessageSid"] = message_sid

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = d.pop("From")

        to = d.pop("To")

        body = d.pop("Body", UNSET)

        message_sid = d.pop("MessageSid", UNSET)

        receive_inbound_message_body = cls(
            from_=from_,
            to=to,
            body=body,
            message_sid=message_sid,
        )

        receive_inbound_message_body.additional_properties = d
        return receive_inbound_message_body

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
