from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel
from ..models.message_direction import MessageDirection
from ..models.message_status import MessageStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageNarrowed")


@_attrs_define
class MessageNarrowed:
    """A Message narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other member
    only when `fields` names it. Without `fields` the answer is a whole Message.

        Attributes:
            id (str):
            pii_masked (bool): True when from and to are masked.
            contact_id (None | str | Unset): The contact it was sent to or came from.
            channel (MessageChannel | Unset):
            direction (MessageDirection | Unset):
            status (MessageStatus | Unset):
            from_ (None | str | Unset): Sender address. Masked (phones: last four digits; email: first character and domain)
                unless the credential holds contacts:read:pii.
            to (None | str | Unset): Recipient address. Masked (phones: last four digits; email: first character and domain)
                unless the credential holds contacts:read:pii.
            subject (None | str | Unset): Email only.
            body (None | str | Unset): null once the contact was anonymized.
            ai_generated (bool | Unset):
            proactive (bool | None | Unset): Outbound texts: true when the recipient had not written within the reply
                window.
            blocked_reason (None | str | Unset): The refusing gate: account_suspended, opted_out, a2p_not_approved,
                quiet_hours, consent_missing or attempt_limit.
            failure_reason (None | str | Unset): Why it FAILED: the gate's `Blocked (<reason>): <text>`, or the provider's
                error.
            provider (None | str | Unset): local, smtp or twilio; twiml for a keyword reply sent in the answer to an inbound
                text.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
            sent_at (datetime.datetime | None | Unset):
            delivered_at (datetime.datetime | None | Unset):
            failed_at (datetime.datetime | None | Unset):
            received_at (datetime.datetime | None | Unset):
    """

    id: str
    pii_masked: bool
    contact_id: None | str | Unset = UNSET
    channel: MessageChannel | Unset = UNSET
    direction: MessageDirection | Unset = UNSET
    status: MessageStatus | Unset = UNSET
    from_: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    subject: None | str | Unset = UNSET
    body: None | str | Unset = UNSET
    ai_generated: bool | Unset = UNSET
    proactive: bool | None | Unset = UNSET
    blocked_reason: None | str | Unset = UNSET
    failure_reason: None | str | Unset = UNSET
    provider: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    delivered_at: datetime.datetime | None | Unset = UNSET
    failed_at: datetime.datetime | None | Unset = UNSET
    received_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        ai_generated = self.ai_generated

        proactive: bool | None | Unset
        if isinstance(self.proactive, Unset):
            proactive = UNSET
        else:
            proactive = self.proactive

        blocked_reason: None | str | Unset
        if isinstance(self.blocked_reason, Unset):
            blocked_reason = UNSET
        else:
            blocked_reason = self.blocked_reason

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

        provider: None | str | Unset
        if isinstance(self.provider, Unset):
            provider = UNSET
        else:
            provider = self.provider

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        failed_at: None | str | Unset
        if isinstance(self.failed_at, Unset):
            failed_at = UNSET
        elif isinstance(self.failed_at, datetime.datetime):
            failed_at = self.failed_at.isoformat()
        else:
            failed_at = self.failed_at

        received_at: None | str | Unset
        if isinstance(self.received_at, Unset):
            received_at = UNSET
        elif isinstance(self.received_at, datetime.datetime):
            received_at = self.received_at.isoformat()
        else:
            received_at = self.received_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pii_masked": pii_masked,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if channel is not UNSET:
            field_dict["channel"] = channel
        if direction is not UNSET:
            field_dict["direction"] = direction
        if status is not UNSET:
            field_dict["status"] = status
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if subject is not UNSET:
            field_dict["subject"] = subject
        if body is not UNSET:
            field_dict["body"] = body
        if ai_generated is not UNSET:
            field_dict["ai_generated"] = ai_generated
        if proactive is not UNSET:
            field_dict["proactive"] = proactive
        if blocked_reason is not UNSET:
            field_dict["blocked_reason"] = blocked_reason
        if failure_reason is not UNSET:
            field_dict["failure_reason"] = failure_reason
        if provider is not UNSET:
            field_dict["provider"] = provider
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at
        if sent_at is not UNSET:
            field_dict["sent_at"] = sent_at
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if failed_at is not UNSET:
            field_dict["failed_at"] = failed_at
        if received_at is not UNSET:
            field_dict["received_at"] = received_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        _channel = d.pop("channel", UNSET)
        channel: MessageChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = MessageChannel(_channel)

        _direction = d.pop("direction", UNSET)
        direction: MessageDirection | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = MessageDirection(_direction)

        _status = d.pop("status", UNSET)
        status: MessageStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = MessageStatus(_status)

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        ai_generated = d.pop("ai_generated", UNSET)

        def _parse_proactive(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        proactive = _parse_proactive(d.pop("proactive", UNSET))

        def _parse_blocked_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        blocked_reason = _parse_blocked_reason(d.pop("blocked_reason", UNSET))

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason", UNSET))

        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))

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

        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sent_at", UNSET))

        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))

        def _parse_failed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failed_at_type_0 = datetime.datetime.fromisoformat(data)

                return failed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        failed_at = _parse_failed_at(d.pop("failed_at", UNSET))

        def _parse_received_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                received_at_type_0 = datetime.datetime.fromisoformat(data)

                return received_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        received_at = _parse_received_at(d.pop("received_at", UNSET))

        message_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
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
            created_at=created_at,
            updated_at=updated_at,
            sent_at=sent_at,
            delivered_at=delivered_at,
            failed_at=failed_at,
            received_at=received_at,
        )

        message_narrowed.additional_properties = d
        return message_narrowed

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
