from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel
from ..models.message_direction import MessageDirection
from ..models.message_status import MessageStatus

T = TypeVar("T", bound="Message")


@_attrs_define
class Message:
    """A text, WhatsApp message or email: sent, queued, refused or received.

    Attributes:
        id (str):
        contact_id (None | str): The contact it was sent to or came from.
        channel (MessageChannel):
        direction (MessageDirection):
        status (MessageStatus):
        from_ (None | str): Sender address. Masked (phones: last four digits; email: first character and domain) unless
            the credential holds contacts:read:pii.
        to (None | str): Recipient address. Masked (phones: last four digits; email: first character and domain) unless
            the credential holds contacts:read:pii.
        subject (None | str): Email only.
        body (None | str): null once the contact was anonymized.
        ai_generated (bool):
        proactive (bool | None): Outbound texts: true when the recipient had not written within the reply window.
        blocked_reason (None | str): The refusing gate: account_suspended, opted_out, a2p_not_approved, quiet_hours,
            consent_missing or attempt_limit.
        failure_reason (None | str): Why it FAILED: the gate's `Blocked (<reason>): <text>`, or the provider's error.
        provider (None | str): local, smtp or twilio; twiml for a keyword reply sent in the answer to an inbound text.
        pii_masked (bool): True when from and to are masked.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        sent_at (datetime.datetime | None):
        delivered_at (datetime.datetime | None):
        failed_at (datetime.datetime | None):
        received_at (datetime.datetime | None):
    """

    id: str
    contact_id: None | str
    channel: MessageChannel
    direction: MessageDirection
    status: MessageStatus
    from_: None | str
    to: None | str
    subject: None | str
    body: None | str
    ai_generated: bool
    proactive: bool | None
    blocked_reason: None | str
    failure_reason: None | str
    provider: None | str
    pii_masked: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    sent_at: datetime.datetime | None
    delivered_at: datetime.datetime | None
    failed_at: datetime.datetime | None
    received_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id: None | str
        contact_id = self.contact_id

        channel = self.channel.value

        direction = self.direction.value

        status = self.status.value

        from_: None | str
        from_ = self.from_

        to: None | str
        to = self.to

        subject: None | str
        subject = self.subject

        body: None | str
        body = self.body

        ai_generated = self.ai_generated

        proactive: bool | None
        proactive = self.proactive

        blocked_reason: None | str
        blocked_reason = self.blocked_reason

        failure_reason: None | str
        failure_reason = self.failure_reason

        provider: None | str
        provider = self.provider

        pii_masked = self.pii_masked

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        sent_at: None | str
        if isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        failed_at: None | str
        if isinstance(self.failed_at, datetime.datetime):
            failed_at = self.failed_at.isoformat()
        else:
            failed_at = self.failed_at

        received_at: None | str
        if isinstance(self.received_at, datetime.datetime):
            received_at = self.received_at.isoformat()
        else:
            received_at = self.received_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contact_id": contact_id,
                "channel": channel,
                "direction": direction,
                "status": status,
                "from": from_,
                "to": to,
                "subject": subject,
                "body": body,
                "ai_generated": ai_generated,
                "proactive": proactive,
                "blocked_reason": blocked_reason,
                "failure_reason": failure_reason,
                "provider": provider,
                "pii_masked": pii_masked,
                "created_at": created_at,
                "updated_at": updated_at,
                "sent_at": sent_at,
                "delivered_at": delivered_at,
                "failed_at": failed_at,
                "received_at": received_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))

        channel = MessageChannel(d.pop("channel"))

        direction = MessageDirection(d.pop("direction"))

        status = MessageStatus(d.pop("status"))

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))

        def _parse_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        to = _parse_to(d.pop("to"))

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("subject"))

        def _parse_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        body = _parse_body(d.pop("body"))

        ai_generated = d.pop("ai_generated")

        def _parse_proactive(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        proactive = _parse_proactive(d.pop("proactive"))

        def _parse_blocked_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        blocked_reason = _parse_blocked_reason(d.pop("blocked_reason"))

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))

        def _parse_provider(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider = _parse_provider(d.pop("provider"))

        pii_masked = d.pop("pii_masked")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sent_at = _parse_sent_at(d.pop("sent_at"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        def _parse_failed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failed_at_type_0 = datetime.datetime.fromisoformat(data)

                return failed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failed_at = _parse_failed_at(d.pop("failed_at"))

        def _parse_received_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                received_at_type_0 = datetime.datetime.fromisoformat(data)

                return received_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        received_at = _parse_received_at(d.pop("received_at"))

        message = cls(
            id=id,
            contact_id=contact_id,
            channel=channel,
            direction=direction,
            status=status,
            from_=from_,
            to=to,
            subject=subject,
            body=body,
            ai_generated=ai_generated,
            proactive=proactive,
            blocked_reason=blocked_reason,
            failure_reason=failure_reason,
            provider=provider,
            pii_masked=pii_masked,
            created_at=created_at,
            updated_at=updated_at,
            sent_at=sent_at,
            delivered_at=delivered_at,
            failed_at=failed_at,
            received_at=received_at,
        )

        message.additional_properties = d
        return message

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
