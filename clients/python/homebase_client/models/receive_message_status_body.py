from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReceiveMessageStatusBody")


@_attrs_define
class ReceiveMessageStatusBody:
    """
    Attributes:
        message_sid (str): the provider's id of a message this service sent
        message_status (str): queued, sending, sent, delivered, undelivered or failed
        from_ (str): the sending number, E.164 (`whatsapp:` prefix for WhatsApp)
        error_code (str | Unset): the provider's error code, when it failed
        error_message (str | Unset): the provider's error text, when it failed
    """

    message_sid: str
    message_status: str
    from_: str
    error_code: str | Unset = UNSET
    error_message: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_sid = self.message_sid

        message_status = self.message_status

        from_ = self.from_

        error_code = self.error_code

        error_message = self.error_message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "MessageSid": message_sid,
                "MessageStatus": message_status,
                "From": from_,
            }
        )
        if error_code is not UNSET:
            field_dict["ErrorCode"] = error_code
        if error_message is not UNSET:
            field_dict["ErrorMessage"] = error_message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message_sid = d.pop("MessageSid")

        message_status = d.pop("MessageStatus")

        from_ = d.pop("From")

        error_code = d.pop("ErrorCode", UNSET)

        error_message = d.pop("ErrorMessage", UNSET)

        receive_message_status_body = cls(
            message_sid=message_sid,
            message_status=message_status,
            from_=from_,
            error_code=error_code,
            error_message=error_message,
        )

        receive_message_status_body.additional_properties = d
        return receive_message_status_body

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
